/**
 * Filing deadlines that fall on a day off (issue #44): by §27(2) of the Tax Procedure Act (Act 563/2009), a
 * time limit whose last day is a Saturday, a Sunday or a public holiday ends on the next working day. The
 * days of rest are those of Act 241/1993 ("dni pracovného pokoja") as amended by the consolidation
 * packages: 1 Sep has not been one since 2024, 17 Nov since 2025, and in 2026 alone 8 May and 15 Sep are
 * working days (sources in docs/decisions.md "VAT filings the Financial Administration accepts"). Good
 * Friday and Easter Monday by the Gregorian computus.
 * Pure; dates `YYYY-MM-DD`.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** Easter Sunday of `year` (Gregorian calendar; the anonymous algorithm of Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** `date` (`YYYY-MM-DD`) moved by `days` calendar days. */
export const shift = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
};

/** The Slovak days of rest (public holidays that are days off) of `year`, `YYYY-MM-DD`. */
export function daysOfRest(year: number): Set<string> {
  const fixed = ['01-01', '01-06', '05-01', '07-05', '08-29', '11-01', '12-24', '12-25', '12-26'];
  if (year !== 2026) fixed.push('05-08', '09-15');
  if (year < 2024) fixed.push('09-01');
  if (year < 2025) fixed.push('11-17');
  const easter = easterSunday(year);
  return new Set([...fixed.map((md) => `${year}-${md}`), shift(easter, -2), shift(easter, 1)]);
}

/** Whether `date` is a working day (not a Saturday, a Sunday or a day of rest). */
export function isWorkingDay(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6 && !daysOfRest(Number(date.slice(0, 4))).has(date);
}

/** `date` when it is a working day, else the next one (§27(2) of Act 563/2009). */
export function nextWorkingDay(date: string): string {
  let d = date;
  while (!isWorkingDay(d)) d = shift(d, 1);
  return d;
}
