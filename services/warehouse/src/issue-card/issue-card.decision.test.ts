import { dec } from '@bm/money';
import { describe, expect, it } from 'vitest';
import type { IssuedPiece } from '../stock-ledger/rules/ledger-replay.js';
import { decideIssueCard, type IssueCardDecisionInput } from './issue-card.decision.js';

const piece = (q: string, cost: string, amount: string): IssuedPiece => ({
  quantity: dec(q),
  costPrice: dec(cost),
  amount: dec(amount),
  takes: [],
});
const r: IssueCardDecisionInput = {
  input: {
    partnerId: 'partner-1',
    rows: [{}, { code: 'X-9', name: 'Vlastný názov', sellPrice: '99.5' }],
  },
  ordner: { id: 'ordner-vy' },
  warehouse: { id: 'wh-1', accounted: true, stockAccount: '132', expenseAccount: '504' },
  resolved: [
    { item: { id: 'item-1', code: 'T1', name: 'Tovar', sellPrice: '12' }, unitId: 'ks', lotNumberID: null },
    { item: { id: 'item-2', code: 'T2', name: 'Iný', sellPrice: '8' }, unitId: 'ks', lotNumberID: 'lot-7' },
  ],
  dates: { dateCreated: '2025-03-10', dateOperation: '2025-03-09', dateAccounting: '2025-03-09' },
  periodId: 'period-2025',
  reportId: null,
  sourceType: null,
};

describe('an issue card decided (INTERFACE §2.1, DESIGN §5)', () => {
  let n = 0;
  const w = decideIssueCard(
    r,
    { cardId: 'card-1', companyId: 'co-1' },
    new Map([
      // FIFO split line 0 over two layers; line 1 from one.
      [0, [piece('2', '2.5', '5.00'), piece('3', '3', '9.00')]],
      [1, [piece('1', '4.1234', '4.12')]],
    ]),
    () => `id-${++n}`,
    new Date(0),
  );

  it('has one row per valued piece, in input order, with the line each came from', () => {
    expect(w.rows.map((x) => [x.id, x.itemId, x.quantity, x.costPrice, x.amount])).toEqual([
      ['id-1', 'item-1', '2', '2.5', '5'],
      ['id-2', 'item-1', '3', '3', '9'],
      ['id-3', 'item-2', '1', '4.1234', '4.12'],
    ]);
    expect(w.lines).toEqual([0, 0, 1]);
    expect(w.totalCost).toBe('18.12');
    expect(w.eventId).toBe('id-4');
  });

  it("takes code, name and sell price from the item unless the row gives them; the header's defaults", () => {
    expect(w.rows.map((x) => [x.code, x.name, x.sellPrice, x.unitId, x.lotNumberID])).toEqual([
      ['T1', 'Tovar', '12', 'ks', null],
      ['T1', 'Tovar', '12', 'ks', null],
      ['X-9', 'Vlastný názov', '99.5', 'ks', 'lot-7'],
    ]);
    expect(w.header).toEqual({
      ordnerId: 'ordner-vy',
      warehouseId: 'wh-1',
      partnerId: 'partner-1',
      tags: [],
      partnerAddress: null,
      dateCreated: '2025-03-10',
      dateOperation: '2025-03-09',
      dateAccounting: '2025-03-09',
      periodId: 'period-2025',
      itemsComment: null,
      reportId: null,
      sourceId: null,
      sourceType: null,
    });
  });
});
