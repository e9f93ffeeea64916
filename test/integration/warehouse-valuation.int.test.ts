/**
 * Stock valuation through HTTP with exact figures (INTERFACE §2.1, §2.2, §4.1; DESIGN §5).
 */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companyWithPartner,
  costs,
  issue,
  item,
  ok,
  openYear,
  partner,
  receive,
  stockOf,
  warehouse,
} from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

let stack: Stack;
let c: Client;
let partnerId: string;

beforeAll(async () => {
  stack = await startStack();
  ({ c, partnerId } = await companyWithPartner(stack));
});
afterAll(() => stack?.stop());

describe('FIFO', () => {
  it('issues across three layers as one row per cost price, with exact values', async () => {
    const w = await warehouse(c);
    const it1 = await item(c);
    await receive(c, w.id, '2025-02-01', [[it1.id, 10, 2.5]]);
    await receive(c, w.id, '2025-02-02', [[it1.id, 5, 3]]);
    await receive(c, w.id, '2025-02-03', [[it1.id, 10, 3.3333]]); // 33.33
    const card = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-02-04',
        rows: [{ itemId: it1.id, quantity: 17 }],
      }),
      201,
    );
    expect(costs(card)).toEqual([
      [10, 2.5, 25],
      [5, 3, 15],
      [2, 3.3333, 6.67],
    ]);
    expect(card.totalCost).toBe(46.67);
    expect(await stockOf(c, w.id, it1.id)).toEqual([8, 26.66]);
    // The last pieces take the whole remaining value: no cent is stranded at quantity 0.
    const rest = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-02-05',
        rows: [{ itemId: it1.id, quantity: 3 }],
      }),
      201,
    );
    expect(costs(rest)).toEqual([[3, 3.3333, 10]]);
    const last = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-02-05',
        rows: [{ itemId: it1.id, quantity: 5 }],
      }),
      201,
    );
    expect(costs(last)).toEqual([[5, 3.3333, 16.66]]);
    expect(await stockOf(c, w.id, it1.id)).toEqual([0, 0]);
  });

  it('issues across layers after a partial issue, ignoring a costPrice sent by the client', async () => {
    const w = await warehouse(c);
    const it1 = await item(c);
    await receive(c, w.id, '2025-03-01', [
      [it1.id, 10, 2.5],
      [it1.id, 10, 3],
    ]);
    const first = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-03-02',
        rows: [{ itemId: it1.id, quantity: 4, costPrice: 99 }],
      }),
      201,
    );
    expect(costs(first)).toEqual([[4, 2.5, 10]]);
    const second = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-03-03',
        rows: [{ itemId: it1.id, quantity: 10 }],
      }),
      201,
    );
    expect(costs(second)).toEqual([
      [6, 2.5, 15],
      [4, 3, 12],
    ]);
    expect(await stockOf(c, w.id, it1.id)).toEqual([6, 18]);
    // As of 2 March only the first issue had happened.
    expect(await stockOf(c, w.id, it1.id, '2025-03-02')).toEqual([16, 45]);
  });
});

describe('moving weighted average', () => {
  it('values issues at the 4-decimal average and keeps the remaining value consistent', async () => {
    const w = await warehouse(c, { valuationMethod: 'WeightedAverage' });
    const it1 = await item(c);
    await receive(c, w.id, '2025-04-01', [[it1.id, 10, 2]]); // 20.00
    await receive(c, w.id, '2025-04-02', [[it1.id, 5, 3.1]]); // 15.50 → 15 for 35.50
    const a = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-04-03',
        rows: [{ itemId: it1.id, quantity: 4 }],
      }),
      201,
    );
    expect(costs(a)).toEqual([[4, 2.3667, 9.47]]); // round4(35.5 / 15) = 2.3667
    expect(await stockOf(c, w.id, it1.id)).toEqual([11, 26.03]);
    await receive(c, w.id, '2025-04-04', [[it1.id, 9, 2.2222]]); // 20.00 → 20 for 46.03
    const b = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-04-05',
        rows: [{ itemId: it1.id, quantity: 20 }],
      }),
      201,
    );
    expect(costs(b)).toEqual([[20, 2.3015, 46.03]]); // whole stock: whole value, though 20 × 2.3015 = 46.03
    expect(await stockOf(c, w.id, it1.id)).toEqual([0, 0]);
  });
});

