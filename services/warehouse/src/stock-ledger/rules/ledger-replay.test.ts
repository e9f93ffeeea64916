import { dec, fmt } from '@bm/money';
import { describe, expect, it } from 'vitest';
import { mergeSourceRows } from '../../issue-card/copy.rules.js';
import { consumeFifo, splitByCost } from './fifo.js';
import { availableFrom, type KeyLedgerState, type LedgerDoc, replayKey } from './ledger-replay.js';
import { issueAtAverage } from './moving-average.js';
import { splitReceipt } from './receipt.js';
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

describe('replayKey (DESIGN §5 "Repost")', () => {
  const start = (): KeyLedgerState => ({
    quantity: dec(15),
    value: dec(40),
    layers: [layer('a', '10', '2.5', '25'), layer('b', '5', '3', '15')],
  });
  const issueDoc = (date: string, ...lines: [number, string, string?][]): LedgerDoc => ({
    kind: 'issue',
    docId: `i-${date}`,
    date,
    lines: lines.map(([line, q, cost]) => ({
      line,
      quantity: dec(q),
      costPrice: cost ? dec(cost) : undefined,
    })),
  });
  const receiptDoc = (date: string, q: string, cost: string): LedgerDoc => ({
    kind: 'receipt',
    docId: `r-${date}`,
    date,
    lines: [{ line: 0, quantity: dec(q), costPrice: dec(cost) }],
  });
  const pieces = (r: ReturnType<typeof replayKey>, doc = 0) => {
    if (!r.ok) throw new Error('refused');
    const d = r.docs[doc];
    if (d.kind !== 'issue') throw new Error('not an issue');
    return d.lines.map((l) => [l.line, show(l.pieces)]);
  };

  it('values two lines of one item in order (FIFO)', () => {
    const r = replayKey('FIFO', false, start(), [issueDoc('2025-01-01', [0, '8'], [1, '4'])]);
    expect(pieces(r)).toEqual([
      [0, [['8', '2.5', '20']]],
      [
        1,
        [
          ['2', '2.5', '5'],
          ['2', '3', '6'],
        ],
      ],
    ]);
    if (!r.ok) throw new Error('refused');
    expect([fmt(r.final.quantity), fmt(r.final.value), r.final.layers.map((l) => l.id)]).toEqual([
      '3',
      '9',
      ['b'],
    ]);
  });

  it('refuses where the running quantity first goes negative; available is the lowest later balance', () => {
    const later = [issueDoc('2025-03-10', [0, '11']), receiptDoc('2025-03-20', '5', '1')];
    const r = replayKey('FIFO', false, start(), [issueDoc('2025-03-01', [0, '5']), ...later]);
    expect(r.ok ? null : [r.shortfall.date, fmt(r.shortfall.quantity)]).toEqual(['2025-03-10', '-1']);
    expect(fmt(availableFrom(dec(15), later))).toBe('4');
    expect(fmt(availableFrom(dec(2), []))).toBe('2');
    expect(fmt(availableFrom(dec(-3), []))).toBe('0');
  });

  it('issues the pieces beyond stock at cost 0 as their own row when allowed', () => {
    expect(pieces(replayKey('WeightedAverage', true, start(), [issueDoc('2025-01-01', [0, '20'])]))).toEqual([
      [
        0,
        [
          ['15', '2.6667', '40'],
          ['5', '0', '0'],
        ],
      ],
    ]);
  });

  it('uses the given cost price under Custom, before and beyond stock, and never settles', () => {
    const r = replayKey('Custom', true, { quantity: dec(0), value: dec(0), layers: [] }, [
      issueDoc('2025-01-01', [0, '3', '1.3333']),
      receiptDoc('2025-01-02', '3', '2'),
    ]);
    expect(pieces(r)).toEqual([[0, [['3', '1.3333', '4']]]]);
    if (!r.ok || r.docs[1].kind !== 'receipt') throw new Error('refused');
    expect(fmt(r.docs[1].lines[0].settledQuantity)).toBe('0');
    expect([fmt(r.final.quantity), fmt(r.final.value)]).toEqual(['0', '2']); // a price difference, shown as is
  });

  it('revalues a later FIFO issue when an earlier one is inserted before it (issue #10 case 1)', () => {
    const empty: KeyLedgerState = { quantity: dec(0), value: dec(0), layers: [] };
    const r = replayKey('FIFO', false, empty, [
      receiptDoc('2025-03-01', '10', '10'),
      issueDoc('2025-03-05', [0, '10']),
      receiptDoc('2025-03-10', '10', '20'),
      issueDoc('2025-03-15', [0, '10']),
    ]);
    expect([pieces(r, 1), pieces(r, 3)]).toEqual([
      [[0, [['10', '10', '100']]]],
      [[0, [['10', '20', '200']]]],
    ]);
    if (!r.ok) throw new Error('refused');
    expect([fmt(r.final.quantity), fmt(r.final.value), r.final.layers.length]).toEqual(['0', '0', 0]);
  });

  it('settles a negative balance on the next receipt (FIFO and average), not under Custom', () => {
    const empty: KeyLedgerState = { quantity: dec(0), value: dec(0), layers: [] };
    const r = replayKey('FIFO', true, empty, [
      issueDoc('2025-01-01', [0, '4']),
      receiptDoc('2025-01-02', '10', '1.5'),
    ]);
    if (!r.ok || r.docs[1].kind !== 'receipt') throw new Error('refused');
    const got = r.docs[1].lines[0];
    expect([fmt(got.settledQuantity), fmt(got.settlementValue), fmt(got.layer!.remainingQuantity)]).toEqual([
      '4',
      '6',
      '6',
    ]);
    expect([fmt(r.final.quantity), fmt(r.final.value)]).toEqual(['6', '9']);
  });

  it('never drives a sub-cent layer below zero', () => {
    // 3 pieces at 0.005 make 0.02; taking them one by one takes 0.01, 0.01, then what is left: 0.
    const r = replayKey(
      'FIFO',
      false,
      { quantity: dec(3), value: dec('0.01'), layers: [layer('a', '3', '0.005', '0.01')] },
      [issueDoc('2025-01-01', [0, '1']), issueDoc('2025-01-02', [0, '1']), issueDoc('2025-01-03', [0, '1'])],
    );
    expect([pieces(r, 0), pieces(r, 1), pieces(r, 2)]).toEqual([
      [[0, [['1', '0.005', '0.01']]]],
      [[0, [['1', '0.005', '0']]]],
      [[0, [['1', '0.005', '0']]]],
    ]);
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
