import { dec, fmt } from '@bm/money';
import { describe, expect, it } from 'vitest';
import { checkAvailability } from './availability.js';
import { mergeSourceRows } from './copy.js';
import { consumeFifo, splitByCost } from './fifo.js';
import { issueAtAverage } from './moving-average.js';
import { splitReceipt } from './receipt.js';
import { type KeyState, stockKey, valueIssue } from './valuation.js';
import { issueEntries, receiptEntries } from './warehouse-accounting.js';

const layer = (id: string, q: string, cost: string, value: string) => ({
  id,
  unitCost: dec(cost),
  remainingQuantity: dec(q),
  remainingValue: dec(value),
});
const show = (rows: { quantity: any; costPrice: any; amount: any }[]) =>
  rows.map((r) => [fmt(r.quantity), fmt(r.costPrice), fmt(r.amount)]);

describe('FIFO (DESIGN §5)', () => {
  it('consumes the oldest layers first and splits the row per cost price', () => {
    const layers = [
      layer('a', '10', '2.5', '25'),
      layer('b', '5', '3', '15'),
      layer('c', '10', '3.3333', '33.33'),
    ];
    const { takes, uncovered } = consumeFifo(layers, dec(17));
    expect(takes.map((t) => [t.layerId, fmt(t.quantity), fmt(t.value)])).toEqual([
      ['a', '10', '25'],
      ['b', '5', '15'],
      ['c', '2', '6.67'],
    ]);
    expect(fmt(uncovered)).toBe('0');
    expect(show(splitByCost(takes))).toEqual([
      ['10', '2.5', '25'],
      ['5', '3', '15'],
      ['2', '3.3333', '6.67'],
    ]);
  });

  it('takes the whole remaining value when it empties a layer (no stranded cent)', () => {
    // 3 pieces received for 10.00: unit cost 3.3333; the last piece carries 3.34.
    const l = [layer('a', '1', '3.3333', '3.34')];
    expect(fmt(consumeFifo(l, dec(1)).takes[0].value)).toBe('3.34');
  });

  it('merges layers of equal cost into one row and reports what no layer covers', () => {
    const { takes, uncovered } = consumeFifo([layer('a', '2', '4', '8'), layer('b', '3', '4', '12')], dec(7));
    expect(show(splitByCost(takes))).toEqual([['5', '4', '20']]);
    expect(fmt(uncovered)).toBe('2');
  });
});

describe('moving average (DESIGN §5)', () => {
  it.each([
    // balance qty, value, issue → valued qty, unit cost, value, uncovered
    ['30', '100', '10', '10', '3.3333', '33.33', '0'],
    ['30', '100', '30', '30', '3.3333', '100', '0'],
    ['3', '10', '5', '3', '3.3333', '10', '2'],
    ['0', '0', '2', '0', '0', '0', '2'],
    ['-2', '0', '1', '0', '0', '0', '1'],
  ])('stock %s for %s, issue %s', (bq, bv, q, vq, cost, value, unc) => {
    const r = issueAtAverage({ quantity: dec(bq), value: dec(bv) }, dec(q));
    expect([fmt(r.valuedQuantity), fmt(r.unitCost), fmt(r.value), fmt(r.uncovered)]).toEqual([
      vq,
      cost,
      value,
      unc,
    ]);
  });
});

describe('receipt into a negative balance (DESIGN §5)', () => {
  it('settles the missing pieces first at the receipt cost', () => {
    const r = splitReceipt(dec(-3), dec(10), dec('5.55'));
    expect([
      fmt(r.amount),
      fmt(r.settledQuantity),
      fmt(r.settlementValue),
      fmt(r.layerQuantity),
      fmt(r.layerValue),
    ]).toEqual(['55.5', '3', '16.65', '7', '38.85']);
    const full = splitReceipt(dec(-10), dec(4), dec('1.25'));
    expect([fmt(full.settledQuantity), fmt(full.settlementValue), fmt(full.layerQuantity)]).toEqual([
      '4',
      '5',
      '0',
    ]);
    const plain = splitReceipt(dec(5), dec(4), dec('1.25'));
    expect([fmt(plain.settledQuantity), fmt(plain.layerQuantity), fmt(plain.layerValue)]).toEqual([
      '0',
      '4',
      '5',
    ]);
  });
});

describe('availability (DESIGN §5)', () => {
  it('is the lowest balance from the date on, and names where it would first go negative', () => {
    const later = [
      { date: '2025-03-10', quantity: dec(4) },
      { date: '2025-03-20', quantity: dec(9) },
    ];
    expect(checkAvailability('2025-03-01', dec(10), later, dec(3))).toEqual({
      available: dec(4),
      firstNegativeDate: null,
    });
    const r = checkAvailability('2025-03-01', dec(10), later, dec(5));
    expect([fmt(r.available), r.firstNegativeDate]).toEqual(['4', '2025-03-10']);
    const now = checkAvailability('2025-03-01', dec(2), [], dec(5));
    expect([fmt(now.available), now.firstNegativeDate]).toEqual(['2', '2025-03-01']);
  });
});

