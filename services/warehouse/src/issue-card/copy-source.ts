/**
 * The record an issue card is copied from (INTERFACE §4.1 copy): a local issue or receipt card, else a
 * sales invoice asked of invoicing over NATS (never inside a transaction: docs/architecture.md).
 */

import type { SourceType } from '@bm/contracts';
import type { Ctx, DocumentDeps } from '@bm/service-kit';
import type { CopySource } from './copy.rules.js';
import { localCopySource, stockItemIds } from './copy-source.reads.js';
import { salesInvoiceCopySource } from './sales-invoice.port.js';

/** What kind of record `sourceId` is: a local issue or receipt card, else a sales invoice. 422 when none. */
export async function findSourceType(deps: DocumentDeps, ctx: Ctx, sourceId: string): Promise<SourceType> {
  return (await loadSource(deps, ctx, sourceId)).sourceType;
}

/**
 * Loads a copy source (INTERFACE §4.1 copy: an issue card, a receipt card or a sales invoice).
 * @throws 422 ReferenceNotFound (from invoicing) when `sourceId` is none of them.
 */
export async function loadSource(deps: DocumentDeps, ctx: Ctx, sourceId: string): Promise<CopySource> {
  const local = await localCopySource(ctx.em, sourceId);
  if (local) return local;
  const invoice = await salesInvoiceCopySource(deps.kit, ctx, sourceId);
  // Service items and free-text rows do not move stock (DESIGN §5 "Copy").
  const stockItems = await stockItemIds(
    ctx.em,
    invoice.rows.map((r) => r.itemId).filter((x): x is string => !!x),
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
