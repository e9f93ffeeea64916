/**
 * Record numbers from an ordner's number format (DESIGN §5 "Record numbers"): `{yyyy}`, `{yy}` and one
 * `{seq}` / `{seq:N}` (zero-padded to N). Pure.
 */

/** Formats record number `seq` of `year`: `formatRecordNumber('VY{yyyy}{seq:5}', 2025, 7)` → `VY202500007`. */
export function formatRecordNumber(format: string, year: number, seq: number): string {
  return format
    .replace(/\{yyyy\}/g, String(year).padStart(4, '0'))
    .replace(/\{yy\}/g, String(year % 100).padStart(2, '0'))
    .replace(/\{seq(?::(\d{1,2}))?\}/g, (_m, width?: string) =>
      String(seq).padStart(width ? Number(width) : 1, '0'),
    );
}
