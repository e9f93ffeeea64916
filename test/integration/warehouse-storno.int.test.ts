/**
 * Storno of stock cards through HTTP (issue #38): the reversal card (own record number in the card's
 * ordner, negative quantities at the original cost prices, entries negated), the stock and the later cards
 * it reposts, the marks on both cards, and the refusals (409 reversed already or a reversal, 422 shortfall,
 * 422 closed period, 400 date before the card). Figures worked by hand in each case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companyWithPartner,
  costs,
  issue,
  item,
  ok,
  openYear,
  receive,
  stockOf,
  warehouse,
} from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;
let partnerId: string;

beforeAll(async () => {
  stack = await startStack();
  ({ c, partnerId } = await companyWithPartner(stack));
});
afterAll(() => stack?.stop());

const issueOf = async (warehouseId: string, itemId: string, date: string, quantity: number) =>
  ok(await issue(c, { warehouseId, partnerId, dateOperation: date, rows: [{ itemId, quantity }] }), 201);
const issueCard = async (id: string) => ok(await c.get(`/1.6/warehouses/issue-cards/${id}`));
const receiptCard = async (id: string) => ok(await c.get(`/1.6/warehouses/receipt-cards/${id}`));
const storno = (kind: 'issue-cards' | 'receipt-cards', id: string, date?: string) =>
  c.post(`/1.6/warehouses/${kind}/${id}/storno`, date ? { date } : {});
/** The number after `recordNumber` in its ordner's series (the trailing digits plus one). */
const nextNumber = (recordNumber: string) => {
  const [, head, digits] = /^(.*?)(\d+)$/.exec(recordNumber)!;
  return `${head}${String(Number(digits) + 1).padStart(digits.length, '0')}`;
};

describe('storno of an issue card', () => {
  it('brings the pieces back at their cost prices and reposts the later issue (moving average)', async () => {
    const w = await warehouse(c, { valuationMethod: 'WeightedAverage' });
    const i = await item(c);
    await receive(c, w.id, '2025-03-01', [[i.id, 10, 10]]);
    const a = await issueOf(w.id, i.id, '2025-03-10', 5);
    expect(costs(a)).toEqual([[5, 10, 50]]);
    await receive(c, w.id, '2025-03-12', [[i.id, 5, 22]]);
    // 5 @ 10 = 50 left, + 5 @ 22 = 110: 10 pieces worth 160, 16 a piece.
    const b = await issueOf(w.id, i.id, '2025-03-20', 5);
    expect(costs(b)).toEqual([[5, 16, 80]]);
    expect(await stockOf(c, w.id, i.id)).toEqual([5, 80]);

    const reversal = ok(await storno('issue-cards', a.id, '2025-03-11'), 201);
    expect(costs(reversal)).toEqual([[-5, 10, -50]]);
    expect(reversal).toMatchObject({
      ordnerId: a.ordnerId,
      recordNumber: nextNumber(b.recordNumber),
      dateOperation: '2025-03-11',
      dateAccounting: '2025-03-11',
      totalCost: -50,
      reversed: false,
      reversalId: null,
      reversalOf: a.id,
    });
    expect(reversal.accountingEntries).toEqual([
      {
        debitAccount: '504',
        creditAccount: '132',
        amount: -50,
        description: `Issue card ${reversal.recordNumber}`,
      },
    ]);
    expect(await issueCard(reversal.id)).toEqual(reversal);
    expect(await issueCard(a.id)).toMatchObject({
      reversed: true,
      reversalId: reversal.id,
      reversalOf: null,
    });
    // From 03-11: 10 @ 10 = 100; the receipt makes 15 worth 210 (14 a piece); B is revalued to 5 @ 14.
    expect(await stockOf(c, w.id, i.id, '2025-03-11')).toEqual([10, 100]);
    expect(costs(await issueCard(b.id))).toEqual([[5, 14, 70]]);
    expect(await stockOf(c, w.id, i.id)).toEqual([10, 140]);

    // Neither card can be reversed (again).
    for (const id of [a.id, reversal.id]) {
      const again = await storno('issue-cards', id);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('InvalidState');
    }
    // A back-dated receipt that would revalue the reversed card is refused, and changes nothing.
    const revalue = await c.post('/1.6/warehouses/receipt-cards', {
      ordnerCode: 'PR',
      warehouseId: w.id,
      dateOperation: '2025-03-05',
      rows: [{ itemId: i.id, quantity: 10, costPrice: 1 }],
    });
    expect(revalue.status).toBe(409);
    expect(revalue.body.detail).toContain(a.recordNumber);
    expect(await stockOf(c, w.id, i.id)).toEqual([10, 140]);
  });

  it('refuses a date before the card and a date in a closed period, naming them', async () => {
    const other = await stack.company();
    const p2024 = await openYear(other, 2024);
    await openYear(other, 2025);
    const p = ok(await other.post('/1.6/partners', { code: 'P1', name: 'Odberateľ' }), 201);
    const w = await warehouse(other);
    const i = await item(other);
    await receive(other, w.id, '2024-12-01', [[i.id, 10, 10]]);
    const card = ok(
      await other.post('/1.6/warehouses/issue-cards', {
        ordnerCode: 'VY',
        warehouseId: w.id,
        partnerId: p.id,
        dateOperation: '2024-12-10',
        rows: [{ itemId: i.id, quantity: 4 }],
      }),
      201,
    );
    const early = await other.post(`/1.6/warehouses/issue-cards/${card.id}/storno`, { date: '2024-12-09' });
    expect(early.status).toBe(400);
    expect(early.body.errors).toEqual([
      { path: 'date', message: "must not be before the card's dateOperation 2024-12-10" },
    ]);
    ok(await other.post(`/1.6/periods/${p2024}/close`));
    const closed = await other.post(`/1.6/warehouses/issue-cards/${card.id}/storno`, { date: '2024-12-20' });
    expect(closed.status).toBe(422);
    expect(closed.body.code).toBe('PeriodClosed');
    expect(closed.body.detail).toBe('period 2024 is closed');
    expect(closed.body.errors[0].path).toBe('date');
    // Dated in the open period it goes through; the missing body means today is not before the card.
    const reversal = ok(
      await other.post(`/1.6/warehouses/issue-cards/${card.id}/storno`, { date: '2025-01-02' }),
      201,
    );
    expect(costs(reversal)).toEqual([[-4, 10, -40]]);
    expect(await stockOf(other, w.id, i.id)).toEqual([10, 100]);
    const unknown = await other.post(`/1.6/warehouses/issue-cards/${crypto.randomUUID()}/storno`);
    expect(unknown.status).toBe(404);
  });
});

