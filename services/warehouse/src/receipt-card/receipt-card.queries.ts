/** Receipt cards as read (DESIGN §4 "Stock intake"): one card by id and the reply mapper. ORM reads only. */
import type { ReceiptCard } from '@bm/contracts';
import { notFound } from '@bm/errors';
import { type EntityManager, entryDtos } from '@bm/service-kit';
import { AccountingEntryEntity, ReceiptCardEntity, ReceiptCardRowEntity } from '../schema/entities.js';

export type ReceiptRow = InstanceType<typeof ReceiptCardEntity.class>;
export type ReceiptRowRow = InstanceType<typeof ReceiptCardRowEntity.class>;
export type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

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
    reversed: card.reversalId != null,
    reversalId: card.reversalId ?? null,
    reversalOf: card.reversalOf ?? null,
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