describe('Custom valuation', () => {
  it('takes the cost price from each row and refuses a row without one', async () => {
    const w = await warehouse(c, { valuationMethod: 'Custom' });
    const it1 = await item(c);
    await receive(c, w.id, '2025-05-01', [[it1.id, 10, 1]]);
    const card = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-05-02',
        rows: [{ itemId: it1.id, quantity: 3, costPrice: 1.3333 }],
      }),
      201,
    );
    expect(costs(card)).toEqual([[3, 1.3333, 4]]);
    const r = await issue(c, {
      warehouseId: w.id,
      partnerId,
      dateOperation: '2025-05-02',
      rows: [
        { itemId: it1.id, quantity: 1, costPrice: 2 },
        { itemId: it1.id, quantity: 1 },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'CostPriceRequired', errors: [{ path: 'rows.1.costPrice' }] });
    expect(await stockOf(c, w.id, it1.id)).toEqual([7, 6]);
  });
});

describe('lot numbers', () => {
  it('keeps lots apart and requires lotNumberID for an item with lots', async () => {
    const w = await warehouse(c);
    const honey = await item(c, { hasLotNumbers: true });
    const l1 = ok(
      await c.post(`/1.6/items/${honey.id}/lot-numbers`, { number: 'L-2025-01', expiryDate: '2026-06-30' }),
      201,
    );
    const l2 = ok(await c.post(`/1.6/items/${honey.id}/lot-numbers`, { number: 'L-2025-02' }), 201);
    await receive(c, w.id, '2025-06-01', [
      [honey.id, 5, 1, l1.id],
      [honey.id, 5, 2, l2.id],
    ]);
    const card = ok(
      await issue(
        c,
        // The field name in another case, on purpose (names match case-insensitively).
        unchecked({
          warehouseId: w.id,
          partnerId,
          dateOperation: '2025-06-02',
          rows: [{ itemId: honey.id, LotNumberId: l2.id, quantity: 3 }],
        }),
      ),
      201,
    );
    expect(costs(card)).toEqual([[3, 2, 6]]);
    expect(card.rows[0].lotNumberID).toBe(l2.id);
    expect(await stockOf(c, w.id, honey.id, undefined, l1.id)).toEqual([5, 5]);
    expect(await stockOf(c, w.id, honey.id, undefined, l2.id)).toEqual([2, 4]);
    const r = await issue(c, {
      warehouseId: w.id,
      partnerId,
      dateOperation: '2025-06-02',
      rows: [{ itemId: honey.id, quantity: 1 }],
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'LotNumberRequired', errors: [{ path: 'rows.0.lotNumberID' }] });
    const other = await item(c);
    const wrongLot = await issue(c, {
      warehouseId: w.id,
      partnerId,
      rows: [{ itemId: other.id, lotNumberID: l1.id }],
    });
    expect(wrongLot.status).toBe(422);
    expect(wrongLot.body.code).toBe('ReferenceNotFound');
  });
});

describe('negative stock', () => {
  it('when allowed, issues the pieces beyond stock at cost 0 and settles them on the next receipt', async () => {
    const w = await warehouse(c, { allowNegativeStock: true });
    const it1 = await item(c);
    await receive(c, w.id, '2025-07-01', [[it1.id, 3, 4]]);
    const card = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-07-02',
        rows: [{ itemId: it1.id, quantity: 5 }],
      }),
      201,
    );
    expect(costs(card)).toEqual([
      [3, 4, 12],
      [2, 0, 0],
    ]);
    expect(await stockOf(c, w.id, it1.id)).toEqual([-2, 0]);
    const receipt = await receive(c, w.id, '2025-07-03', [[it1.id, 10, 5]]);
    expect(receipt.accountingEntries).toEqual([
      {
        debitAccount: '132',
        creditAccount: '131',
        amount: 50,
        description: `Receipt card ${receipt.recordNumber}`,
      },
      {
        debitAccount: '504',
        creditAccount: '132',
        amount: 10,
        description: `Negative stock settlement ${receipt.recordNumber}`,
      },
    ]);
    expect(await stockOf(c, w.id, it1.id)).toEqual([8, 40]);
    const next = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-07-04',
        rows: [{ itemId: it1.id, quantity: 8 }],
      }),
      201,
    );
    expect(costs(next)).toEqual([[8, 5, 40]]);
  });

  it('when not allowed, refuses with shortfalls, stores nothing and consumes no record number', async () => {
    const w = await warehouse(c);
    const it1 = await item(c);
    const ordner = ok(
      await c.post('/1.6/ordners', { code: 'VYN', name: 'Výdajky N', documentType: 'IssueCard' }),
      201,
    );
    await receive(c, w.id, '2025-08-01', [[it1.id, 3, 4]]);
    const r = await issue(c, {
      ordnerCode: undefined,
      ordnerId: ordner.id,
      warehouseId: w.id,
      partnerId,
      dateOperation: '2025-08-02',
      rows: [{ itemId: it1.id, quantity: 5 }],
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      code: 'OperationCanceledException',
      shortfalls: [{ itemId: it1.id, lotNumberID: null, requested: 5, available: 3, date: '2025-08-02' }],
    });
    expect(await stockOf(c, w.id, it1.id)).toEqual([3, 12]);
    const good = ok(
      await issue(c, {
        ordnerId: ordner.id,
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-08-02',
        rows: [{ itemId: it1.id, quantity: 3 }],
      }),
      201,
    );
    expect(good.recordNumber).toBe('VYN202500001');
  });
});

