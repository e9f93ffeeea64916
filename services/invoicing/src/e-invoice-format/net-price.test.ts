import { dec } from '@bm/money';
import { describe, expect, it } from 'vitest';
import { netPriceFor } from './net-price.js';

describe('netPriceFor (BT-146 for PEPPOL-EN16931-R120)', () => {
  it.each([
    // quantity, line amount, stored price → BT-146
    ['3', '300', '100', '100'], // exact
    ['7', '29.35', '4.1933', '4.1933'], // 29.3531 is within half a cent
    ['1000', '1033.61', '1.0336', '1.03361'], // 1033.60 misses by a cent: one decimal more
    ['-2', '-100', '50', '50'], // a credit row: never negative
    ['3', '100', '33.3333', '33.3333'], // 99.9999 is within half a cent
    ['0', '0', '12.5', '12.5'],
  ])('%s × ? = %s (stored %s) → %s', (q, amount, price, expected) => {
    const p = netPriceFor(dec(q), dec(amount), dec(price));
    expect(p).toBe(expected);
    expect(dec(q).abs().mul(dec(p)).minus(dec(amount).abs()).abs().lte(dec('0.005'))).toBe(true);
  });
});
