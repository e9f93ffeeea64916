/**
 * Decimal money and quantity helpers (DESIGN §2 "Numbers").
 *
 * Quantities and unit prices carry up to 4 decimals, amounts 2; rounding is half away from zero.
 * Values travel between processes as decimal strings (`"12.3400"` is not produced: see {@link fmt}),
 * and never pass through binary floating point.
 */
import { Decimal } from 'decimal.js';

/** A decimal.js constructor configured for money: 40 significant digits, half away from zero. */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof Dec>;

/** Accepted inputs: decimal strings, Dec instances and safe integers. */
export type DecLike = string | Dec | number;

/**
 * Parses a decimal. Numbers are accepted only as integers (no binary fractions). A Dec is returned as it
 * is (decimals are immutable): `round2`, `fmt` and `sum` of a computed value make no copy of it.
 */
export function dec(v: DecLike): Dec {
  if (v instanceof Dec) return v;
  if (typeof v === 'number' && !Number.isSafeInteger(v)) {
    throw new TypeError(`non-integer number ${v} given as decimal; pass a string`);
  }
  return new Dec(v as string);
}

/** Rounds to 2 decimals (amounts), half away from zero. */
export const round2 = (v: DecLike): Dec => dec(v).toDecimalPlaces(2, Dec.ROUND_HALF_UP);

/** Rounds to 4 decimals (unit prices, unit costs, quantities), half away from zero. */
export const round4 = (v: DecLike): Dec => dec(v).toDecimalPlaces(4, Dec.ROUND_HALF_UP);

/** Canonical string of a decimal: no exponent, no trailing zeros (`"12.5"`, `"0"`, `"-3.25"`). */
export function fmt(v: DecLike): string {
  const d = dec(v);
  if (d.isZero()) return '0';
  return d.toFixed();
}

/** Sum of decimals. */
export const sum = (values: Iterable<DecLike>): Dec => {
  let s = new Dec(0);
  for (const v of values) s = s.plus(dec(v));
  return s;
};

/** Number of decimal places of a decimal string (`"1.250"` → 3). */
export function scaleOf(s: string): number {
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

export { Decimal };
