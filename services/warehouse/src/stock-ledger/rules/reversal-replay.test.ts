/**
 * The ledger's two reversals (issue #38, storno): an issue card's `return` and a receipt card's
 * `withdrawal`, worked by hand, and as properties: a card reversed right after it leaves the key as it
 * found it, whatever the layers before (checked against the start state itself).
 */
import { type Dec, dec, fmt } from '@bm/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Layer } from './fifo.js';
import { type KeyLedgerState, type LedgerDoc, newLayerId, replayKey } from './ledger-replay.js';

const layer = (id: string, q: string, cost: string, value: string): Layer => ({
  id,
  unitCost: dec(cost),
  remainingQuantity: dec(q),
  remainingValue: dec(value),
});
const state = (layers: Layer[]): KeyLedgerState => ({
  quantity: layers.reduce((a, l) => a.plus(l.remainingQuantity), dec(0)),
  value: layers.reduce((a, l) => a.plus(l.remainingValue), dec(0)),
  layers,
});
const pieces = (d: { lines: { pieces: { quantity: Dec; costPrice: Dec; amount: Dec }[] }[] }) =>
  d.lines.flatMap((l) => l.pieces.map((p) => [fmt(p.quantity), fmt(p.costPrice), fmt(p.amount)]));

describe('withdrawal: a receipt card reversed (FIFO)', () => {
  const start = state([layer('old', '10', '10', '100'), layer('own', '10', '20', '200')]);
  const withdrawal = (quantity: string): LedgerDoc => ({
    kind: 'withdrawal',
    docId: 'rev',
    date: '2025-05-04',
    lines: [{ line: 0, quantity: dec(quantity), costPrice: dec(20), layerIds: ['own'] }],
  });

  it('takes its own layer, though an older one has stock', () => {
    const r = replayKey('FIFO', false, start, [withdrawal('10')]);
    if (!r.ok) throw new Error('refused');
    expect(pieces(r.docs[0] as any)).toEqual([['10', '20', '200']]);
    expect([fmt(r.final.quantity), fmt(r.final.value)]).toEqual(['10', '100']);
    expect(r.final.layers.map((l) => l.id)).toEqual(['old']);
  });

  it('is refused where its layer was issued from and negative stock is not allowed: available is what is left of it', () => {
    const used = state([layer('old', '10', '10', '100'), layer('own', '4', '20', '80')]);
    const r = replayKey('FIFO', false, used, [withdrawal('10')]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect([r.shortfall.date, fmt(r.shortfall.available!)]).toEqual(['2025-05-04', '4']);
  });

  it('where negative stock is allowed, takes what is left of its layer, then the oldest', () => {
    const used = state([layer('old', '10', '10', '100'), layer('own', '4', '20', '80')]);
    const r = replayKey('FIFO', true, used, [withdrawal('10')]);
    if (!r.ok) throw new Error('refused');
    expect(pieces(r.docs[0] as any)).toEqual([
      ['4', '20', '80'],
      ['6', '10', '60'],
    ]);
    expect([fmt(r.final.quantity), fmt(r.final.value)]).toEqual(['4', '40']);
  });
});

describe('withdrawal under moving average', () => {
  it('takes the receipt cost, never more value than the stock holds', () => {
    const avg = { quantity: dec(20), value: dec(500), layers: [] };
    const out = (q: string, cost: string): LedgerDoc => ({
      kind: 'withdrawal',
      docId: 'rev',
      date: '2025-07-05',
      lines: [{ line: 0, quantity: dec(q), costPrice: dec(cost), layerIds: [] }],
    });
    const r = replayKey('WeightedAverage', false, avg, [out('10', '40')]);
    if (!r.ok) throw new Error('refused');
    expect(pieces(r.docs[0] as any)).toEqual([['10', '40', '400']]);
    expect([fmt(r.final.quantity), fmt(r.final.value)]).toEqual(['10', '100']);
    // 5 pieces at 30 would take 150 of a stock worth 100: it takes the 100 (20 a piece).
    const capped = replayKey('WeightedAverage', false, r.final, [out('5', '30')]);
    if (!capped.ok) throw new Error('refused');
    expect(pieces(capped.docs[0] as any)).toEqual([['5', '20', '100']]);
    expect([fmt(capped.final.quantity), fmt(capped.final.value)]).toEqual(['5', '0']);
  });
});

describe('return: an issue card reversed', () => {
  it('brings the pieces back at the amounts they left with, settling a negative balance first', () => {
    const negative = { quantity: dec(-2), value: dec(0), layers: [] };
    const r = replayKey('FIFO', false, negative, [
      {
        kind: 'return',
        docId: 'rev',
        date: '2025-03-11',
        lines: [{ line: 0, quantity: dec(3), costPrice: dec('3.3333'), amount: dec(10) }],
      },
    ]);
    if (!r.ok) throw new Error('refused');
    const line = (r.docs[0] as any).lines[0];
    // 2 pieces settle the missing ones at round2(2 × 3.3333) = 6.67; the layer keeps 1 piece worth 3.33.
    expect([fmt(line.settledQuantity), fmt(line.settlementValue), fmt(line.amount)]).toEqual([
      '2',
      '6.67',
      '10',
    ]);
    expect([fmt(r.final.quantity), fmt(r.final.value)]).toEqual(['1', '3.33']);
  });
});

/** Layers of whole pieces at costs with up to 4 decimals (values rounded to cents as a receipt's are). */
const layersArb = fc
  .array(fc.record({ q: fc.integer({ min: 1, max: 50 }), c: fc.integer({ min: 1, max: 500_000 }) }), {
    minLength: 1,
    maxLength: 6,
  })
  .map((ls) =>
    ls.map((l, i) => {
      const cost = dec(l.c).div(10_000);
      return layer(`l${i}`, String(l.q), fmt(cost), fmt(cost.mul(l.q).toDecimalPlaces(2)));
    }),
  );

describe('a card reversed right after it leaves the key as it found it (property)', () => {
  it('FIFO: an issue and its return', () => {
    fc.assert(
      fc.property(layersArb, fc.integer({ min: 1, max: 300 }), (layers, want) => {
        const start = state(layers);
        const quantity = dec(Math.min(want, start.quantity.toNumber()));
        const issued = replayKey('FIFO', false, start, [
          { kind: 'issue', docId: 'i', date: '2025-01-01', lines: [{ line: 0, quantity }] },
        ]);
        if (!issued.ok) return false;
        const back = (issued.docs[0] as any).lines[0].pieces.map((p: any, line: number) => ({
          line,
          quantity: p.quantity,
          costPrice: p.costPrice,
          amount: p.amount,
        }));
        const r = replayKey('FIFO', false, issued.final, [
          { kind: 'return', docId: 'r', date: '2025-01-01', lines: back },
        ]);
        return r.ok && r.final.quantity.eq(start.quantity) && r.final.value.eq(start.value);
      }),
    );
  });

  it('FIFO: a receipt and its withdrawal', () => {
    fc.assert(
      fc.property(
        layersArb,
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 500_000 }),
        (layers, q, c) => {
          const start = state(layers);
          const cost = dec(c).div(10_000);
          const received = replayKey('FIFO', false, start, [
            {
              kind: 'receipt',
              docId: 'rc',
              date: '2025-01-01',
              lines: [{ line: 0, quantity: dec(q), costPrice: cost }],
            },
          ]);
          if (!received.ok) return false;
          const r = replayKey('FIFO', false, received.final, [
            {
              kind: 'withdrawal',
              docId: 'w',
              date: '2025-01-01',
              lines: [{ line: 0, quantity: dec(q), costPrice: cost, layerIds: [newLayerId('rc', 0)] }],
            },
          ]);
          return (
            r.ok &&
            r.final.quantity.eq(start.quantity) &&
            r.final.value.eq(start.value) &&
            r.final.layers.map((l) => l.id).join() === start.layers.map((l) => l.id).join()
          );
        },
      ),
    );
  });
});
