/**
 * Availability (DESIGN §5): an issue of `quantity` on date D must leave the balance non-negative on D
 * and at every later movement. Pure: no ORM.
 */
import { type Dec, dec } from '@bm/money';

/** The running balance after a later movement. */
export interface LaterBalance {
  date: string;
  quantity: Dec;
}

export interface Availability {
  /** The most that can be issued on D without any balance going negative: the lowest balance from D on. */
  available: Dec;
  /** Where the balance would first go negative with the issue, or null when it never would. */
  firstNegativeDate: string | null;
}

/** Checks an issue against the balance as of D and the running balances after each later movement. */
export function checkAvailability(
  date: string,
  balanceOnDate: Dec,
  later: readonly LaterBalance[],
  quantity: Dec,
): Availability {
  let available = balanceOnDate;
  let firstNegativeDate: string | null = balanceOnDate.minus(quantity).lt(0) ? date : null;
  for (const l of later) {
    if (l.quantity.lt(available)) available = l.quantity;
    if (!firstNegativeDate && l.quantity.minus(quantity).lt(0)) firstNegativeDate = l.date;
  }
  return { available: available.lt(0) ? dec(0) : available, firstNegativeDate };
}
