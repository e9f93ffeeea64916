/**
 * Repost of back-dated documents through HTTP, with the hand cases of issue #10 (DESIGN §5 "Repost",
 * "Custom"): after every document the ledger is what a replay in ledger order gives.
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
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
import { uncheckedPath } from '../support/typed-paths.js';

let stack: Stack;
let c: Client;
let partnerId: string;

beforeAll(async () => {
  stack = await startStack();
  ({ c, partnerId } = await companyWithPartner(stack));
});
afterAll(() => stack?.stop());

const card = async (id: string) => ok(await c.get(`/1.6/warehouses/issue-cards/${id}`));
const issueOf = async (warehouseId: string, itemId: string, date: string, quantity: number) =>
  ok(await issue(c, { warehouseId, partnerId, dateOperation: date, rows: [{ itemId, quantity }] }), 201);

describe('repost of back-dated documents', () => {
  it('FIFO: a back-dated issue takes the old layer and revalues the later issue (case 1)', async () => {
    const w = await warehouse(c);
    const i = await item(c);
    await receive(c, w.id, '2025-03-01', [[i.id, 10, 10]]);
    await receive(c, w.id, '2025-03-10', [[i.id, 10, 20]]);
    const later = await issueOf(w.id, i.id, '2025-03-15', 10);
    expect(costs(later)).toEqual([[10, 10, 100]]);
    const early = await issueOf(w.id, i.id, '2025-03-05', 10);
    expect(costs(early)).toEqual([[10, 10, 100]]);
    const revalued = await card(later.id);
    expect(costs(revalued)).toEqual([[10, 20, 200]]);
    expect(revalued.totalCost).toBe(200);
    expect(revalued.rows[0].id).not.toBe(later.rows[0].id); // its cost changed: a new row
    expect(revalued.accountingEntries).toEqual([
      {
        debitAccount: '504',
        creditAccount: '132',
        amount: 200,
        description: `Issue card ${later.recordNumber}`,
      },
    ]);
    expect(await stockOf(c, w.id, i.id)).toEqual([0, 0]);
    expect(await stockOf(c, w.id, i.id, '2025-03-12')).toEqual([10, 200]);
    // The follow-up of case 1: a receipt 10 @ 5 on 03-14, then an issue of 5 dated 03-12 takes the
    // 03-10 layer at 20, and the 03-15 issue is revalued to 5 @ 20 + 5 @ 5.
    await receive(c, w.id, '2025-03-14', [[i.id, 10, 5]]);
    const mid = await issueOf(w.id, i.id, '2025-03-12', 5);
    expect(costs(mid)).toEqual([[5, 20, 100]]);
    expect(costs(await card(later.id))).toEqual([
      [5, 20, 100],
      [5, 5, 25],
    ]);
    expect(await stockOf(c, w.id, i.id)).toEqual([5, 25]);
    // And one more piece than there is, back-dated, is refused with the lowest later balance as available.
    const short = await issue(c, {
      warehouseId: w.id,
      partnerId,
      dateOperation: '2025-03-12',
      rows: [{ itemId: i.id, quantity: 6 }],
    });
    expect(short.status).toBe(422);
    expect(short.body.code).toBe('OperationCanceledException');
    expect(short.body.shortfalls).toEqual([
      { itemId: i.id, lotNumberID: null, requested: 6, available: 5, date: '2025-03-12' },
    ]);
    expect(await stockOf(c, w.id, i.id)).toEqual([5, 25]);
  });

  it('WeightedAverage: the moving-average twin ends at 0 / 0 (case 2)', async () => {
    const w = await warehouse(c, { valuationMethod: 'WeightedAverage' });
    const i = await item(c);
    await receive(c, w.id, '2025-03-01', [[i.id, 10, 10]]);
    await receive(c, w.id, '2025-03-10', [[i.id, 10, 20]]);
    const later = await issueOf(w.id, i.id, '2025-03-15', 10);
    expect(costs(later)).toEqual([[10, 15, 150]]);
    const early = await issueOf(w.id, i.id, '2025-03-05', 10);
    expect(costs(early)).toEqual([[10, 10, 100]]);
    expect(costs(await card(later.id))).toEqual([[10, 20, 200]]);
    expect(await stockOf(c, w.id, i.id)).toEqual([0, 0]);
    // The next receipt's average is not inflated.
    await receive(c, w.id, '2025-03-20', [[i.id, 4, 7]]);
    expect(costs(await issueOf(w.id, i.id, '2025-03-21', 1))).toEqual([[1, 7, 7]]);
  });

  it('a back-dated receipt revalues the later issues, split per cost price anew, with one event each', async () => {
    const w = await warehouse(c);
    const i = await item(c);
    await receive(c, w.id, '2025-04-01', [[i.id, 10, 3]]);
    const a = await issueOf(w.id, i.id, '2025-04-10', 4);
    const b = await issueOf(w.id, i.id, '2025-04-12', 4);
    expect([costs(a), costs(b)]).toEqual([[[4, 3, 12]], [[4, 3, 12]]]);
    const r = await receive(c, w.id, '2025-03-25', [[i.id, 5, 1]]);
    const a2 = await card(a.id);
    const b2 = await card(b.id);
    expect(costs(a2)).toEqual([[4, 1, 4]]);
    expect(costs(b2)).toEqual([
      [1, 1, 1],
      [3, 3, 9],
    ]);
    expect([a2.totalCost, b2.totalCost]).toEqual([4, 10]);
    expect(b2.rows[1].id).toBe(b.rows[0].id); // the row whose cost price stayed 3 keeps its id
    expect(await stockOf(c, w.id, i.id)).toEqual([7, 21]);
    expect(await stockOf(c, w.id, i.id, '2025-04-10')).toEqual([11, 31]);

    const events = await revaluedEvents([a.id, b.id]);
    expect(events.map((e) => [e.issueCardId, e.totalCostBefore, e.totalCostAfter, e.causedBy])).toEqual([
      [a.id, '12', '4', r.id],
      [b.id, '12', '10', r.id],
    ]);
    expect(events[1].rows).toEqual([
      { itemId: i.id, lotNumberID: null, quantity: '1', costPrice: '1', amount: '1' },
      { itemId: i.id, lotNumberID: null, quantity: '3', costPrice: '3', amount: '9' },
    ]);
  });

  it('a back-dated receipt removes the negative-stock settlement of a later receipt and revalues the cost-0 issue', async () => {
    const w = await warehouse(c, { allowNegativeStock: true });
    const i = await item(c);
    const out = await issueOf(w.id, i.id, '2025-04-10', 5);
    expect(costs(out)).toEqual([[5, 0, 0]]);
    const settling = await receive(c, w.id, '2025-04-12', [[i.id, 5, 10]]);
    const entries = (r: any) =>
      r.accountingEntries.map((e: any) => [e.debitAccount, e.creditAccount, e.amount]);
    expect(entries(settling)).toEqual([
      ['132', '131', 50],
      ['504', '132', 50],
    ]);
    await receive(c, w.id, '2025-04-05', [[i.id, 5, 8]]);
    const revalued = await card(out.id);
    expect([costs(revalued), entries(revalued)]).toEqual([[[5, 8, 40]], [['504', '132', 40]]]);
    // The 04-12 receipt no longer covers missing pieces: its settlement entry is gone, its stock stays.
    expect(entries(ok(await c.get(`/1.6/warehouses/receipt-cards/${settling.id}`)))).toEqual([
      ['132', '131', 50],
    ]);
    expect(await stockOf(c, w.id, i.id)).toEqual([5, 50]);
  });

  it('Custom: a receipt into negative stock settles nothing; the pieces are expensed once (case 4)', async () => {
    const w = await warehouse(c, { valuationMethod: 'Custom', allowNegativeStock: true });
    const i = await item(c);
    const out = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-05-01',
        rows: [{ itemId: i.id, quantity: 5, costPrice: 10 }],
      }),
      201,
    );
    expect(out.accountingEntries.map((e: any) => [e.debitAccount, e.creditAccount, e.amount])).toEqual([
      ['504', '132', 50],
    ]);
    const r = await receive(c, w.id, '2025-05-02', [[i.id, 5, 10]]);
    expect(r.accountingEntries.map((e: any) => [e.debitAccount, e.creditAccount, e.amount])).toEqual([
      ['132', '131', 50],
    ]);
    expect(await stockOf(c, w.id, i.id)).toEqual([0, 0]);
  });

  it('refuses a back-dated document that would revalue a card in a closed period, naming it', async () => {
    const other = await stack.company();
    await openYear(other, 2024);
    const p2025 = await openYear(other, 2025);
    const p = ok(await other.post('/1.6/partners', { code: 'P1', name: 'Odberateľ' }), 201);
    const w = await warehouse(other);
    const i = await item(other);
    await receive(other, w.id, '2024-12-01', [[i.id, 10, 10]]);
    const later = ok(
      await other.post('/1.6/warehouses/issue-cards', {
        ordnerCode: 'VY',
        warehouseId: w.id,
        partnerId: p.id,
        dateOperation: '2025-01-05',
        rows: [{ itemId: i.id, quantity: 5 }],
      }),
      201,
    );
    ok(await other.post(`/1.6/periods/${p2025}/close`));
    const refused = await other.post('/1.6/warehouses/receipt-cards', {
      ordnerCode: 'PR',
      warehouseId: w.id,
      dateOperation: '2024-11-01',
      rows: [{ itemId: i.id, quantity: 5, costPrice: 2 }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('PeriodClosed');
    expect(refused.body.detail).toContain(later.recordNumber);
    expect(costs(ok(await other.get(`/1.6/warehouses/issue-cards/${later.id}`)))).toEqual([[5, 10, 50]]);
    expect(await stockOf(other, w.id, i.id)).toEqual([5, 50]);
    expect(ok(await other.get('/1.6/warehouses/receipt-cards')).totalCount).toBe(1);
  });
});

describe('the smaller rules of issue #10', () => {
  it('copying an invoice with only credit rows is 422 naming sourceId and takes no number (case 3); a cancelled one is 409', async () => {
    const w = await warehouse(c);
    const i = await item(c);
    await receive(c, w.id, '2025-07-01', [[i.id, 10, 2]]);
    const credit = ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: w.id,
        partnerId,
        dateCreated: '2025-07-02',
        rows: [{ itemId: i.id, quantity: -2, price: 5 }],
      }),
      201,
    );
    const before = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-07-03',
        rows: [{ itemId: i.id, quantity: 1 }],
      }),
      201,
    );
    for (const path of ['/1.6/warehouses/issue-cards/copy', '/1.6/warehouse/issue-cards/copy']) {
      // The second path is the singular alias the gateway also answers (not in the document).
      const r = await c.post(uncheckedPath(`${path}?sourceId=${credit.id}&dateOperation=2025-07-03`));
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ code: 'ValidationFailed', errors: [{ path: 'sourceId' }] });
      expect(
        (await c.get(uncheckedPath(`${path}?sourceId=${credit.id}&dateOperation=2025-07-03`))).status,
      ).toBe(422);
    }
    const after = ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-07-03',
        rows: [{ itemId: i.id, quantity: 1 }],
      }),
      201,
    );
    const seq = (n: string) => Number(n.slice(-5));
    expect(seq(after.recordNumber)).toBe(seq(before.recordNumber) + 1);

    const sale = ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: w.id,
        partnerId,
        dateCreated: '2025-07-02',
        rows: [{ itemId: i.id, quantity: 1, price: 5 }],
      }),
      201,
    );
    ok(await c.post(`/1.6/sales/invoices/${sale.id}/cancel`));
    const cancelled = await c.post(
      `/1.6/warehouses/issue-cards/copy?sourceId=${sale.id}&dateOperation=2025-07-03`,
    );
    expect(cancelled.status).toBe(409);
    expect(cancelled.body).toMatchObject({ code: 'InvalidState', errors: [{ path: 'sourceId' }] });
    expect(await stockOf(c, w.id, i.id)).toEqual([8, 16]);
  });

  it('valuationMethod is fixed once the warehouse has a movement, and kept when a PUT omits it (case 5)', async () => {
    const w = await warehouse(c, { valuationMethod: 'WeightedAverage' });
    const { id, ...body } = w;
    // No movement yet: it may change, and a PUT without it keeps the stored one.
    expect(
      ok(await c.put(`/1.6/warehouses/${id}`, { ...body, valuationMethod: 'Custom' })).valuationMethod,
    ).toBe('Custom');
    const { valuationMethod: _, ...withoutMethod } = body;
    expect(ok(await c.put(`/1.6/warehouses/${id}`, withoutMethod)).valuationMethod).toBe('Custom');
    ok(await c.put(`/1.6/warehouses/${id}`, { ...body, valuationMethod: 'WeightedAverage' }));
    const i = await item(c);
    await receive(c, id, '2025-07-01', [[i.id, 1, 1]]);
    const refused = await c.put(`/1.6/warehouses/${id}`, { ...body, valuationMethod: 'FIFO' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'InvalidState', errors: [{ path: 'valuationMethod' }] });
    const renamed = ok(await c.put(`/1.6/warehouses/${id}`, { ...withoutMethod, name: 'Hlavný sklad' }));
    expect([renamed.name, renamed.valuationMethod]).toEqual(['Hlavný sklad', 'WeightedAverage']);
  });

  it('a given periodId must contain dateAccounting, and dateOperation must not lie in a closed period', async () => {
    const other = await stack.company();
    const p2024 = await openYear(other, 2024);
    await openYear(other, 2025);
    const p2026 = ok(await other.get('/1.6/periods?pageSize=500')).items.find(
      (p: any) => p.code === '2026',
    ).id;
    const p = ok(await other.post('/1.6/partners', { code: 'P1', name: 'Odberateľ' }), 201);
    const w = await warehouse(other);
    const i = await item(other);
    await receive(other, w.id, '2024-12-01', [[i.id, 10, 1]]);
    const body = {
      ordnerCode: 'VY',
      warehouseId: w.id,
      partnerId: p.id,
      rows: [{ itemId: i.id, quantity: 1 }],
    };
    const wrong = await other.post('/1.6/warehouses/issue-cards', {
      ...body,
      dateOperation: '2025-03-01',
      periodId: p2026,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'ValidationFailed', errors: [{ path: 'periodId' }] });
    const wrongReceipt = await other.post('/1.6/warehouses/receipt-cards', {
      ordnerCode: 'PR',
      warehouseId: w.id,
      dateOperation: '2025-03-01',
      periodId: p2026,
      rows: [{ itemId: i.id, quantity: 1, costPrice: 1 }],
    });
    expect(wrongReceipt.body).toMatchObject({ code: 'ValidationFailed', errors: [{ path: 'periodId' }] });
    const wrongInvoice = await other.post('/1.6/sales/invoices', {
      ordnerCode: 'OF',
      warehouseId: w.id,
      partnerId: p.id,
      dateCreated: '2025-03-01',
      periodId: p2026,
      rows: [{ name: 'Služba', quantity: 1, price: 10 }],
    });
    expect(wrongInvoice.status).toBe(422);
    expect(wrongInvoice.body).toMatchObject({ code: 'ValidationFailed', errors: [{ path: 'periodId' }] });
    ok(await other.post(`/1.6/periods/${p2024}/close`));
    const inClosed = await other.post('/1.6/warehouses/issue-cards', {
      ...body,
      dateOperation: '2024-12-30',
      dateAccounting: '2025-01-02',
    });
    expect(inClosed.status).toBe(422);
    expect(inClosed.body).toMatchObject({ code: 'PeriodClosed', errors: [{ path: 'dateOperation' }] });
    expect(ok(await other.get('/1.6/warehouses/issue-cards')).totalCount).toBe(0);
    expect(await stockOf(other, w.id, i.id)).toEqual([10, 10]);
  });

  it('the default issue-card ordner is an explicit flag: a new ordner with a lower code diverts nothing', async () => {
    const other = await stack.company();
    await openYear(other, 2025);
    const p = ok(await other.post('/1.6/partners', { code: 'P1', name: 'Odberateľ' }), 201);
    const w = await warehouse(other);
    const i = await item(other);
    ok(
      await other.post('/1.6/warehouses/receipt-cards', {
        ordnerCode: 'PR',
        warehouseId: w.id,
        partnerId: p.id,
        dateOperation: '2025-09-01',
        rows: [{ itemId: i.id, quantity: 10, costPrice: 1 }],
      }),
      201,
    );
    // Enough for the copies below (each copy issues the receipt's 10 pieces).
    ok(
      await other.post('/1.6/warehouses/receipt-cards', {
        ordnerCode: 'PR',
        warehouseId: w.id,
        dateOperation: '2025-09-01',
        rows: [{ itemId: i.id, quantity: 20, costPrice: 1 }],
      }),
      201,
    );
    const ordners = async () => ok(await other.get('/1.6/ordners?pageSize=500')).items;
    const vy = (await ordners()).find((o: any) => o.code === 'VY');
    expect(vy.isDefault).toBe(true);
    const fo = ok(
      await other.post('/1.6/ordners', {
        code: 'FO',
        name: 'Iné výdajky',
        documentType: 'IssueCard',
        isDefault: true,
      }),
      201,
    );
    expect(fo.isDefault).toBe(false); // creating never changes the default
    // A copy of a receipt card goes to the default issue-card ordner (DESIGN §5 "Copy").
    const receipt = ok(await other.get('/1.6/warehouses/receipt-cards')).items.find((r: any) => r.partnerId);
    const card = () =>
      other.post(`/1.6/warehouses/issue-cards/copy?sourceId=${receipt.id}&dateOperation=2025-09-02`);
    expect(ok(await card(), 201).ordnerId).toBe(vy.id);
    // Only a PUT moves the default, and the old default is cleared with it.
    const { id: foId, ...foBody } = fo;
    expect(ok(await other.put(`/1.6/ordners/${foId}`, { ...foBody, isDefault: true })).isDefault).toBe(true);
    expect(ok(await card(), 201).ordnerId).toBe(fo.id);
    expect(
      (await ordners())
        .filter((o: any) => o.documentType === 'IssueCard' && o.isDefault)
        .map((o: any) => o.code),
    ).toEqual(['FO']);
    const dropped = await other.put(`/1.6/ordners/${foId}`, { ...foBody, isDefault: false });
    expect(dropped.status).toBe(409);
    expect(dropped.body).toMatchObject({ code: 'InvalidState', errors: [{ path: 'isDefault' }] });
  });

  it('a period closed while 100 cards dated in it are stored: each card committed before the close or was refused', async () => {
    const other = await stack.company();
    const p2024 = await openYear(other, 2024);
    const p = ok(await other.post('/1.6/partners', { code: 'P1', name: 'Odberateľ' }), 201);
    const w = await warehouse(other);
    // Cards of different items do not wait for each other's balance rows.
    const its = await Promise.all(Array.from({ length: 10 }, () => item(other)));
    await receive(
      other,
      w.id,
      '2024-01-02',
      its.map((x) => [x.id, 100, 1] as [string, number, number]),
    );
    const stored = async () => ok(await other.get('/1.6/warehouses/issue-cards')).totalCount;
    const card = (n: number) =>
      other.post('/1.6/warehouses/issue-cards', {
        ordnerCode: 'VY',
        warehouseId: w.id,
        partnerId: p.id,
        dateOperation: '2024-06-01',
        rows: [{ itemId: its[n % 10].id, quantity: 1 }],
      });
    // The cards arrive one every 2 ms; the close is sent after the 40th, while the others keep coming.
    const cards: ReturnType<typeof card>[] = [];
    let close: Promise<unknown> | undefined;
    for (let n = 0; n < 100; n++) {
      cards.push(card(n));
      if (n === 40) close = other.post(`/1.6/periods/${p2024}/close`).then((r) => ok(r));
      await new Promise((r) => setTimeout(r, 2));
    }
    await close;
    const atClose = await stored();
    const replies = await Promise.all(cards);
    const statuses = replies.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.body.code}`));
    expect(statuses.filter((x) => x !== 201 && x !== '422 PeriodClosed')).toEqual([]);
    const accepted = statuses.filter((x) => x === 201).length;
    // Nothing committed into the period after its close completed: what was stored then is all there is.
    expect(await stored()).toBe(atClose);
    expect(accepted).toBe(atClose);
    expect(accepted).toBeGreaterThan(0);
    const left = await Promise.all(its.map((x) => stockOf(other, w.id, x.id)));
    expect(left.reduce((a, [q]) => a + q, 0)).toBe(1000 - accepted);
    console.log(`period close under load: ${accepted} cards before the close, ${100 - accepted} refused`);
  });

  it('a sub-cent FIFO layer taken piece by piece never goes below zero', async () => {
    const w = await warehouse(c, { allowNegativeStock: true });
    const i = await item(c);
    expect(costs(await issueOf(w.id, i.id, '2025-10-01', 1))).toEqual([[1, 0, 0]]); // beyond stock
    // 4 @ 0.005 = 0.02; one piece settles the negative balance (0.01), the layer keeps 3 pieces worth 0.01.
    const r = await receive(c, w.id, '2025-10-02', [[i.id, 4, '0.005']]);
    expect(r.accountingEntries.map((e: any) => [e.debitAccount, e.creditAccount, e.amount])).toEqual([
      ['132', '131', 0.02],
      ['504', '132', 0.01],
    ]);
    const taken = [];
    for (const day of ['03', '04', '05']) taken.push(costs(await issueOf(w.id, i.id, `2025-10-${day}`, 1)));
    // round2(0.005) = 0.01 would take more than the layer holds on the second piece: it takes what is left.
    expect(taken).toEqual([[[1, 0.005, 0.01]], [[1, 0.005, 0]], [[1, 0.005, 0]]]);
    expect(await stockOf(c, w.id, i.id)).toEqual([0, 0]);
  });

  it('cards with rows in opposite orders never deadlock, also when their balance rows do not exist yet', async () => {
    // Negative stock allowed and no receipt: the concurrent cards insert the missing balance rows.
    const w = await warehouse(c, { allowNegativeStock: true });
    const [a, b] = [await item(c), await item(c)];
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        issue(c, {
          warehouseId: w.id,
          partnerId,
          dateOperation: '2025-08-02',
          rows: (n % 2 ? [a, b] : [b, a]).map((x) => ({ itemId: x.id, quantity: 1 })),
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(40).fill(201));
    expect([await stockOf(c, w.id, a.id), await stockOf(c, w.id, b.id)]).toEqual([
      [-40, 0],
      [-40, 0],
    ]);
  });
});

/** The `stock-revalued` events of the given cards, from a durable consumer, in publish order. */
async function revaluedEvents(cardIds: string[]): Promise<any[]> {
  const nc = await stack.natsConnect();
  try {
    const jsm = await jetstreamManager(nc);
    const name = `test-revalued-${crypto.randomUUID().slice(0, 8)}`;
    await jsm.consumers.add('EVENTS', {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: 'events.warehouse.stock-revalued',
    });
    const consumer = await jetstream(nc).consumers.get('EVENTS', name);
    const out: any[] = [];
    for (let tries = 0; tries < 10 && out.length < cardIds.length; tries++) {
      const batch = await consumer.fetch({ max_messages: 100, expires: 1000 });
      for await (const m of batch) {
        const e = m.json<any>();
        if (cardIds.includes(e.issueCardId)) out.push(e);
        m.ack();
      }
    }
    await jsm.consumers.delete('EVENTS', name);
    return out;
  } finally {
    await nc.close();
  }
}
