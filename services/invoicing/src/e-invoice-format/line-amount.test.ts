/**
 * PEPPOL-EN16931-R120 as the official Peppol rule reads a line (issue #35): quantity × (net price ÷ base
 * quantity) + line charges − line allowances, within 0.02. Hand-written look-alikes of the official example
 * documents that a stricter reading refused (OpenPEPPOL `Allowance-example.xml`: a line charge, a line
 * allowance and a base quantity).
 */
import { describe, expect, it } from 'vitest';
import type { ELine } from './model.js';
import { lineNetAmount } from './preflight.js';

const line = (over: Partial<ELine>): ELine => ({
  id: '1',
  quantity: '10',
  unitCode: 'C62',
  netAmount: '0',
  netPrice: '410',
  name: 'item',
  sellerItemId: null,
  category: 'S',
  rate: '25',
  ...over,
});

describe('line net amount (PEPPOL-EN16931-R120)', () => {
  it('10 × 410 + charge 1 − allowance 101 = 4000.00', () => {
    const l = line({
      baseQuantity: '1',
      lineAllowanceCharges: [
        { charge: true, amount: '1', reason: 'Cleaning' },
        { charge: false, amount: '101', reason: 'Discount' },
      ],
    });
    expect(lineNetAmount(l).toFixed(2)).toBe('4000.00');
  });

  it('a price per base quantity: 10 × (45 ÷ 2) = 225.00; base quantity 0 or none counts as 1', () => {
    expect(lineNetAmount(line({ netPrice: '45', baseQuantity: '2' })).toFixed(2)).toBe('225.00');
    expect(lineNetAmount(line({ netPrice: '45', baseQuantity: '0' })).toFixed(2)).toBe('450.00');
    expect(lineNetAmount(line({ netPrice: '45' })).toFixed(2)).toBe('450.00');
  });

  it('line allowances are summed to cents before they count: 3 × 1.005 → 3.02 (rounded half up)', () => {
    const parts = [1, 2, 3].map(() => ({ charge: false, amount: '1.005', reason: 'x' }));
    expect(
      lineNetAmount(line({ quantity: '1', netPrice: '10', lineAllowanceCharges: parts })).toFixed(2),
    ).toBe('6.98');
  });
});
