/**
 * Receipt cards (DESIGN §4 "Stock intake", §5): stock enters at `costPrice`. The ledger rules (settlement
 * of a negative balance, FIFO layer, average, repost of later issues for a back-dated receipt) are the
 * replay's (`ledger-posting.ts`, `domain/ledger-replay.ts`); this module resolves, numbers and stores.
 */

import {
  EventSubjects,
  type ReceiptCard,
  type ReceiptCardInput,
  type StockReceivedEvent,
} from '@bm/contracts';
import { notFound } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { dec, fmt, round2, sum } from '@bm/money';
import {
  addEntries,
  type Ctx,
  type EntityManager,
  enqueueEvent,
  entryDtos,
  recordNumbering,
} from '@bm/service-kit';
import type { WarehouseDeps } from '../commands/create-issue-card.js';
import { receiptEntries } from '../domain/warehouse-accounting.js';
import {
  AccountingEntryEntity,
  OutboxEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
} from '../persistence/entities.js';
import { lockOpenPeriodState } from '../persistence/period-state.repository.js';
import { lockBalances, nextSeqs } from '../persistence/stock-ledger.repository.js';
import { checkPartner, findPeriod } from '../ports/references.port.js';
import { type PostingLine, planPosting, storePosting } from './ledger-posting.js';
import { closedPeriods, resolveOrdner, resolveRows, resolveWarehouse } from './references.js';

type ReceiptRow = InstanceType<typeof ReceiptCardEntity.class>;
type ReceiptRowRow = InstanceType<typeof ReceiptCardRowEntity.class>;
type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

/** The reply shape of a stored receipt card. */
export function receiptDto(card: ReceiptRow, rows: ReceiptRowRow[], entries: EntryRow[]): ReceiptCard {
  return {
    id: card.id,
    ordnerId: card.ordnerId,
    warehouseId: card.warehouseId,
    partnerId: card.partnerId ?? null,
    recordNumber: card.recordNumber,
    dateOperation: card.dateOperation,
    dateAccounting: card.dateAccounting,
    periodId: card.periodId ?? null,
    rows: rows
      .sort((a, b) => a.rowNo - b.rowNo)
      .map((r) => ({
        id: r.id,
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        quantity: r.quantity,
        costPrice: r.costPrice,
        amount: r.amount,
      })),
    totalCost: card.totalCost,
    accountingEntries: entryDtos(entries),
  };
}

/** `GET /1.6/warehouses/receipt-cards/{id}`. */
export async function getReceiptCard(em: EntityManager, id: string): Promise<ReceiptCard> {
  const card = await em.findOne(ReceiptCardEntity, { id });
  if (!card) throw notFound('Receipt card');
  const [rows, entries] = await Promise.all([
    em.find(ReceiptCardRowEntity, { receiptCardId: id }),
    em.find(AccountingEntryEntity, { documentId: id }),
  ]);
  return receiptDto(card, rows, entries);
}

/** `POST /1.6/warehouses/receipt-cards`. Errors: 400, 409 DuplicateRecordNumber, 422 ReferenceNotFound, LotNumberRequired, PeriodNotFound, PeriodClosed. */
export async function createReceiptCard(
  deps: WarehouseDeps,
  ctx: Ctx,
  input: ReceiptCardInput,
): Promise<ReceiptCard> {
  const { kit } = deps;
  const em = ctx.em;
  const companyId = ctx.companyId!;
  const dateOperation = input.dateOperation ?? todayIn(ctx.timeZone);
  const dateAccounting = input.dateAccounting ?? dateOperation;
  const ordner = await resolveOrdner(em, input.ordnerId, input.ordnerCode, 'ReceiptCard');
  const warehouse = await resolveWarehouse(em, input.warehouseId, input.warehouseCode);
  const resolved = await resolveRows(em, input.rows);
  const [, period] = await Promise.all([
    input.partnerId ? checkPartner(kit, ctx, input.partnerId) : undefined,
    findPeriod(kit, ctx, input.periodId, dateAccounting, dateOperation),
  ]);

  const lines: PostingLine[] = input.rows.map((r, i) => ({
    line: i,
    itemId: resolved[i].item.id,
    lotNumberID: resolved[i].lotNumberID,
    quantity: dec(r.quantity),
    costPrice: dec(r.costPrice),
  }));
  const card = await em.transactional(async (tx) => {
    const keys = resolved.map((r) => ({ itemId: r.item.id, lotNumberID: r.lotNumberID }));
    // The period stays open until this card commits: closing it waits for this share lock (DESIGN §5).
    await lockOpenPeriodState(tx, companyId, period.id);
    const balances = await lockBalances(tx, companyId, warehouse.id, keys);
    const numbering = recordNumbering(tx, {
      schema: 'warehouse',
      companyId,
      ordner,
      date: dateOperation,
      given: input.recordNumber,
      table: '"warehouse"."receipt_card"',
    });
    await numbering.check();
    const cardId = crypto.randomUUID();
    const plan = await planPosting(
      tx,
      companyId,
      warehouse,
      { kind: 'receipt', docId: cardId, date: dateOperation, lines },
      balances,
      new Map(),
      () => {
        throw new Error('a receipt is never short of stock');
      },
    );
    const [seq] = await nextSeqs(tx, 1);
    await storePosting(tx, ctx, plan, seq, balances, (ids) => closedPeriods({ ...ctx, em: tx }, ids));
    const now = new Date();
    const settled = sum([...plan.settled.values()]);
    const rowEntities = input.rows.map((r, i) =>
      tx.create(ReceiptCardRowEntity, {
        id: crypto.randomUUID(),
        companyId,
        receiptCardId: cardId,
        rowNo: i + 1,
        itemId: resolved[i].item.id,
        lotNumberId: resolved[i].lotNumberID,
        quantity: r.quantity,
        costPrice: r.costPrice,
        amount: fmt(round2(dec(r.quantity).mul(dec(r.costPrice)))),
      }),
    );
    // Last step before commit: the ordner's counter stays locked from here on (DESIGN §5).
    const recordNumber = await numbering.assign();
    const totalCost = sum(rowEntities.map((r) => r.amount));
    const entries = receiptEntries(warehouse, totalCost, settled, recordNumber);
    const entryEntities = addEntries(tx, AccountingEntryEntity, companyId, cardId, entries);
    const receipt = tx.create(ReceiptCardEntity, {
      id: cardId,
      companyId,
      ordnerId: ordner.id,
      warehouseId: warehouse.id,
      partnerId: input.partnerId ?? null,
      recordNumber,
      dateOperation,
      dateAccounting,
      periodId: period.id,
      totalCost: fmt(totalCost),
      createdAt: now,
    });
    const event: StockReceivedEvent = {
      eventId: crypto.randomUUID(),
      companyId,
      receiptCardId: cardId,
      recordNumber,
      warehouseId: warehouse.id,
      dateOperation,
      rows: rowEntities.map((r) => ({
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        quantity: r.quantity,
        costPrice: r.costPrice,
      })),
    };
    enqueueEvent(tx, OutboxEntity, companyId, EventSubjects.stockReceived, event);
    await tx.flush();
    return receiptDto(receipt, rowEntities, entryEntities);
  });
  deps.kickOutbox();
  return card;
}
