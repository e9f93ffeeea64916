import { describe, expect, it } from 'vitest';
import { invoiceTitle } from './documents.js';

describe('invoice printout title (DESIGN §7)', () => {
  it('is an invoice for a positive total, a credit note for a negative one, and marks a cancelled one', () => {
    expect(invoiceTitle({ sumTotal: '450.06', state: 'issued' })).toEqual({
      title: 'FAKTÚRA – daňový doklad',
      note: null,
    });
    expect(invoiceTitle({ sumTotal: '-12.3', state: 'issued' }).title).toBe(
      'DOBROPIS – opravný daňový doklad',
    );
    expect(invoiceTitle({ sumTotal: '10', state: 'cancelled' }).note).toBe('STORNOVANÝ DOKLAD');
  });
});