describe('valueIssue', () => {
  const state = (over: Partial<KeyState> = {}): Map<string, KeyState> =>
    new Map([
      [
        stockKey('i', null),
        {
          itemId: 'i',
          lotNumberID: null,
          balance: { quantity: dec(15), value: dec(40) },
          layers: [layer('a', '10', '2.5', '25'), layer('b', '5', '3', '15')],
          later: [],
          ...over,
        },
      ],
    ]);

  it('values two lines of one item in order (FIFO)', () => {
    const r = valueIssue(
      'FIFO',
      false,
      '2025-01-01',
      [
        { itemId: 'i', lotNumberID: null, quantity: dec(8) },
        { itemId: 'i', lotNumberID: null, quantity: dec(4) },
      ],
      state(),
    );
    if (!r.ok) throw new Error('refused');
    expect(r.rows.map((x) => [x.line, fmt(x.quantity), fmt(x.costPrice), fmt(x.amount)])).toEqual([
      [0, '8', '2.5', '20'],
      [1, '2', '2.5', '5'],
      [1, '2', '3', '6'],
    ]);
  });

  it('refuses with shortfalls summed per item when negative stock is not allowed', () => {
    const r = valueIssue(
      'FIFO',
      false,
      '2025-01-01',
      [
        { itemId: 'i', lotNumberID: null, quantity: dec(8) },
        { itemId: 'i', lotNumberID: null, quantity: dec(8) },
      ],
      state(),
    );
    expect(r).toEqual({
      ok: false,
      shortfalls: [{ itemId: 'i', lotNumberID: null, requested: '16', available: '15', date: '2025-01-01' }],
    });
  });

  it('issues the pieces beyond stock at cost 0 as their own row when allowed', () => {
    const r = valueIssue(
      'WeightedAverage',
      true,
      '2025-01-01',
      [{ itemId: 'i', lotNumberID: null, quantity: dec(20) }],
      state(),
    );
    if (!r.ok) throw new Error('refused');
    expect(r.rows.map((x) => [fmt(x.quantity), fmt(x.costPrice), fmt(x.amount)])).toEqual([
      ['15', '2.6667', '40'],
      ['5', '0', '0'],
    ]);
  });

  it('uses the given cost price under Custom', () => {
    const r = valueIssue(
      'Custom',
      false,
      '2025-01-01',
      [{ itemId: 'i', lotNumberID: null, quantity: dec(3), costPrice: dec('1.3333') }],
      state(),
    );
    if (!r.ok) throw new Error('refused');
    expect(show(r.rows)).toEqual([['3', '1.3333', '4']]);
  });
});

describe('copy merge (INTERFACE §4.1 copy rule 1)', () => {
  it('merges rows by item, lot and cost price', () => {
    const base = { code: 'A', name: 'A', unitId: null, sellPrice: '2' };
    const merged = mergeSourceRows([
      { ...base, itemId: 'a', lotNumberID: null, costPrice: '1.5', quantity: '2' },
      { ...base, itemId: 'a', lotNumberID: null, costPrice: '1.50', quantity: '3' },
      { ...base, itemId: 'a', lotNumberID: null, costPrice: '2', quantity: '1' },
      { ...base, itemId: 'a', lotNumberID: 'L', costPrice: '1.5', quantity: '1' },
    ]);
    expect(merged.map((m) => [m.itemId, m.lotNumberID, m.costPrice, fmt(m.quantity)])).toEqual([
      ['a', null, '1.5', '5'],
      ['a', null, '2', '1'],
      ['a', 'L', '1.5', '1'],
    ]);
  });
});

describe('warehouse postings (DESIGN §5)', () => {
  const w = { accounted: true, stockAccount: '132', expenseAccount: '504' };

  it('posts an issue at its cost, and nothing when not accounted or free', () => {
    expect(issueEntries(w, dec('46.67'), 'VY1')).toEqual([
      { debitAccount: '504', creditAccount: '132', amount: '46.67', description: 'Issue card VY1' },
    ]);
    expect(issueEntries({ ...w, accounted: false }, dec('1'), 'VY1')).toEqual([]);
    expect(issueEntries(w, dec('0'), 'VY1')).toEqual([]);
  });

  it('posts a receipt against 131 and settles negative stock', () => {
    expect(
      receiptEntries(w, dec('50'), dec('10'), 'PR1').map((e) => [e.debitAccount, e.creditAccount, e.amount]),
    ).toEqual([
      ['132', '131', '50'],
      ['504', '132', '10'],
    ]);
  });
});
