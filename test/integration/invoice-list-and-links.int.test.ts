/**
 * The sales-invoice list view (INTERFACE §4.3; DESIGN §6) and the link between a sales invoice and the
 * issue card copied from it (DESIGN §5 last rule: `warehouseRecordNo` through the stock-issued event).
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, item, ok, openYear, receive, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;

beforeAll(async () => {
  stack = await startStack({ requestTimeoutMs: 30_000 });
  c = await stack.company();
  await openYear(c, 2025);
});
afterAll(() => stack?.stop());

describe('list view', () => {
  it('pages 120 invoices as 50/50/20, newest first, with totals, balances and states', async () => {
    const w = await warehouse(c);
    const partner = ok(await c.post('/1.6/partners', { code: 'LIST', name: 'Zoznamový odberateľ' }), 201);
    const created: any[] = [];
    for (let i = 0; i < 120; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const month = String(1 + Math.floor(i / 28)).padStart(2, '0');
      created.push(
        ok(
          await c.post('/1.6/sales/invoices', {
            ordnerCode: 'OF',
            warehouseId: w.id,
            partnerId: partner.id,
            dateCreated: `2025-${month}-${day}`,
            rows: [{ name: `Položka ${i}`, quantity: 1, price: 10 + i }],
          }),
          201,
        ),
      );
    }
    // States: pay 10 fully, 5 partly, cancel 5.
    for (const inv of created.slice(0, 10))
      ok(
        await c.post(`/1.6/sales/invoices/${inv.id}/payments`, { amount: inv.sumTotal, date: '2025-06-01' }),
        201,
      );
    for (const inv of created.slice(10, 15))
      ok(await c.post(`/1.6/sales/invoices/${inv.id}/payments`, { amount: 5, date: '2025-06-01' }), 201);
    for (const inv of created.slice(15, 20)) ok(await c.post(`/1.6/sales/invoices/${inv.id}/cancel`));

    const pages = [
      ok(await c.get('/1.6/sales/invoices')),
      ok(await c.get('/1.6/sales/invoices/2')),
      ok(await c.get('/1.6/sales/invoices/3')),
    ];
    expect(pages.map((p) => [p.page, p.pageSize, p.totalCount, p.items.length])).toEqual([
      [1, 50, 120, 50],
      [2, 50, 120, 50],
      [3, 50, 120, 20],
    ]);
    expect(ok(await c.get('/1.6/sales/invoices/4')).items).toEqual([]);
    const all = pages.flatMap((p) => p.items);
    expect(new Set(all.map((x: any) => x.id)).size).toBe(120);
    const order = all.map((x: any) => `${x.dateCreated}|${x.recordNumber}`);
    expect(order).toEqual([...order].sort().reverse());
    const byId = new Map(all.map((x: any) => [x.id, x]));
    const first = byId.get(created[0].id);
    expect(first).toMatchObject({
      state: 'paid',
      balance: 0,
      sumBase: 10,
      sumVat: 2.3,
      sumTotal: 12.3,
      partnerName: 'Zoznamový odberateľ',
      ordnerCode: 'OF',
    });
    expect(byId.get(created[12].id)).toMatchObject({
      state: 'partiallyPaid',
      sumTotal: 27.06,
      balance: 22.06,
    });
    expect(byId.get(created[17].id)).toMatchObject({ state: 'cancelled', balance: 0 });
    expect(byId.get(created[119].id)).toMatchObject({ state: 'issued', sumTotal: 158.67, balance: 158.67 });
    const counts: Record<string, number> = {};
    for (const x of all) counts[x.state] = (counts[x.state] ?? 0) + 1;
    expect(counts).toEqual({ paid: 10, partiallyPaid: 5, cancelled: 5, issued: 100 });
    // Filters (extensions).
    expect(ok(await c.get('/1.6/sales/invoices?state=paid')).totalCount).toBe(10);
    expect(ok(await c.get('/1.6/sales/invoices?dateFrom=2025-05-01&pageSize=500')).totalCount).toBe(8);
    // A GUID segment is one invoice; anything else is 400.
    expect(ok(await c.get(`/1.6/sales/invoices/${created[3].id}`)).recordNumber).toBe(
      created[3].recordNumber,
    );
    expect((await c.get('/1.6/sales/invoices/abc')).status).toBe(400);
    expect((await c.get('/1.6/sales/invoices/0')).status).toBe(400);
  });
});

describe('sales invoice → issue card', () => {
  it('fills warehouseRecordNo from the copied issue card; a replayed event changes nothing', async () => {
    const w = await warehouse(c);
    const coffee = await item(c, { code: 'KAVA-E2E', name: 'Káva', sellPrice: 8.9 });
    const service = await item(c, { code: 'SERV-E2E', name: 'Servis', kind: 'service' });
    await receive(c, w.id, '2025-03-01', [[coffee.id, 10, 4.2]]);
    const partner = ok(await c.post('/1.6/partners', { code: 'E2E', name: 'Odberateľ E2E' }), 201);
    const inv = ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: w.id,
        partnerId: partner.id,
        dateCreated: '2025-03-05',
        rows: [
          { itemId: coffee.id, quantity: 3, price: 8.9 },
          { itemId: service.id, quantity: 1, price: 35 },
          { name: 'Doprava', quantity: 1, price: 5 },
        ],
      }),
      201,
    );
    expect(inv.warehouseRecordNo).toBeNull();
    const preview = ok(
      await c.get(`/1.6/warehouses/issue-cards/copy?sourceId=${inv.id}&dateOperation=2025-03-06`),
    );
    expect(preview.rows.map((r: any) => [r.itemId, r.quantity, r.costPrice, r.sellPrice])).toEqual([
      [coffee.id, 3, 4.2, 8.9],
    ]);
    const card = ok(
      await c.post(`/1.6/warehouses/issue-cards/copy?sourceId=${inv.id}&dateOperation=2025-03-06`),
      201,
    );
    expect(card).toMatchObject({
      sourceId: inv.id,
      sourceType: 'SalesInvoice',
      partnerId: partner.id,
      totalCost: 12.6,
    });
    const linked = await eventually(
      async () => ok(await c.get(`/1.6/sales/invoices/${inv.id}`)),
      (x) => !!x.warehouseRecordNo,
    );
    expect(linked.warehouseRecordNo).toBe(card.recordNumber);

    // Replay: the same event again (a new message id, so JetStream does not drop it as a duplicate).
    ok(await c.put(`/1.6/sales/invoices/${inv.id}`, { ...linked, warehouseRecordNo: 'RUČNE-1' }));
    const nc = await stack.natsConnect();
    const js = jetstream(nc);
    const stream = await jetstreamManager(nc);
    const last = await stream.streams.getMessage('EVENTS', { last_by_subj: 'events.warehouse.stock-issued' });
    const event = last!.json<any>();
    expect(event.issueCardId).toBe(card.id);
    const ack = await js.publish('events.warehouse.stock-issued', JSON.stringify(event), {
      msgID: crypto.randomUUID(),
    });
    expect(ack.duplicate).toBe(false);
    // Wait until invoicing's durable consumer has taken and acked the replay, so the check below is not vacuous.
    let info = await stream.consumers.info('EVENTS', 'invoicing-stock-issued');
    for (let i = 0; i < 100 && (info.delivered.stream_seq < ack.seq || info.num_ack_pending > 0); i++) {
      await new Promise((r) => setTimeout(r, 100));
      info = await stream.consumers.info('EVENTS', 'invoicing-stock-issued');
    }
    expect(info.delivered.stream_seq).toBeGreaterThanOrEqual(ack.seq);
    expect(info.num_ack_pending).toBe(0);
    await nc.close();
    expect(ok(await c.get(`/1.6/sales/invoices/${inv.id}`)).warehouseRecordNo).toBe('RUČNE-1');
  });
});
