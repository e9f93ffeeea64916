/**
 * An invoice's payment status (issue #45): from its total and the sum of its payments, both signed in
 * the invoice's currency (a credit note's total and refunds negative). Pure.
 *
 * `unpaid` nothing paid (a zero total is `paid`); `partlyPaid` less than the total; `paid` exactly the
 * total; `overpaid` more than the total (the surplus is the partner's overpayment, the balance negative).
 */
import { dec } from '@bm/money';

export type PaymentStatus = 'unpaid' | 'partlyPaid' | 'paid' | 'overpaid';

/** The status of an invoice of `sumTotal` with payments summing to `paid`. */
export function paymentStatusOf(sumTotal: string, paid: string): PaymentStatus {
  const total = dec(sumTotal);
  const p = dec(paid);
  if (total.isZero()) return p.isZero() ? 'paid' : 'overpaid';
  if (p.isZero()) return 'unpaid';
  const sign = total.isNegative() ? -1 : 1;
  const rel = p.times(sign).minus(total.abs());
  if (rel.isZero()) return 'paid';
  return rel.isPositive() ? 'overpaid' : 'partlyPaid';
}

/** The same rule in SQL over `total` and `paid` expressions (the list views filter by it). */
export const paymentStatusSql = (total: string, paid: string) =>
  `case when ${total} = 0 then (case when ${paid} = 0 then 'paid' else 'overpaid' end)
        when ${paid} = 0 then 'unpaid'
        when sign(${total}) * ${paid} = abs(${total}) then 'paid'
        when sign(${total}) * ${paid} > abs(${total}) then 'overpaid'
        else 'partlyPaid' end`;
