/**
 * The warehouse's own copy sources (INTERFACE §4.1 copy): an issue or a receipt card with its rows, and
 * which items are stock items. ORM reads only.
 */
import type { EntityManager } from '@bm/service-kit';
import {
  IssueCardEntity,
  IssueCardRowEntity,
  ItemEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
} from '../schema/entities.js';
import type { CopySource } from './copy.rules.js';

/** Issue or receipt card `sourceId` as a copy source; null when it is neither. */
export async function localCopySource(em: EntityManager, sourceId: string): Promise<CopySource | null> {
  const card = await em.findOne(IssueCardEntity, { id: sourceId });
  if (card) {
    const rows = await em.find(IssueCardRowEntity, { issueCardId: card.id }, { orderBy: { rowNo: 'asc' } });
    return {
      sourceType: 'IssueCard',
      cancelled: false,
      ordnerId: card.ordnerId,
      warehouseId: card.warehouseId,
      partnerId: card.partnerId,
      partnerAddress: card.partnerAddress ?? null,
      itemsComment: card.itemsComment ?? null,
      rows: rows.map((r) => ({
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        costPrice: r.costPrice,
        quantity: r.quantity,
        code: r.code ?? null,
        name: r.name ?? null,
        unitId: r.unitId ?? null,
        sellPrice: r.sellPrice,
      })),
    };
  }
  const receipt = await em.findOne(ReceiptCardEntity, { id: sourceId });
  if (receipt) {
    const rows = await em.find(
      ReceiptCardRowEntity,
      { receiptCardId: receipt.id },
      { orderBy: { rowNo: 'asc' } },
    );
    return {
      sourceType: 'ReceiptCard',
      cancelled: false,
      ordnerId: null,
      warehouseId: receipt.warehouseId,
      partnerId: receipt.partnerId ?? null,
      partnerAddress: null,
      itemsComment: null,
      rows: rows.map((r) => ({
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        costPrice: r.costPrice,
        quantity: r.quantity,
        code: null,
        name: null,
        unitId: null,
        sellPrice: null,
      })),
    };
  }
  return null;
}

/** Which of `itemIds` are stock items of the company (service items and free text do not move stock). */
export async function stockItemIds(em: EntityManager, itemIds: string[]): Promise<Set<string>> {
  if (!itemIds.length) return new Set();
  return new Set((await em.find(ItemEntity, { id: { $in: itemIds }, kind: 'stock' })).map((i) => i.id));
}
