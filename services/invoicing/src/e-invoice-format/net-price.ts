/**
 * The item net price of an e-invoice line (BT-146) that makes PEPPOL-EN16931-R120 hold: quantity × net
 * price equals the line net amount (BT-131). Pure; decimals as decimal.js values, result a decimal string.
 */
import { type Dec, dec, fmt } from '@bm/money';

const HALF_CENT = dec('0.005');

/**
 * `price` when |quantity| × |price| is within half a cent of |amount|; else |amount| / |quantity| with the
 * fewest decimals from 4 to 10 that are (BT-146 has no scale limit in EN 16931). Never negative (BR-27).
 */
export function netPriceFor(quantity: Dec, amount: Dec, price: Dec): string {
  const q = quantity.abs();
  const a = amount.abs();
  if (q.isZero() || q.mul(price.abs()).minus(a).abs().lte(HALF_CENT)) return fmt(price.abs());
  const exact = a.div(q);
  for (let d = 4; d < 10; d++) {
    const p = exact.toDecimalPlaces(d);
    if (q.mul(p).minus(a).abs().lte(HALF_CENT)) return fmt(p);
  }
  return fmt(exact.toDecimalPlaces(10));
}