describe('back-dating', () => {
  it('refuses an issue dated before a later issue that would then go negative', async () => {
    const w = await warehouse(c);
    const it1 = await item(c);
    await receive(c, w.id, '2025-09-01', [[it1.id, 10, 1]]);
    ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-09-10',
        rows: [{ itemId: it1.id, quantity: 8 }],
      }),
      201,
    );
    const r = await issue(c, {
      warehouseId: w.id,
      partnerId,
      dateOperation: '2025-09-05',
      rows: [{ itemId: it1.id, quantity: 5 }],
    });
    expect(r.status).toBe(422);
    expect(r.body.shortfalls).toEqual([
      { itemId: it1.id, lotNumberID: null, requested: 5, available: 2, date: '2025-09-10' },
    ]);
    ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-09-05',
        rows: [{ itemId: it1.id, quantity: 2 }],
      }),
      201,
    );
    expect(await stockOf(c, w.id, it1.id)).toEqual([0, 0]);
  });

  it('values a back-dated FIFO issue on the layers as they stood on its date', async () => {
    const w = await warehouse(c);
    const it1 = await item(c);
    await receive(c, w.id, '2025-10-01', [[it1.id, 10, 1]]);
    await receive(c, w.id, '2025-10-03', [[it1.id, 10, 2]]);
    const later = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-10-05',
        rows: [{ itemId: it1.id, quantity: 10 }],
      }),
      201,
    );
    expect(costs(later)).toEqual([[10, 1, 10]]);
    // On 2 October only the first layer existed, untouched by the issue of 5 October.
    const back = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-10-02',
        rows: [{ itemId: it1.id, quantity: 5 }],
      }),
      201,
    );
    expect(costs(back)).toEqual([[5, 1, 5]]);
    expect(await stockOf(c, w.id, it1.id, '2025-10-02')).toEqual([5, 5]);
    expect((await stockOf(c, w.id, it1.id))[0]).toBe(5);
  });

  it('values a back-dated average issue at the average of its date', async () => {
    const w = await warehouse(c, { valuationMethod: 'WeightedAverage' });
    const it1 = await item(c);
    await receive(c, w.id, '2025-11-01', [[it1.id, 10, 1]]);
    await receive(c, w.id, '2025-11-10', [[it1.id, 10, 3]]);
    const back = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-11-05',
        rows: [{ itemId: it1.id, quantity: 4 }],
      }),
      201,
    );
    expect(costs(back)).toEqual([[4, 1, 4]]);
  });
});

