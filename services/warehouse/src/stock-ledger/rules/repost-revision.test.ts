import { dec } from '@bm/money';
import { describe, expect, it } from 'vitest';
import type { IssuedPiece } from './ledger-replay.js';
import {
  changedIssueCards,
  closedPeriodRefusal,
  reviseIssueCard,
  reviseReceiptEntries,
  type StoredIssueRow,
} from './repost-revision.js';

const accounts = { id: 'wh-1', accounted: true, stockAccount: '132', expenseAccount: '504' };
const row = (id: string, rowNo: number, lineNo: number, q: string, cost: string, amount: string) =>
  ({
    id,
    issueCardId: 'card-1',
    rowNo,
    lineNo,
    itemId: `item-${lineNo}`,
    code: `C${lineNo}`,
    name: `Item ${lineNo}`,
    unitId: null,
    lotNumberId: null,
    quantity: q,
    sellPrice: '20',
    costPrice: cost,
    amount,
  }) satisfies StoredIssueRow;
const piece = (q: string, cost: string, amount: string): IssuedPiece => ({
  quantity: dec(q),
  costPrice: dec(cost),
  amount: dec(amount),
  takes: [],
});
const card = {
  id: 'card-1',
  companyId: 'co-1',
  recordNumber: 'VY2025/0007',
  totalCost: '74.00',
  dateOperation: '2025-03-10',
};

describe('repost revision of a later issue card (DESIGN §5 "Repost")', () => {
  // Line 0: 2 pcs at 10.00 and 3 pcs at 12.00 (FIFO split); line 1: 1 pc at 2.00.
  const stored = [
    row('r1', 1, 0, '2', '10', '20.00'),
    row('r2', 2, 0, '3', '12', '36.00'),
    row('r3', 3, 1, '1', '2', '2.00'),
  ];

  it('re-splits a changed line per cost price, keeping the id of a row whose cost stays', () => {
    let n = 0;
    const r = reviseIssueCard(
      card,
      stored,
      new Map([[0, [piece('2', '9', '18.00'), piece('3', '12', '36.00')]]]),
      accounts,
      'receipt-9',
      () => `new-${++n}`,
    );
    expect(r.rows.map((x) => [x.id, x.rowNo, x.lineNo, x.quantity, x.costPrice, x.amount])).toEqual([
      ['new-1', 1, 0, '2', '9', '18'],
      ['r2', 2, 0, '3', '12', '36'],
      ['r3', 3, 1, '1', '2', '2.00'],
    ]);
    expect(r.removed).toEqual(['r1']);
    expect(r.kept.map((x) => x.id)).toEqual(['r2', 'r3']);
    expect(r.added.map((x) => [x.id, x.code, x.sellPrice])).toEqual([['new-1', 'C0', '20']]);
    expect(r.totalCost).toBe('56');
    expect(r.entries).toEqual([
      { debitAccount: '504', creditAccount: '132', amount: '56', description: 'Issue card VY2025/0007' },
    ]);
    expect(r.event).toMatchObject({
      eventId: 'new-2',
      issueCardId: 'card-1',
      warehouseId: 'wh-1',
      causedBy: 'receipt-9',
      totalCostBefore: '74',
      totalCostAfter: '56',
    });
    expect(r.event.rows.map((x) => x.amount)).toEqual(['18', '36', '2']);
  });

  it('merges a line that now takes one cost price into one row', () => {
    const r = reviseIssueCard(card, stored, new Map([[0, [piece('5', '11', '55.00')]]]), accounts, 'x');
    expect(r.rows.map((x) => [x.lineNo, x.quantity, x.costPrice, x.amount])).toEqual([
      [0, '5', '11', '55'],
      [1, '1', '2', '2.00'],
    ]);
    expect(r.removed.sort()).toEqual(['r1', 'r2']);
    expect(r.totalCost).toBe('57');
  });

  it('posts no entries on a warehouse that is not accounted', () => {
    const r = reviseIssueCard(
      card,
      stored,
      new Map([[1, [piece('1', '3', '3.00')]]]),
      {
        ...accounts,
        accounted: false,
      },
      'x',
    );
    expect(r.entries).toEqual([]);
    expect(r.totalCost).toBe('59');
  });

  it('finds only the cards whose pieces differ from their rows', () => {
    const rows = new Map([['card-1', stored]]);
    const same = new Map([['card-1', new Map([[0, [piece('2', '10', '20'), piece('3', '12', '36')]]])]]);
    expect(changedIssueCards(same, rows)).toEqual([]);
    const moved = new Map([['card-1', new Map([[1, [piece('1', '2.5', '2.50')]]])]]);
    expect(changedIssueCards(moved, rows).map(([id]) => id)).toEqual(['card-1']);
  });
});

describe('repost revision of a later receipt', () => {
  const receipt = { recordNumber: 'PR2025/0003', totalCost: '100.00', settled: '0' };
  const stock = { debitAccount: '132', creditAccount: '131', amount: '100.00' };

  it('adds the settlement entry when the replay makes the receipt settle a negative balance', () => {
    expect(reviseReceiptEntries(accounts, { ...receipt, settled: '20.00' }, [stock])).toEqual([
      { ...stock, amount: '100', description: 'Receipt card PR2025/0003' },
      {
        debitAccount: '504',
        creditAccount: '132',
        amount: '20',
        description: 'Negative stock settlement PR2025/0003',
      },
    ]);
  });

  it('changes nothing when the entries are the same amounts', () => {
    expect(reviseReceiptEntries(accounts, receipt, [{ ...stock, amount: '100' }])).toBeNull();
  });
});

describe('closed periods', () => {
  const revalued = [
    { kind: 'issue' as const, id: 'a', recordNumber: 'VY1', periodId: 'p-open' },
    { kind: 'receipt' as const, id: 'b', recordNumber: 'PR2', periodId: 'p-closed' },
  ];

  it('refuses with 422 PeriodClosed naming the first revalued document in a closed period', () => {
    const e = closedPeriodRefusal(revalued, new Set(['p-closed']));
    expect(e?.code).toBe('PeriodClosed');
    expect(e?.message).toContain('receipt card PR2');
    expect(e?.errors).toEqual([{ path: 'dateOperation', message: 'would revalue PR2 in a closed period' }]);
  });

  it('lets the posting go when no revalued document is in a closed period', () => {
    expect(closedPeriodRefusal(revalued, new Set(['p-other']))).toBeNull();
  });
});
