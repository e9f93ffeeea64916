/**
 * The create-receipt-card command (DESIGN §4 "Stock intake", §5): stock enters at `costPrice`. The
 * ledger rules (settlement of a negative balance, FIFO layer, average, repost of later issues for a
 * back-dated receipt) are the replay's (`ledger-posting.ts`, `domain/ledger-replay.ts`); this command
 * resolves, then stores the card in its ordner's group commit like an issue card (issue #24: one way to
 * store a numbered document).
 */

import {
  EventSubjects,
  type ReceiptCard,
  type ReceiptCardInput,
  type StockReceivedEvent,
} from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import { dec, fmt, round2, sum } from '@bm/money';
import {
  awaitingNumber,
  type Ctx,
  checkGivenRecordNumber,
  entryRows,
  type GroupTx,
  groupCommit,
  outboxRow,
  type Prepared,
} from '@bm/service-kit';
import { type PostingLine, planPosting, storePosting } from '../application/ledger-posting.js';
import { closedPeriods, resolveOrdner, resolveRows, resolveWarehouse } from '../application/references.js';
import { receiptEntries } from '../domain/warehouse-accounting.js';
import {
  AccountingEntryEntity,
  OutboxEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
} from '../persistence/entities.js';
import { lockOpenPeriodState } from '../persistence/period-state.repository.js';
import { layerKey, lockBalances, nextSeqs } from '../persistence/stock-ledger.repository.js';
import { checkPartner, findPeriod } from '../ports/references.port.js';
import { type EntryRow, type ReceiptRow, type ReceiptRowRow, receiptDto } from '../queries/receipt-cards.js';
import type { WarehouseDeps } from './create-issue-card.js';

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
  const table = '"warehouse"."receipt_card"';
  const given = input.recordNumber?.trim() || undefined;
  /** The card's work in its ordner's group commit, under its own savepoint (DESIGN §5, issue #24). */
  const prepare = async (g: GroupTx): Promise<Prepared<ReceiptCard>> => {
    const tx = g.tx;
    const keys = resolved.map((r) => ({ itemId: r.item.id, lotNumberID: r.lotNumberID }));
    // The period stays open until this card commits: closing it waits for this share lock (DESIGN §5).
    // Taken once per group commit: the lock holds until the shared transaction ends.
    await g.once(`period:${period.id}`, () => lockOpenPeriodState(tx, companyId, period.id));
    const balances = await lockBalances(tx, companyId, warehouse.id, keys);
    await checkGivenRecordNumber(tx, table, companyId, given);
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
    const settled = sum([...plan.settled.values()]);
    const now = new Date();
    const rows = input.rows.map((r, i) => ({
      id: crypto.randomUUID(),
      companyId,
      receiptCardId: cardId,
      rowNo: i + 1,
      itemId: resolved[i].item.id,
      lotNumberId: resolved[i].lotNumberID,
      quantity: r.quantity,
      costPrice: r.costPrice,
      amount: fmt(round2(dec(r.quantity).mul(dec(r.costPrice)))),
    }));
    const totalCost = sum(rows.map((r) => r.amount));
    /** The card, its rows, entries and event under its record number (one statement for the group). */
    const finish = (recordNumber: string) => {
      const entries = entryRows(
        companyId,
        cardId,
        receiptEntries(warehouse, totalCost, settled, recordNumber),
      );
      const receipt = {
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
      };
      const event: StockReceivedEvent = {
        eventId: crypto.randomUUID(),
        companyId,
        receiptCardId: cardId,
        recordNumber,
        warehouseId: warehouse.id,
        dateOperation,
        rows: rows.map((r) => ({
          itemId: r.itemId,
          lotNumberID: r.lotNumberId ?? null,
          quantity: r.quantity,
          costPrice: r.costPrice,
        })),
      };
      return {
        rows: [
          { entity: ReceiptCardEntity, rows: [receipt] },
          { entity: ReceiptCardRowEntity, rows },
          { entity: AccountingEntryEntity, rows: entries },
          { entity: OutboxEntity, rows: [outboxRow(companyId, EventSubjects.stockReceived, event)] },
        ],
        value: receiptDto(receipt as ReceiptRow, rows as ReceiptRowRow[], entries as EntryRow[]),
      };
    };
    // Numbered with the group after every card's work (DESIGN §5); a given number is stored at once.
    return awaitingNumber({ table, companyId, ordner, date: dateOperation, given }, finish);
  };
  // Receipts (of any companies and ordners) arriving together share one transaction, like issue cards (issue #24); their
  // stock keys are declared, so groups of this process never wait for each other's balance locks.
  const locks = lines.map((l) => layerKey(warehouse.id, l));
  const card = await groupCommit('warehouse:receipt-card', em, prepare, { locks });
  deps.kickOutbox();
  return card;
}
