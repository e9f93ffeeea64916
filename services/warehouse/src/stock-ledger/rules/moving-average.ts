/**
 * Moving weighted average (DESIGN §5 "WeightedAverage"). Pure: no ORM.
 *
 * Unit cost = round4(stock value / stock quantity) at the moment of the issue; the issue removes
 * round2(quantity × unit cost); an issue that takes the whole remaining quantity removes the whole
 * remaining value (no cent stranded at quantity 0).
 */
import { Dec, dec, round2, round4 } from '@bm/money';

export interface Balance {
  quantity: Dec;
  /** 2 decimals. */
  value: Dec;
}

export interface AverageIssue {
  /** Pieces valued at the average (at most the quantity in stock). */
  valuedQuantity: Dec;
  unitCost: Dec;
  value: Dec;
  /** Pieces beyond stock (cost 0 when negative stock is allowed). */
  uncovered: Dec;
}

/** Values an issue of `quantity` from `balance`. */
export function issueAtAverage(balance: Balance, quantity: Dec): AverageIssue {
  if (balance.quantity.lte(0))
    return { valuedQuantity: dec(0), unitCost: dec(0), value: dec(0), uncovered: quantity };
  const unitCost = round4(balance.value.div(balance.quantity));
  if (quantity.gte(balance.quantity)) {
    return {
      valuedQuantity: balance.quantity,
      unitCost,
      value: balance.value,
      uncovered: quantity.minus(balance.quantity),
    };
  }
  // Never more than the stock holds (round4 of a sub-cent average can round the pieces up past it).
  const value = Dec.min(round2(quantity.mul(unitCost)), balance.value);
  return { valuedQuantity: quantity, unitCost, value, uncovered: dec(0) };
}
