/**
 * A record number given by the client (INTERFACE §7, DESIGN §5 "Record numbers"): one rule for every
 * numbered document (issue #24, service-kit `checkGivenRecordNumber`): kept when free, 409
 * DuplicateRecordNumber naming `recordNumber` when another document of the company uses it, another
 * company's numbers never count, and an update may keep its own number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issue, item, ok, openYear, partner, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;
let other: Client;

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company();
  other = await stack.company();
  for (const co of [c, other]) await openYear(co, 2026);
});
afterAll(() => stack?.stop());

const duplicate = (r: { status: number; body: any }) => {
  expect(r.status).toBe(409);
  expect(r.body.code).toBe('DuplicateRecordNumber');
  expect(r.body.errors).toEqual([{ path: 'recordNumber', message: 'already used' }]);
};

describe('a given record number', () => {
  it('is kept on every kind of document, and refused with 409 when the company used it', async () => {
    const wh = await warehouse(c);
    const it1 = await item(c);
    const p = await partner(c);
    const receipt = (recordNumber: string, co = c, w = wh.id, i = it1.id) =>
      co.post('/1.6/warehouses/receipt-cards', {
        ordnerCode: 'PR',
        warehouseId: w,
        dateOperation: '2026-11-02',
        recordNumber,
        rows: [{ itemId: i, quantity: 5, costPrice: 2 }],
      });
    expect(ok(await receipt('PR-GIVEN-1'), 201).recordNumber).toBe('PR-GIVEN-1');
    duplicate(await receipt('PR-GIVEN-1'));

    const card = (recordNumber: string) =>
      issue(c, {
        warehouseId: wh.id,
        partnerId: p.id,
        dateOperation: '2026-11-03',
        recordNumber,
        rows: [{ itemId: it1.id, quantity: 1 }],
      });
    expect(ok(await card('VY-GIVEN-1'), 201).recordNumber).toBe('VY-GIVEN-1');
    duplicate(await card('VY-GIVEN-1'));

    const purchase = (recordNumber: string, co = c, partnerId = p.id) =>
      co.post('/1.6/purchase/invoices', {
        partnerId,
        dateCreated: '2026-11-04',
        recordNumber,
        rows: [{ name: 'Služba', itemsAmount: 1, price: 10 }],
      });
    expect(ok(await purchase('DF-GIVEN-1'), 201).recordNumber).toBe('DF-GIVEN-1');
    duplicate(await purchase('DF-GIVEN-1'));

    const sale = (recordNumber: string) =>
      c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: wh.id,
        partnerId: p.id,
        dateCreated: '2026-11-05',
        recordNumber,
        rows: [{ name: 'Služba', quantity: 1, price: 10, vatRate: 23 }],
      });
    const inv = ok(await sale('OF-GIVEN-1'), 201);
    expect(inv.recordNumber).toBe('OF-GIVEN-1');
    expect([inv.sumBase, inv.sumVat, inv.sumTotal]).toEqual([10, 2.3, 12.3]);
    duplicate(await sale('OF-GIVEN-1'));
    // An update may keep its own number.
    const { id, ...rest } = ok(await c.get(`/1.6/sales/invoices/${inv.id}`));
    const kept = await c.put(`/1.6/sales/invoices/${inv.id}`, {
      dateCreated: rest.dateCreated,
      ordnerId: rest.ordnerId,
      warehouseId: wh.id,
      partnerId: p.id,
      recordNumber: 'OF-GIVEN-1',
      rows: [{ name: 'Služba', quantity: 2, price: 10, vatRate: 23 }],
    } as any);
    expect(kept.status).toBe(200);
    expect([kept.body.recordNumber, kept.body.sumTotal]).toEqual(['OF-GIVEN-1', 24.6]);

    // Another company's numbers never count.
    const ow = await warehouse(other);
    const oi = await item(other);
    const op = await partner(other);
    expect(ok(await receipt('PR-GIVEN-1', other, ow.id, oi.id), 201).recordNumber).toBe('PR-GIVEN-1');
    expect(ok(await purchase('DF-GIVEN-1', other, op.id), 201).recordNumber).toBe('DF-GIVEN-1');
    expect(id).toBe(inv.id);
  });
});
