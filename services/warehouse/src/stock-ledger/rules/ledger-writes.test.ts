import { dec } from '@bm/money';
import { describe, expect, it } from 'vitest';
import { replayKey } from './ledger-replay.js';
import { ledgerRows } from './ledger-writes.js';

const NIL = '00000000-0000-0000-0000-000000000000';

describe('ledger rows of a replayed posting (DESIGN §5 "Repost")', () => {
  it('writes a back-dated FIFO receipt, and the later issue it revalues, with real costs', () => {
    // 10 pcs at 2.50 in stock; a receipt of 5 at 2.00 is back-dated before a later issue of 12.
    const start = {
      quantity: dec(10),
      value: dec(25),
      layers: [{ id: 'L1', unitCost: dec('2.5'), remainingQuantity: dec(10), remainingValue: dec(25) }],
    };
    const r = replayKey('FIFO', false, start, [
      {
        kind: 'receipt',
        docId: 'R',
        date: '2026-11-02',
        lines: [{ line: 0, quantity: dec(5), costPrice: dec(2) }],
      },
      { kind: 'issue', docId: 'I', date: '2026-11-05', lines: [{ line: 0, quantity: dec(12) }] },
    ]);
    if (!r.ok) throw new Error('refused');
    const rows = ledgerRows({
      companyId: 'C',
      warehouseId: 'W',
      doc: { docId: 'R', date: '2026-11-02' },
      seq: '100',
      keys: [
        {
          itemId: 'X',
          lotKey: NIL,
          later: [{ docId: 'I', seq: '90' }],
          startLayers: start.layers,
          docs: r.docs,
          final: r.final,
        },
      ],
    });
    // The receipt's movement at its own place; the issue keeps its place (seq 90) and is split per cost.
    expect(rows.movements).toEqual([
      ['C', 'W', 'X', NIL, '2026-11-02', '100', '5', '10', 'ReceiptCard', 'R'],
      ['C', 'W', 'X', NIL, '2026-11-05', '90', '-10', '-25', 'IssueCard', 'I'],
      ['C', 'W', 'X', NIL, '2026-11-05', '90', '-2', '-4', 'IssueCard', 'I'],
    ]);
    // The new layer (a fresh id) is left with 3 pcs worth 6.00; the old one is emptied.
    expect(rows.layers).toHaveLength(1);
    expect(rows.layers[0].slice(1, 7)).toEqual(['C', 'W', 'X', NIL, '2026-11-02', '100']);
    expect(rows.layers[0].slice(7)).toEqual([0, '5', '2', '10', '3', '6']);
    expect(rows.layerUpdates).toEqual([['L1', '0', '0']]);
    expect(rows.consumptions.map((c) => [c[1] === 'L1' ? 'L1' : 'new', c[2], c[4], c[5]])).toEqual([
      ['L1', 'I', '10', '25'],
      ['new', 'I', '2', '4'],
    ]);
    expect([...rows.repostedLines.keys()]).toEqual(['I']);
    expect(rows.laterReceipts.size).toBe(0);
  });
});
