/**
 * Business days of a SEPA credit transfer (issue #45). Pure. SEPA settles on TARGET2 days: Monday to
 * Friday except 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December (ECB, TARGET closing
 * days); a Slovak day of rest that is a TARGET day is a business day for the banks' SEPA processing.
 */
import { easterSunday, shift } from '../vat-filings/index.js';

/** Whether SEPA credit transfers settle on `date` (`YYYY-MM-DD`). */
export function isBusinessDay(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (day === 0 || day === 6) return false;
  const md = date.slice(5);
  if (['01-01', '05-01', '12-25', '12-26'].includes(md)) return false;
  const easter = easterSunday(Number(date.slice(0, 4)));
  return date !== shift(easter, -2) && date !== shift(easter, 1);
}

/** `date` when it is a business day, else the next one (a weekend moves to Monday). */
export function businessDayFrom(date: string): string {
  let d = date;
  while (!isBusinessDay(d)) d = shift(d, 1);
  return d;
}

/** The business day after `today`: the default execution date of a payment order. */
export const nextBusinessDay = (today: string) => businessDayFrom(shift(today, 1));
