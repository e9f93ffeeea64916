/**
 * Slovak number and date formats of printouts, on decimal strings (no binary floating point):
 * `1 234,56`, dates `23. 11. 2026`.
 */
import { dec } from '@bm/money';

const group = (int: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** An amount with exactly `decimals` places: `formatAmount('1234.5')` → `1 234,50`. */
export function formatAmount(v: string, decimals = 2): string {
  const fixed = dec(v).toFixed(decimals);
  const negative = fixed.startsWith('-');
  const [int, frac] = (negative ? fixed.slice(1) : fixed).split('.');
  return `${negative ? '-' : ''}${group(int)}${frac ? `,${frac}` : ''}`;
}

/** A quantity or unit price with up to 4 places and no trailing zeros: `2`, `1,5`, `3,3333`. */
export function formatQuantity(v: string): string {
  const s = dec(v).toDecimalPlaces(4).toFixed();
  const negative = s.startsWith('-');
  const [int, frac] = (negative ? s.slice(1) : s).split('.');
  return `${negative ? '-' : ''}${group(int)}${frac ? `,${frac}` : ''}`;
}

/** A unit price: at least 2 and at most 4 places: `8,90`, `3,3333`. */
export function formatPrice(v: string): string {
  const d = dec(v).toDecimalPlaces(4);
  return d.decimalPlaces() <= 2 ? formatAmount(v) : formatQuantity(v);
}

/** A rate in percent: `23 %`, `9,5 %`. */
export const formatRate = (v: string) => `${formatQuantity(v)} %`;

/** A business date: `2026-11-23` → `23. 11. 2026`. */
export function formatDate(d: string | null): string {
  if (!d) return '';
  const [y, m, day] = d.split('-');
  return `${Number(day)}. ${Number(m)}. ${y}`;
}
