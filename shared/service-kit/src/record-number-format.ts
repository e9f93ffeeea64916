/** How an ordner's number format makes a record number (DESIGN §5 "Record numbers"). */

/**
 * Formats record number `seq` of `year` with an ordner's format: `{yyyy}`, `{yy}` and one `{seq}` /
 * `{seq:N}` (zero-padded to N). `formatRecordNumber('VY{yyyy}{seq:5}', 2025, 7)` → `VY202500007`.
 */
export function formatRecordNumber(format: string, year: number, seq: number): string {
  return format
    .replace(/\{yyyy\}/g, String(year).padStart(4, '0'))
    .replace(/\{yy\}/g, String(year % 100).padStart(2, '0'))
    .replace(/\{seq(?::(\d{1,2}))?\}/g, (_m, width?: string) =>
      String(seq).padStart(width ? Number(width) : 1, '0'),
    );
}

/** Whether a number format restarts every year (it shows the year); a year-less one runs on for ever. */
export const restartsYearly = (format: string) => /\{yy(yy)?\}/.test(format);
