/**
 * Filing periods (issue #37; §77 and §78a of Act 222/2004): a month `YYYY-MM` or a quarter `YYYY-Qn`, its
 * months, and its deadline (the 25th day after its end: §78(1), §78a(1); issue #44: moved to the next
 * working day when that is a Saturday, a Sunday or a day of rest, §27(2) of Act 563/2009). Pure.
 */
import { nextWorkingDay } from './working-days.js';

/** A parsed filing period. */
export interface FilingPeriod {
  code: string;
  year: number;
  month: number | null;
  quarter: number | null;
  /** The `YYYY-MM` months it spans. */
  months: string[];
  /** The last day on which a regular or corrective filing is due, `YYYY-MM-DD` (a working day). */
  deadline: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Parses `period` for a payer filing by `vatPeriod`. Returns the problem as text when it is malformed
 * (`2027-13`, `2027-Q5`) or of the other length (a quarter for a monthly payer and the reverse).
 */
export function parseFilingPeriod(period: string, vatPeriod: 'month' | 'quarter'): FilingPeriod | string {
  const m = /^(\d{4})-(?:(0[1-9]|1[0-2])|Q([1-4]))$/.exec(period);
  if (!m) return 'expected a month YYYY-MM or a quarter YYYY-Qn (1 to 4)';
  const year = Number(m[1]);
  const month = m[2] ? Number(m[2]) : null;
  const quarter = m[3] ? Number(m[3]) : null;
  if (quarter && vatPeriod === 'month')
    return 'the company files monthly (vatPeriod month): give a month YYYY-MM';
  if (month && vatPeriod === 'quarter')
    return 'the company files quarterly (vatPeriod quarter): give a quarter YYYY-Qn';
  const first = month ?? (quarter! - 1) * 3 + 1;
  const count = month ? 1 : 3;
  const months = Array.from({ length: count }, (_, i) => `${year}-${pad(first + i)}`);
  const endMonth = first + count - 1;
  const next = endMonth === 12 ? `${year + 1}-01` : `${year}-${pad(endMonth + 1)}`;
  return { code: period, year, month, quarter, months, deadline: nextWorkingDay(`${next}-25`) };
}