describe('storno of a receipt card', () => {
  it('FIFO: takes the receipt out of its own layer; refuses where its stock was issued since', async () => {
    const w = await warehouse(c);
    const i = await item(c);
    const r1 = await receive(c, w.id, '2025-05-01', [[i.id, 10, 10]]);
    const r2 = await receive(c, w.id, '2025-05-02', [[i.id, 10, 20]]);
    expect(costs(await issueOf(w.id, i.id, '2025-05-03', 5))).toEqual([[5, 10, 50]]);

    // R2's own layer (10 @ 20) goes, though R1's is older.
    const reversal = ok(await storno('receipt-cards', r2.id, '2025-05-04'), 201);
    expect(costs(reversal)).toEqual([[-10, 20, -200]]);
    expect(reversal).toMatchObject({
      ordnerId: r2.ordnerId,
      recordNumber: nextNumber(r2.recordNumber),
      totalCost: -200,
      reversalOf: r2.id,
    });
    expect(reversal.accountingEntries).toEqual([
      {
        debitAccount: '132',
        creditAccount: '131',
        amount: -200,
        description: `Receipt card ${reversal.recordNumber}`,
      },
    ]);
    expect(await receiptCard(r2.id)).toMatchObject({ reversed: true, reversalId: reversal.id });
    expect(await stockOf(c, w.id, i.id)).toEqual([5, 50]);

    // R1 has 5 of its 10 left: not allowed to go negative, its storno is refused and nothing changes.
    const short = await storno('receipt-cards', r1.id, '2025-05-05');
    expect(short.status).toBe(422);
    expect(short.body.code).toBe('OperationCanceledException');
    expect(short.body.shortfalls).toEqual([
      { itemId: i.id, lotNumberID: null, requested: 10, available: 5, date: '2025-05-05' },
    ]);
    expect(await receiptCard(r1.id)).toMatchObject({ reversed: false, reversalId: null });
    expect(await stockOf(c, w.id, i.id)).toEqual([5, 50]);
  });

  it('where negative stock is allowed: what is left of its layer goes at cost, the rest below zero', async () => {
    const w = await warehouse(c, { allowNegativeStock: true });
    const i = await item(c);
    const r = await receive(c, w.id, '2025-06-01', [[i.id, 10, 10]]);
    await issueOf(w.id, i.id, '2025-06-02', 4);
    const reversal = ok(await storno('receipt-cards', r.id, '2025-06-03'), 201);
    // 6 pieces @ 10 were left of its layer; the 4 issued since go below zero, carrying no value.
    expect(costs(reversal)).toEqual([[-10, 10, -60]]);
    expect(await stockOf(c, w.id, i.id)).toEqual([-4, 0]);
    // The next receipt settles the 4 missing pieces at its cost first.
    await receive(c, w.id, '2025-06-04', [[i.id, 5, 12]]);
    expect(await stockOf(c, w.id, i.id)).toEqual([1, 12]);
  });

  it('a back-dated storno of a receipt revalues the later issues (moving average)', async () => {
    const w = await warehouse(c, { valuationMethod: 'WeightedAverage', allowNegativeStock: true });
    const i = await item(c);
    await receive(c, w.id, '2025-07-01', [[i.id, 10, 10]]);
    const r = await receive(c, w.id, '2025-07-02', [[i.id, 10, 40]]);
    // 20 pieces worth 500: 25 a piece.
    const later = await issueOf(w.id, i.id, '2025-07-10', 4);
    expect(costs(later)).toEqual([[4, 25, 100]]);
    const reversal = ok(await storno('receipt-cards', r.id, '2025-07-05'), 201);
    expect(costs(reversal)).toEqual([[-10, 40, -400]]);
    // From 07-05: 10 pieces worth 100; the later issue is revalued to 4 @ 10.
    expect(costs(await issueCard(later.id))).toEqual([[4, 10, 40]]);
    expect(await stockOf(c, w.id, i.id)).toEqual([6, 60]);
  });
});
