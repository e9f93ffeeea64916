import { describe, expect, it } from 'vitest';
import { paymentRefusal, stateOf } from './invoice-state.js';

const inv = { sumTotal: '175.5', cancelled: false };

describe('sales-invoice states (DESIGN §6 "States")', () => {
  it('goes issued → partiallyPaid → paid; the balance counts payments dated up to today', () => {
    expect(stateOf(inv, [], '2025-03-20')).toEqual({ state: 'issued', balance: '175.5' });
    const part = [{ amount: '75.5', date: '2025-03-15' }];
    expect(stateOf(inv, part, '2025-03-20')).toEqual({ state: 'partiallyPaid', balance: '100' });
    const later = [...part, { amount: '100', date: '2025-04-01' }];
    expect(stateOf(inv, later, '2025-03-20')).toEqual({ state: 'paid', balance: '100' });
    expect(stateOf(inv, later, '2025-04-01')).toEqual({ state: 'paid', balance: '0' });
    expect(stateOf({ ...inv, cancelled: true }, [], '2025-03-20')).toEqual({
      state: 'cancelled',
      balance: '0',
    });
  });

  it('refuses a payment on a paid or cancelled invoice and above the unpaid amount', () => {
    const part = [{ amount: '75.5', date: '2025-03-15' }];
    expect(paymentRefusal(inv, part, '100', '2025-03-20')).toBeNull();
    expect(paymentRefusal(inv, part, '100.01', '2025-03-20')).toEqual({ reason: 'exceeds', open: '100' });
    expect(paymentRefusal(inv, [{ amount: '175.5', date: '2025-03-15' }], '1', '2025-03-20')).toEqual({
      reason: 'state',
      state: 'paid',
    });
    expect(paymentRefusal({ ...inv, cancelled: true }, [], '1', '2025-03-20')).toEqual({
      reason: 'state',
      state: 'cancelled',
    });
  });

  it('settles a credit note by refunds of its sign, never beyond it; a zero total is paid at once', () => {
    const credit = { sumTotal: '-123', cancelled: false };
    expect(stateOf(credit, [], '2025-03-20')).toEqual({ state: 'issued', balance: '-123' });
    expect(paymentRefusal(credit, [], '-123', '2025-03-20')).toBeNull();
    expect(paymentRefusal(credit, [], '123', '2025-03-20')).toEqual({ reason: 'sign', open: '-123' });
    expect(paymentRefusal(credit, [], '-123.01', '2025-03-20')).toEqual({ reason: 'exceeds', open: '-123' });
    const part = [{ amount: '-23', date: '2025-03-15' }];
    expect(stateOf(credit, part, '2025-03-20')).toEqual({ state: 'partiallyPaid', balance: '-100' });
    expect(stateOf(credit, [...part, { amount: '-100', date: '2025-03-16' }], '2025-03-20')).toEqual({
      state: 'paid',
      balance: '0',
    });
    expect(paymentRefusal(inv, [], '-1', '2025-03-20')).toEqual({ reason: 'sign', open: '175.5' });
    expect(stateOf({ sumTotal: '0', cancelled: false }, [], '2025-03-20')).toEqual({
      state: 'paid',
      balance: '0',
    });
    expect(paymentRefusal({ sumTotal: '0', cancelled: false }, [], '1', '2025-03-20')).toEqual({
      reason: 'state',
      state: 'paid',
    });
  });
});
