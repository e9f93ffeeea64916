/**
 * States of a sales invoice (DESIGN §6 "States"): `issued` → `partiallyPaid` → `paid`, or `cancelled`
 * (balance 0), and which payments are allowed. Pure. Amounts are decimal strings, 2 places, in the
 * invoice currency; dates `YYYY-MM-DD`.
 *
 * Payments carry the sign of the open balance: an invoice is paid by positive payments, a credit note
 * (negative total) is settled by refunds (negative payments); never beyond the open balance, never zero.
 * A zero-total invoice is `paid` at once. This is the one definition of the state: the service stores
 * it on the invoice (`state` column) whenever the total, the payments or the cancellation change, and the
 * list view and its `state` filter read that column.
 */
import type { InvoiceState } from '@bm/contracts';
import { type Dec, dec, fmt, sum } from '@bm/money';

export interface Payment {
  amount: string;
  date: string;
}

/** The state from the invoice's total, its cancellation and the sum of all its payments. */
export function stateFromTotals(total: Dec, cancelled: boolean, paid: Dec): InvoiceState {
  if (cancelled) return 'cancelled';
  if (total.isZero()) return 'paid';
  if (paid.isZero()) return 'issued';
  // Same sign as the total, at least its size: settled (a refund settles a credit note).
  return paid.abs().gte(total.abs()) ? 'paid' : 'partiallyPaid';
}

/**
 * The state (by all payments) and the balance: the total minus the payments dated up to `today`.
 */
export function stateOf(
  inv: { sumTotal: string; cancelled: boolean },
  payments: readonly Payment[],
  today: string,
): { state: InvoiceState; balance: string } {
  const state = stateFromTotals(dec(inv.sumTotal), inv.cancelled, sum(payments.map((p) => p.amount)));
  if (state === 'cancelled') return { state, balance: '0' };
  const paidToDate = sum(payments.filter((p) => p.date <= today).map((p) => p.amount));
  return { state, balance: fmt(dec(inv.sumTotal).minus(paidToDate)) };
}

/**
 * Why a payment is refused: the invoice's state; a sign other than the open balance's (`open` is what is
 * unpaid, negative on a credit note); or more than is open.
 */
export type PaymentRefusal =
  | { reason: 'state'; state: InvoiceState }
  | { reason: 'sign'; open: string }
  | { reason: 'exceeds'; open: string };

/** Checks a payment of `amount` (non-zero; a refund is negative); null when it may be recorded. */
export function paymentRefusal(
  inv: { sumTotal: string; cancelled: boolean },
  payments: readonly Payment[],
  amount: string,
  today: string,
): PaymentRefusal | null {
  const { state } = stateOf(inv, payments, today);
  if (state === 'cancelled' || state === 'paid') return { reason: 'state', state };
  const open = dec(inv.sumTotal).minus(sum(payments.map((p) => p.amount)));
  const a = dec(amount);
  if (a.isNegative() !== open.isNegative()) return { reason: 'sign', open: fmt(open) };
  return a.abs().gt(open.abs()) ? { reason: 'exceeds', open: fmt(open) } : null;
}

/**
 * May the invoice still change (an update, cancelling)? Only while nothing was paid and it is not
 * cancelled: `issued`, or `paid` by a zero total alone (DESIGN §6 "States"). Returns the state that
 * refuses the change, or null. (The period must be open as well; that needs the period, not this rule.)
 */
export function changeRefusal(
  inv: { sumTotal: string; cancelled: boolean },
  payments: readonly Payment[],
  today: string,
): InvoiceState | null {
  return inv.cancelled || payments.length ? stateOf(inv, payments, today).state : null;
}
