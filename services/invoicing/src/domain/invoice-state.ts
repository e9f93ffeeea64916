/**
 * States of a sales invoice (DESIGN §6 "States"): `issued` → `partiallyPaid` → `paid`, or `cancelled`
 * (balance 0), and which payments are allowed. Pure. Amounts are decimal strings, 2 places, in the
 * invoice currency; dates `YYYY-MM-DD`.
 */
import type { InvoiceState } from '@bm/contracts';
import { dec, fmt, sum } from '@bm/money';

export interface Payment {
  amount: string;
  date: string;
}

/**
 * The state (by all payments) and the balance: the total minus the payments dated up to `today`.
 */
export function stateOf(
  inv: { sumTotal: string; cancelled: boolean },
  payments: readonly Payment[],
  today: string,
): { state: InvoiceState; balance: string } {
  if (inv.cancelled) return { state: 'cancelled', balance: '0' };
  const paid = sum(payments.map((p) => p.amount));
  const paidToDate = sum(payments.filter((p) => p.date <= today).map((p) => p.amount));
  const total = dec(inv.sumTotal);
  const state: InvoiceState = paid.isZero() ? 'issued' : paid.gte(total) ? 'paid' : 'partiallyPaid';
  return { state, balance: fmt(total.minus(paidToDate)) };
}

/** Why a payment is refused: the invoice's state, or an amount above what is unpaid (`open`). */
export type PaymentRefusal = { reason: 'state'; state: InvoiceState } | { reason: 'exceeds'; open: string };

/** Checks a payment of `amount`; null when it may be recorded. */
export function paymentRefusal(
  inv: { sumTotal: string; cancelled: boolean },
  payments: readonly Payment[],
  amount: string,
  today: string,
): PaymentRefusal | null {
  const { state } = stateOf(inv, payments, today);
  if (state === 'cancelled' || state === 'paid') return { reason: 'state', state };
  const open = dec(inv.sumTotal).minus(sum(payments.map((p) => p.amount)));
  return dec(amount).gt(open) ? { reason: 'exceeds', open: fmt(open) } : null;
}
