import { describe, expect, it } from 'vitest';
import { purchaseEntries, reversal, salesEntries } from './invoice-accounting.js';

describe('invoice postings (DESIGN §6)', () => {
  it('credits revenue per account and VAT, with the summary rounding on the largest line', () => {
    // Gross rows: row bases 10.00 + 1.62 = 11.62, but the VAT summary says base 11.61.
    const entries = salesEntries(
      [
        { stockItem: true, amount: '10' },
        { stockItem: false, amount: '1.62' },
      ],
      '11.61',
      '2.67',
      'OF1',
    );
    expect(entries.map((e) => [e.debitAccount, e.creditAccount, e.amount])).toEqual([
      ['311', '604', '9.99'],
      ['311', '602', '1.62'],
      ['311', '343', '2.67'],
    ]);
  });

  it('posts purchases to 131 or 518 against 321 and reverses entries', () => {
    const p = purchaseEntries(
      [
        { stockItem: true, amount: '27' },
        { stockItem: false, amount: '15' },
        { stockItem: false, amount: '0' },
      ],
      'DF1',
    );
    expect(p.map((e) => [e.debitAccount, e.creditAccount, e.amount])).toEqual([
      ['131', '321', '27'],
      ['518', '321', '15'],
    ]);
    expect(reversal(p, 'Cancellation').map((e) => e.amount)).toEqual(['-27', '-15']);
  });
});
