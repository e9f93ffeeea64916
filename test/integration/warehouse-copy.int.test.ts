/**
 * Copy into an issue card (INTERFACE §4.1 copy; DESIGN §5 "Copy"): preview vs store, both path
 * spellings, merging, valuation as of dateOperation, posting the preview back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithPartner, costs, issue, item, ok, stockOf, warehouse } from '../support/fixtures.js';
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

describe('copy from a receipt card', () => {
  it('previews without storing, stores on POST, and the preview posts back unchanged', async () => {
    const w = await warehouse(c);
    const a = await item(c, { name: 'Čaj', sellPrice: 4.5 });
    const b = await item(c, { name: 'Med' });
    const receipt = ok(
      await c.post('/1.6/warehouses/receipt-cards', {
        ordnerCode: 'PR',
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-03-01',
        rows: [
          { itemId: a.id, quantity: 4, costPrice: 1.5 },
          { itemId: b.id, quantity: 2, costPrice: 7 },
          { itemId: a.id, quantity: 6, costPrice: 1.5 },
        ],
      }),
      201,
    );
    const preview = ok(
      await c.get(`/1.6/warehouse/issue-cards/copy?sourceId=${receipt.id}&dateOperation=2025-03-05`),
    );
    expect(preview.id).toBeUndefined();
    expect(preview.recordNumber).toBeNull();
    expect(preview.rows.every((r: any) => r.id === undefined)).toBe(true);
    expect(preview).toMatchObject({
      warehouseId: w.id,
      partnerId,
      dateOperation: '2025-03-05',
      sourceId: receipt.id,
      sourceType: 'ReceiptCard',
    });
    // The two rows of item a at 1.5 are merged into one.
    expect(preview.rows.map((r: any) => [r.itemId, r.quantity, r.costPrice, r.amount, r.sellPrice])).toEqual([
      [a.id, 10, 1.5, 15, 4.5],
      [b.id, 2, 7, 14, 10],
    ]);
    expect(preview.totalCost).toBe(29);
    expect(await stockOf(c, w.id, a.id)).toEqual([10, 15]);
    // Posting the preview to the create operation works unchanged.
    const posted = ok(await c.post('/1.6/warehouses/issue-cards', preview), 201);
    expect(costs(posted)).toEqual(costs(preview));
    expect(posted).toMatchObject({
      sourceId: receipt.id,
      sourceType: 'ReceiptCard',
      recordNumber: expect.stringMatching(/^VY2025/),
    });
    expect(await stockOf(c, w.id, a.id)).toEqual([0, 0]);
    // Nothing left: the store variant is refused with shortfalls and stores nothing.
    const refused = await c.post(
      `/1.6/warehouses/issue-cards/copy?sourceId=${receipt.id}&dateOperation=2025-03-06`,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('OperationCanceledException');
    expect(refused.body.shortfalls.map((s: any) => [s.itemId, s.requested, s.available])).toEqual([
      [a.id, 10, 0],
      [b.id, 2, 0],
    ]);
  });
});

describe('copy preview as XML', () => {
  it('posts back as XML unchanged: empty elements are nulls, the record number is generated', async () => {
    const w = await warehouse(c, { valuationMethod: 'WeightedAverage' });
    const a = await item(c, { name: 'Šťava' });
    const receipt = ok(
      await c.post('/1.6/warehouses/receipt-cards', {
        ordnerCode: 'PR',
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-05-01',
        rows: [{ itemId: a.id, quantity: 3, costPrice: 2.3333 }],
      }),
      201,
    );
    const xml = await c.get(
      `/1.6/warehouses/issue-cards/copy?sourceId=${receipt.id}&dateOperation=2025-05-02`,
      {
        Accept: 'application/xml',
      },
    );
    expect(xml.text).toContain('<recordNumber/>');
    const posted = ok(
      await c.post('/1.6/warehouses/issue-cards', unchecked(xml.text), { 'Content-Type': 'application/xml' }),
      201,
    );
    expect(posted.recordNumber).toMatch(/^VY2025\d{5}$/);
    expect(posted.partnerAddress).toBeNull();
    expect(costs(posted)).toEqual([[3, 2.3333, 7]]);
    expect(await stockOf(c, w.id, a.id)).toEqual([0, 0]);
  });
});

describe('copy from an issue card', () => {
  it('stores a new card valued by the current valuation as of dateOperation, under both spellings', async () => {
    const w = await warehouse(c);
    const a = await item(c);
    const r1 = await c.post('/1.6/warehouses/receipt-cards', {
      ordnerCode: 'PR',
      warehouseId: w.id,
      dateOperation: '2025-04-01',
      rows: [{ itemId: a.id, quantity: 3, costPrice: 2 }],
    });
    ok(r1, 201);
    ok(
      await c.post('/1.6/warehouses/receipt-cards', {
        ordnerCode: 'PR',
        warehouseId: w.id,
        dateOperation: '2025-04-10',
        rows: [{ itemId: a.id, quantity: 10, costPrice: 3 }],
      }),
      201,
    );
    const source = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-04-02',
        tags: ['x'],
        rows: [{ itemId: a.id, quantity: 2 }],
      }),
      201,
    );
    expect(costs(source)).toEqual([[2, 2, 4]]);
    // As of 5 April one piece at 2 is left; the copy of 2 pieces is short (negative stock not allowed).
    const early = await c.get(
      `/1.6/warehouses/issue-cards/copy?sourceId=${source.id}&dateOperation=2025-04-05`,
    );
    expect(early.status).toBe(422);
    expect(early.body.shortfalls[0]).toMatchObject({ requested: 2, available: 1, date: '2025-04-05' });
    // As of 11 April: one piece at 2 and one at 3 (FIFO splits the row again).
    const copy = ok(
      await c.post(`/1.6/warehouse/issue-cards/copy?sourceId=${source.id}&dateOperation=2025-04-11`),
      201,
    );
    expect(costs(copy)).toEqual([
      [1, 2, 2],
      [1, 3, 3],
    ]);
    expect(copy).toMatchObject({
      ordnerId: source.ordnerId,
      sourceId: source.id,
      sourceType: 'IssueCard',
      partnerId,
    });
    expect(copy.id).toEqual(expect.any(String));
    expect(copy.recordNumber).not.toBe(source.recordNumber);
    expect((await c.get(`/1.6/warehouses/issue-cards/${copy.id}`)).body.recordNumber).toBe(copy.recordNumber);
  });

  it('refuses an unknown or foreign source id as ReferenceNotFound, and a missing sourceId as 400', async () => {
    const r = await c.get(`/1.6/warehouses/issue-cards/copy?sourceId=${crypto.randomUUID()}`);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'ReferenceNotFound', errors: [{ path: 'sourceId' }] });
    const other = await stack.company();
    const w = await warehouse(c, { allowNegativeStock: true });
    const a = await item(c);
    const mine = ok(
      await issue(c, { warehouseId: w.id, partnerId, dateOperation: '2025-05-01', rows: [{ itemId: a.id }] }),
      201,
    );
    expect((await other.get(`/1.6/warehouses/issue-cards/copy?sourceId=${mine.id}`)).body.code).toBe(
      'ReferenceNotFound',
    );
    const missing = await c.get('/1.6/warehouses/issue-cards/copy');
    expect([missing.status, missing.body.errors]).toEqual([
      400,
      [{ path: 'query.sourceId', message: 'required' }],
    ]);
    const malformed = await c.get('/1.6/warehouses/issue-cards/copy?sourceId=abc');
    expect(malformed.body.errors).toEqual([{ path: 'query.sourceId', message: 'expected a GUID' }]);
  });
});
