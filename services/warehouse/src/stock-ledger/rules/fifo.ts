/**
 * FIFO valuation (DESIGN §5 "FIFO"): an issue consumes the oldest receipt layers first. Pure: no ORM.
 *
 * Units: quantities and unit costs are decimals with 4 places, values 2 places (company currency).
 */
import { Dec, dec, round2 } from '@bm/money';

/** A valuation layer as it stands (or stood, for a back-dated issue). */
export interface Layer {
  id: string;
  /** Unit cost, 4 decimals. */
  unitCost: Dec;
  remainingQuantity: Dec;
  /** Value still in the layer, 2 decimals. */
  remainingValue: Dec;
}

/** What one issue takes from one layer. */
export interface LayerTake {
  layerId: string;
  quantity: Dec;
  unitCost: Dec;
  value: Dec;
}

export interface FifoResult {
  takes: LayerTake[];
  /** Quantity beyond all layers (valued at 0 when negative stock is allowed). */
  uncovered: Dec;
}

/**
 * Takes `quantity` from `layers` (oldest first). A take that empties a layer takes its whole remaining
 * value, so no cent is stranded; a partial take is round2(quantity × unitCost), but never more than the
 * layer still holds (a layer of sub-cent unit cost may hold less than its pieces round to), so no layer's
 * value goes below zero.
 */
export function consumeFifo(layers: readonly Layer[], quantity: Dec): FifoResult {
  const takes: LayerTake[] = [];
  let left = quantity;
  for (const l of layers) {
    if (left.lte(0)) break;
    if (l.remainingQuantity.lte(0)) continue;
    const q = left.lt(l.remainingQuantity) ? left : l.remainingQuantity;
    const value = q.eq(l.remainingQuantity)
      ? l.remainingValue
      : Dec.min(round2(q.mul(l.unitCost)), l.remainingValue);
    takes.push({ layerId: l.id, quantity: q, unitCost: l.unitCost, value });
    left = left.minus(q);
  }
  return { takes, uncovered: left.gt(0) ? left : dec(0) };
}

/** One issued row per cost price: takes of equal unit cost merged, in the order first taken. */
export interface CostSplit {
  quantity: Dec;
  costPrice: Dec;
  amount: Dec;
}

/** Groups takes by unit cost, so the rows' amounts add up to the consumed value (DESIGN §5). */
export function splitByCost(takes: readonly LayerTake[]): CostSplit[] {
  const out: CostSplit[] = [];
  for (const t of takes) {
    const same = out.find((s) => s.costPrice.eq(t.unitCost));
    if (same) {
      same.quantity = same.quantity.plus(t.quantity);
      same.amount = same.amount.plus(t.value);
    } else out.push({ quantity: t.quantity, costPrice: t.unitCost, amount: t.value });
  }
  return out;
}
