/**
 * Stock intake (DESIGN §5 "Allowed → …"): a receipt into a negative balance first covers the missing
 * pieces, whose value at the receipt's cost leaves the stock at once (negative-stock settlement); the
 * rest forms the new layer or joins the average. Pure: no ORM.
 */
import { type Dec, dec, round2 } from '@bm/money';

export interface ReceiptSplit {
  /** round2(quantity × costPrice): the receipt row's amount. */
  amount: Dec;
  /** Pieces that cover a negative balance, and their value (settled at once). */
  settledQuantity: Dec;
  settlementValue: Dec;
  /** What stays in stock: the new layer (FIFO) or the addition to the average. */
  layerQuantity: Dec;
  layerValue: Dec;
}

/**
 * Splits a receipt of `quantity` at `costPrice` given the balance quantity before it. `amount` is the
 * row's value when it is not round2(quantity × costPrice) (an issue card's reversal brings its pieces
 * back at the value they left with).
 */
export function splitReceipt(balanceQuantity: Dec, quantity: Dec, costPrice: Dec, value?: Dec): ReceiptSplit {
  const amount = value ?? round2(quantity.mul(costPrice));
  const missing = balanceQuantity.lt(0) ? balanceQuantity.neg() : dec(0);
  const settledQuantity = missing.gt(quantity) ? quantity : missing;
  const settlementValue = settledQuantity.eq(quantity) ? amount : round2(settledQuantity.mul(costPrice));
  return {
    amount,
    settledQuantity,
    settlementValue,
    layerQuantity: quantity.minus(settledQuantity),
    layerValue: amount.minus(settlementValue),
  };
}
