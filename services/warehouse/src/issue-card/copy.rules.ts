/**
 * Copy into an issue card (INTERFACE §4.1 copy rule 1): source rows merged by (itemId, lotNumberID,
 * costPrice), quantities added, the first row's texts and prices kept. Pure.
 */
import type { SourceType } from '@bm/contracts';
import { type Dec, dec } from '@bm/money';

export interface SourceRow {
  itemId: string;
  lotNumberID: string | null;
  costPrice: string | null;
  quantity: string;
  code: string | null;
  name: string | null;
  unitId: string | null;
  sellPrice: string | null;
}

/** A record an issue card is copied from (INTERFACE §4.1 copy), as the copy rules see it. */
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

export interface MergedRow extends Omit<SourceRow, 'quantity'> {
  quantity: Dec;
}

/**
 * Merges rows with the same item, lot and cost price, keeping first-seen order. Rows with quantity ≤ 0
 * are skipped first: issue quantities are positive, and a credit note's returns are a receipt, not an
 * issue (DESIGN §5 "Issue quantities are positive"). An empty result means nothing to issue.
 */
export function mergeSourceRows(rows: readonly SourceRow[]): MergedRow[] {
  const out = new Map<string, MergedRow>();
  for (const r of rows) {
    if (dec(r.quantity).lte(0)) continue;
    const key = `${r.itemId}|${r.lotNumberID ?? ''}|${r.costPrice === null ? '' : dec(r.costPrice).toFixed()}`;
    const m = out.get(key);
    if (m) m.quantity = m.quantity.plus(dec(r.quantity));
    else out.set(key, { ...r, quantity: dec(r.quantity) });
  }
  return [...out.values()];
}
