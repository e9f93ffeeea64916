import { describe, expect, it } from 'vitest';
import { formatAmount, formatDate, formatPrice, formatQuantity, formatRate } from './format.js';

describe('printout formats (Slovak)', () => {
  it.each([
    ['1234.5', '1 234,50'],
    ['0', '0,00'],
    ['-2.345', '-2,35'],
    ['1234567.891', '1 234 567,89'],
  ])('formatAmount(%s) = %s', (v, r) => expect(formatAmount(v)).toBe(r));

  it('formats quantities, prices, rates and dates', () => {
    expect(formatQuantity('1.5000')).toBe('1,5');
    expect(formatQuantity('12000')).toBe('12 000');
    expect(formatPrice('8.9')).toBe('8,90');
    expect(formatPrice('3.3333')).toBe('3,3333');
    expect(formatRate('9.5')).toBe('9,5 %');
    expect(formatDate('2026-01-05')).toBe('5. 1. 2026');
  });
});
