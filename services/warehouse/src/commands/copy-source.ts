/**
 * The record an issue card is copied from (INTERFACE §4.1 copy): a local issue or receipt card, else a
 * sales invoice asked of invoicing over NATS (never inside a transaction: docs/architecture.md).
 */

import type { SourceType } from '@bm/contracts';
import type { Ctx } from '@bm/service-kit';
import type { SourceRow } from '../domain/copy.js';
import {
  IssueCardEntity,
  IssueCardRowEntity,
  ItemEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
} from '../persistence/entities.js';
import { salesInvoiceCopySource } from '../ports/sales-invoice.port.js';
import type { WarehouseDeps } from './create-issue-card.js';

/** What kind of record `sourceId` is: a local issue or receipt card, else a sales invoice. 422 when none. */
export async function findSourceType(deps: WarehouseDeps, ctx: Ctx, sourceId: string): Promise<SourceType> {
  return (await loadSource(deps, ctx, sourceId)).sourceType;
}

export interface CopySource {
  sourceType: SourceType;
  /** A cancelled sales invoice (cards are never cancelled). */
  cancelled: boolean;
  ordnerId: string | null;
  warehouseId: string | null;
  partnerId: string | null;
  partnerAddress: string | null;
  itemsComment: string | null;
  rows: SourceRow[];
}

/** Loads a copy source (INTERFACE §4.1 copy: an issue card, a receipt card or a sales invoice). */
export async function loadSource(deps: WarehouseDeps, ctx: Ctx, sourceId: string): Promise<CopySource> {
  const em = ctx.em;
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
  const invoice = await salesInvoiceCopySource(deps.kit, ctx, sourceId);
  // Service items and free-text rows do not move stock (DESIGN §5 "Copy").
  const itemIds = invoice.rows.map((r) => r.itemId).filter((x): x is string => !!x);
  const stockItems = new Set(
    (itemIds.length ? await em.find(ItemEntity, { id: { $in: itemIds }, kind: 'stock' }) : []).map(
      (i) => i.id,
    ),
  );
  return {
    sourceType: 'SalesInvoice',
    cancelled: invoice.cancelled,
    ordnerId: null,
    warehouseId: invoice.warehouseId,
    partnerId: invoice.partnerId,
    partnerAddress: invoice.partnerAddress,
    itemsComment: null,
    rows: invoice.rows
      .filter((r) => r.itemId && stockItems.has(r.itemId))
      .map((r) => ({
        itemId: r.itemId!,
        lotNumberID: null,
        costPrice: null,
        quantity: r.quantity,
        code: r.code,
        name: r.name,
        unitId: r.unitId,
        sellPrice: r.price,
      })),
  };
}