describe('defaults, codes and record numbers', () => {
  it('fills code, name, unit and sellPrice from the item and quantity 1, and accepts the insert-only codes', async () => {
    const w = await warehouse(c, { code: 'WCODES' });
    const it1 = await item(c, { code: 'KAV-1', name: 'Káva', sellPrice: 8.9 });
    await receive(c, w.id, '2025-12-01', [[it1.id, 2, 4]]);
    const card = ok(
      await issue(c, {
        warehouseCode: 'WCODES',
        partnerId,
        dateOperation: '2025-12-02',
        reportCode: 'IssueCard',
        tags: ['eshop', 'b2c'],
        itemsComment: 'Ďakujeme',
        rows: [{ itemCode: 'KAV-1', unitCode: 'kg' }],
      }),
      201,
    );
    const units = ok(await c.get('/1.6/units')).items;
    expect(card.rows).toEqual([
      {
        id: expect.any(String),
        itemId: it1.id,
        code: 'KAV-1',
        name: 'Káva',
        unitId: units.find((u: any) => u.code === 'kg').id,
        lotNumberID: null,
        quantity: 1,
        sellPrice: 8.9,
        costPrice: 4,
        amount: 4,
      },
    ]);
    const reports = ok(await c.get('/1.6/reports')).items;
    expect(card.reportId).toBe(reports.find((r: any) => r.code === 'IssueCard').id);
    expect(card).toMatchObject({
      tags: ['eshop', 'b2c'],
      itemsComment: 'Ďakujeme',
      dateCreated: expect.any(String),
      dateAccounting: '2025-12-02',
    });
    expect(card.recordNumber).toMatch(/^VY2025\d{5}$/);
  });

  it('numbers by the ordner format, keeps a given number, refuses a duplicate and skips numbers used by hand', async () => {
    const w = await warehouse(c, { allowNegativeStock: true });
    const it1 = await item(c);
    const o = ok(
      await c.post('/1.6/ordners', {
        code: 'XN',
        name: 'Test',
        documentType: 'IssueCard',
        numberFormat: 'X-{yy}-{seq:3}',
      }),
      201,
    );
    const make = (extra: Record<string, unknown> = {}) =>
      issue(c, {
        ordnerCode: undefined,
        ordnerId: o.id,
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-12-10',
        rows: [{ itemId: it1.id }],
        ...extra,
      });
    expect(ok(await make(), 201).recordNumber).toBe('X-25-001');
    expect(ok(await make({ recordNumber: 'X-25-003' }), 201).recordNumber).toBe('X-25-003');
    const dup = await make({ recordNumber: 'X-25-001' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DuplicateRecordNumber');
    expect(ok(await make(), 201).recordNumber).toBe('X-25-002');
    expect(ok(await make(), 201).recordNumber).toBe('X-25-004');
    expect(ok(await make({ dateOperation: '2026-01-02' }), 201).recordNumber).toBe('X-26-001');
  });

  it('refuses unknown references and closed or missing periods', async () => {
    const w = await warehouse(c, { allowNegativeStock: true });
    const it1 = await item(c);
    const base = { warehouseId: w.id, partnerId, rows: [{ itemId: it1.id }] };
    const unknownPartner = await issue(c, { ...base, partnerId: crypto.randomUUID() });
    expect(unknownPartner.body).toMatchObject({ code: 'ReferenceNotFound', errors: [{ path: 'partnerId' }] });
    expect((await issue(c, { ...base, rows: [{ itemCode: 'NOPE' }] })).body.errors[0].path).toBe(
      'rows.0.itemCode',
    );
    expect((await issue(c, { ...base, ordnerCode: 'OF' })).body.code).toBe('ReferenceNotFound');
    const missing = await issue(c, { ...base, dateOperation: '2019-05-05' });
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('PeriodNotFound');
    const p2024 = await openYear(c, 2024);
    ok(await c.post(`/1.6/periods/${p2024}/close`), 200);
    const closed = await issue(c, { ...base, dateOperation: '2024-05-05' });
    expect(closed.body.code).toBe('PeriodClosed');
    expect((await issue(c, { ...base, rows: [{ itemId: it1.id, quantity: 0 }] })).status).toBe(400);
  });
});

describe('reading cards', () => {
  it('returns the accounting entries of an accounted warehouse and renders the card as XML', async () => {
    const w = await warehouse(c, { accounted: true, stockAccount: '112', expenseAccount: '501' });
    const it1 = await item(c, { name: 'Žltý kôň' });
    await receive(c, w.id, '2025-12-15', [[it1.id, 4, 2.5]]);
    const card = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-12-16',
        rows: [{ itemId: it1.id, quantity: 3 }],
      }),
      201,
    );
    const got = ok(await c.get(`/1.6/warehouses/issue-cards/${card.id}`));
    expect(got.accountingEntries).toEqual([
      {
        debitAccount: '501',
        creditAccount: '112',
        amount: 7.5,
        description: `Issue card ${card.recordNumber}`,
      },
    ]);
    expect(got).toEqual(card);
    const xml = await c.get(`/1.6/warehouses/issue-cards/${card.id}`, { Accept: 'application/xml' });
    const doc = new XMLParser({ parseTagValue: false }).parse(xml.text);
    expect(doc.IssueCard).toMatchObject({ recordNumber: card.recordNumber, totalCost: '7.5' });
    expect(doc.IssueCard.rows.row).toMatchObject({
      name: 'Žltý kôň',
      quantity: '3',
      costPrice: '2.5',
      amount: '7.5',
    });
    expect(doc.IssueCard.accountingEntries.accountingEntry).toMatchObject({
      debitAccount: '501',
      amount: '7.5',
    });
    const unaccounted = await warehouse(c, { accounted: false, allowNegativeStock: true });
    const plain = ok(
      await issue(c, {
        warehouseId: unaccounted.id,
        partnerId,
        dateOperation: '2025-12-16',
        rows: [{ itemId: it1.id }],
      }),
      201,
    );
    expect(plain.accountingEntries).toEqual([]);
    expect((await c.get(`/1.6/warehouses/issue-cards/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe('lists of issue and receipt cards (extension)', () => {
  it('pages newest first with totals, filters by date, warehouse and partner, and keeps companies apart', async () => {
    const own = await stack.company();
    await openYear(own, 2025);
    const p1 = (await partner(own)).id;
    const p2 = (await partner(own)).id;
    const w1 = await warehouse(own);
    const w2 = await warehouse(own, { valuationMethod: 'WeightedAverage' });
    const it1 = await item(own);
    await receive(own, w1.id, '2025-03-01', [[it1.id, 100, 2]]);
    await receive(own, w2.id, '2025-03-02', [[it1.id, 10, 3.5]]);
    const made: any[] = [];
    for (let d = 1; d <= 7; d++) {
      const body = {
        warehouseId: d % 2 ? w1.id : w2.id,
        partnerId: d <= 5 ? p1 : p2,
        dateOperation: `2025-04-0${d}`,
        rows: [{ itemId: it1.id, quantity: 1 }],
      };
      made.push(ok(await issue(own, body), 201));
    }
    const page1 = ok(await own.get('/1.6/warehouses/issue-cards?pageSize=3'));
    expect([page1.page, page1.pageSize, page1.totalCount]).toEqual([1, 3, 7]);
    expect(page1.items.map((i: any) => [i.recordNumber, i.dateOperation, i.totalCost])).toEqual([
      [made[6].recordNumber, '2025-04-07', 2],
      [made[5].recordNumber, '2025-04-06', 3.5],
      [made[4].recordNumber, '2025-04-05', 2],
    ]);
    expect(page1.items[0].rows).toBeUndefined();
    const page3 = ok(await own.get('/1.6/warehouses/issue-cards/3?pageSize=3'));
    expect(page3.items.map((i: any) => i.id)).toEqual([made[0].id]);
    expect(ok(await own.get('/1.6/warehouses/issue-cards/4?pageSize=3')).items).toEqual([]);

    const filtered = ok(
      await own.get(`/1.6/warehouses/issue-cards?warehouseId=${w1.id}&partnerId=${p1}&dateFrom=2025-04-02`),
    );
    expect(filtered.items.map((i: any) => i.dateOperation)).toEqual(['2025-04-05', '2025-04-03']);
    expect(ok(await own.get(`/1.6/warehouses/issue-cards/${made[2].id}`)).rows).toHaveLength(1);

    const receipts = ok(await own.get('/1.6/warehouses/receipt-cards/1'));
    expect(receipts.items.map((r: any) => [r.dateOperation, r.totalCost])).toEqual([
      ['2025-03-02', 35],
      ['2025-03-01', 200],
    ]);
    const xml = await own.get('/1.6/warehouses/receipt-cards', { Accept: 'application/xml' });
    expect(new XMLParser().parse(xml.text).ReceiptCards.totalCount).toBe(2);
    // Another company sees none of them.
    expect(ok(await c.get('/1.6/warehouses/issue-cards')).items.map((i: any) => i.id)).not.toContain(
      made[0].id,
    );
    expect((await own.get('/1.6/warehouses/issue-cards/0')).status).toBe(400);
  });
});
