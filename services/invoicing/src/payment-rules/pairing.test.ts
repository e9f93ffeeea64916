/**
 * The pairing rule (issue #45; DESIGN §6d) on hand-worked cases: direction never across, VS first with the
 * counterparty's own invoices first and the oldest first, the surplus an overpayment of the last invoice,
 * the counterparty's one exact amount, unpaired with candidates; the payment status; the symbols wherever
 * banks put them.
 */
import { describe, expect, it } from 'vitest';
import { readSymbols } from '../bank-format/symbols.js';
import { type OpenInvoice, pairEntry, postingRuleOf } from './pairing.js';
import { paymentStatusOf } from './payment-status.js';

const inv = (id: string, over: Partial<OpenInvoice>): OpenInvoice => ({
  id,
  book: 'sales',
  partnerId: 'P1',
  recordNumber: id,
  symbolVariable: null,
  currency: 'EUR',
  dateCreated: '2026-11-01',
  open: '100.00',
  ...over,
});
const credit = (amount: string, vs: string | null = null) => ({
  direction: 'credit' as const,
  amount,
  currency: 'EUR',
  symbolVariable: vs,
});

describe('pairEntry', () => {
  it('a customer reusing a VS pays the oldest first; the surplus is an overpayment of the last', () => {
    const a = inv('A', { symbolVariable: '1234', dateCreated: '2026-11-02', open: '30.00' });
    const b = inv('B', { symbolVariable: '0000001234', dateCreated: '2026-11-01', open: '50.00' });
    const d = pairEntry(credit('100.00', '1234'), [a, b], new Set());
    expect(d).toEqual({
      status: 'paired',
      rule: 'variableSymbol',
      pairings: [
        { invoiceId: 'B', book: 'sales', partnerId: 'P1', amount: '50', overpayment: '0.00' },
        { invoiceId: 'A', book: 'sales', partnerId: 'P1', amount: '50', overpayment: '20' },
      ],
    });
  });

  it('never across: a supplier invoice with the same VS is not paid by money in', () => {
    const p = inv('P', { book: 'purchase', symbolVariable: '77' });
    expect(pairEntry(credit('100.00', '77'), [p], new Set()).status).toBe('unpaired');
    const d = pairEntry(
      { direction: 'debit', amount: '40.00', currency: 'EUR', symbolVariable: '77' },
      [p],
      new Set(),
    );
    expect(d).toMatchObject({
      status: 'paired',
      pairings: [{ invoiceId: 'P', amount: '40', overpayment: '0.00' }],
    });
  });

  it('a refund of a sales credit note is money out, negative on the invoice', () => {
    const cn = inv('CN', { symbolVariable: '9', open: '-40.00' });
    const d = pairEntry(
      { direction: 'debit', amount: '40.00', currency: 'EUR', symbolVariable: '9' },
      [cn],
      new Set(),
    );
    expect(d).toMatchObject({ status: 'paired', pairings: [{ invoiceId: 'CN', amount: '-40' }] });
  });

  it('without a VS: exactly one open invoice of the counterparty with the amount, else unpaired with candidates', () => {
    const x = inv('X', { open: '77.70' });
    const y = inv('Y', { open: '12.00' });
    expect(pairEntry(credit('77.70'), [x, y], new Set(['P1']))).toMatchObject({
      status: 'paired',
      rule: 'counterpartyAmount',
    });
    const twin = inv('Z', { open: '77.70' });
    const d = pairEntry(credit('77.70'), [x, twin], new Set(['P1']));
    expect(d).toEqual({
      status: 'unpaired',
      reason: '2 open invoices of the counterparty have exactly 77.70',
      candidates: ['X', 'Z'],
    });
    expect(pairEntry(credit('77.70'), [x], new Set()).status).toBe('unpaired');
  });

  it('another currency stays unpaired', () => {
    expect(
      pairEntry(credit('100.00', '5'), [inv('C', { symbolVariable: '5', currency: 'CZK' })], new Set())
        .status,
    ).toBe('unpaired');
  });

  it('fees and interest by their bank transaction code', () => {
    expect(
      ['ACMT/MDOP/CHRG', 'PMNT/CCRD/FEES', 'ACMT/MCOP/INTR', 'PMNT/RCDT/ESCT', null].map(postingRuleOf),
    ).toEqual(['fee', 'fee', 'interest', null, null]);
  });
});

describe('paymentStatusOf', () => {
  it.each([
    ['100.00', '0', 'unpaid'],
    ['100.00', '40', 'partlyPaid'],
    ['100.00', '100', 'paid'],
    ['100.00', '130', 'overpaid'],
    ['-40.00', '-40', 'paid'],
    ['-40.00', '-10', 'partlyPaid'],
    ['0', '0', 'paid'],
  ])('total %s, paid %s: %s', (total, paid, status) => expect(paymentStatusOf(total, paid)).toBe(status));
});

describe('readSymbols', () => {
  it('reads EndToEndId first, then the structured reference, then the text', () => {
    expect(readSymbols('/VS2027000001/SS/KS0308', null, ['VS999'])).toEqual({
      symbolVariable: '2027000001',
      symbolSpecific: null,
      symbolConstant: '0308',
    });
    expect(readSymbols('NOTPROVIDED', 'RF18000000000000000012345', [])).toMatchObject({
      symbolVariable: '12345',
    });
    expect(readSymbols(null, null, ['platba faktury /VS/1234567890 dakujeme'])).toMatchObject({
      symbolVariable: '1234567890',
    });
    expect(readSymbols(null, null, ['VS: 42, SS 7'])).toMatchObject({
      symbolVariable: '42',
      symbolSpecific: '7',
    });
    expect(readSymbols(null, null, ['VSETKO 12'])).toMatchObject({ symbolVariable: null });
  });
});
