/**
 * Receipt cards (DESIGN §4 "Stock intake", §5): stock enters at `costPrice`. A receipt into a negative
 * balance first settles the missing pieces at its cost (their value leaves the stock at once: debit
 * expense / credit stock on an accounted warehouse); the rest forms a FIFO layer and joins the average.
 */
import {
  EventSubjects,
  type ReceiptCard,
  type ReceiptCardInput,
  type StockReceivedEvent,
} from '@bm/contracts';
import { notFound } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { dec, fmt, sum } from '@bm/money';
import {
  addEntries,
  type Ctx,
  type EntityManager,
  enqueueEvent,
  entryDtos,
  recordNumbering,
} from '@bm/service-kit';
import { splitReceipt } from '../domain/receipt.js';
import { receiptEntries } from '../domain/warehouse-accounting.js';
import {
  AccountingEntryEntity,
  OutboxEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
  StockMovementEntity,
  ValuationLayerEntity,
} from '../persistence/entities.js';
import { lockBalances, lotKeyOf, nextSeqs } from '../persistence/stock-ledger.repository.js';
import type { WarehouseDeps } from './issue-card.service.js';
import { checkPartner, findPeriod, resolveOrdner, resolveRows, resolveWarehouse } from './references.js';

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
    findPeriod(kit, ctx, input.periodId, dateAccounting),
  ]);

  const card = await em.transactional(async (tx) => {
    const keys = resolved.map((r) => ({ itemId: r.item.id, lotNumberID: r.lotNumberID }));
    const balances = await lockBalances(tx, companyId, warehouse.id, keys);
    const numbering = recordNumbering(tx, {
      schema: 'warehouse',
      companyId,
      ordner,
      date: dateOperation,
      given: input.recordNumber,
      exists: async (n) => (await tx.count(ReceiptCardEntity, { recordNumber: n })) > 0,
    });
    await numbering.check();
    const cardId = crypto.randomUUID();
    const seqs = await nextSeqs(tx, input.rows.length * 2);
    const now = new Date();
    let settled = dec(0);
    const rowEntities = input.rows.map((r, i) => {
      const { item, lotNumberID } = resolved[i];
      const balance = balances.get(`${item.id}|${lotKeyOf(lotNumberID)}`)!;
      const split = splitReceipt(dec(balance.quantity), dec(r.quantity), dec(r.costPrice));
      const at = {
        companyId,
        warehouseId: warehouse.id,
        itemId: item.id,
        lotKey: lotKeyOf(lotNumberID),
        dateOperation,
      };
      tx.create(StockMovementEntity, {
        id: crypto.randomUUID(),
        ...at,
        seq: seqs[2 * i],
        quantity: r.quantity,
        value: fmt(split.amount),
        documentType: 'ReceiptCard',
        documentId: cardId,
      });
      if (split.settledQuantity.gt(0)) {
        settled = settled.plus(split.settlementValue);
        tx.create(StockMovementEntity, {
          id: crypto.randomUUID(),
          ...at,
          seq: seqs[2 * i + 1],
          quantity: '0',
          value: fmt(split.settlementValue.neg()),
          documentType: 'NegativeStockSettlement',
          documentId: cardId,
        });
      }
      if (split.layerQuantity.gt(0)) {
        tx.create(ValuationLayerEntity, {
          id: crypto.randomUUID(),
          ...at,
          seq: seqs[2 * i],
          quantity: fmt(split.layerQuantity),
          unitCost: r.costPrice,
          amount: fmt(split.layerValue),
          remainingQuantity: fmt(split.layerQuantity),
          remainingValue: fmt(split.layerValue),
        });
      }
      balance.quantity = fmt(dec(balance.quantity).plus(dec(r.quantity)));
      balance.value = fmt(dec(balance.value).plus(split.layerValue));
      if (!balance.lastDate || dateOperation > balance.lastDate) balance.lastDate = dateOperation;
      return tx.create(ReceiptCardRowEntity, {
        id: crypto.randomUUID(),
        companyId,
        receiptCardId: cardId,
        rowNo: i + 1,
        itemId: item.id,
        lotNumberId: lotNumberID,
        quantity: r.quantity,
        costPrice: r.costPrice,
        amount: fmt(split.amount),
      });
    });
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
