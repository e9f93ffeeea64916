/**
 * Payments from the bank through HTTP (issue #45): sales and purchase invoices with variable symbols, a
 * camt.053 statement paying them (exact, partial, over, without a symbol by the counterparty's IBAN, a
 * reversal, a fee, a refund of a credit note), the balances and payment statuses read back, the same file
 * again changing nothing, an overlapping statement storing each entry once, pairing by hand, and a
 * payment order for two due purchase invoices as pain.001.001.03. Every file the tests import or get is
 * dumped for the official schema check (`.ci/run`, ISO20022_DUMP_DIR).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camt053, dumpIso, type TestEntry } from '../support/camt.js';
import { ok, openYear, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

let stack: Stack;
let c: Client;
let wh: string;
let account: any;
const OWN = 'SK3112000000198742637541';
const CUSTOMER_IBAN = 'SK8975000000000012345671';
const SUPPLIER_IBAN = 'SK0809000000000123123123';
const P: Record<string, any> = {};
const S: Record<string, any> = {};

const sale = async (price: string, over: Record<string, unknown> = {}) =>
  ok(
    await c.post(
      '/1.6/sales/invoices',
      unchecked({
        ordnerCode: 'OF',
        warehouseId: wh,
        partnerId: P.customer.id,
        dateCreated: '2026-11-01',
        // Gross prices: the total is the price as given.
        rows: [
          {
            name: 'Služba',
            quantity: price.startsWith('-') ? -1 : 1,
            priceBrutto: price.replace('-', ''),
            vatCode: 'SK23',
          },
        ],
        ...over,
      }),
    ),
    201,
  );
const purchase = async (number: string, price: number, over: Record<string, unknown> = {}) =>
  ok(
    await c.post(
      '/1.6/purchase/invoices',
      unchecked({
        partnerId: P.supplier.id,
        dateCreated: '2026-11-02',
        dateValidTo: '2026-11-16',
        externalRecordNumber: number,
        rows: [{ name: `Nákup ${number}`, itemsAmount: 1, price }],
        ...over,
      }),
    ),
    201,
  );
const importXml = (text: string) =>
  c.post('/1.6/bank/statements', unchecked(text), { 'Content-Type': 'application/xml' });
let files = 0;
const statement = (
  version: '02' | '08',
  id: string,
  entries: TestEntry[],
  over: Record<string, string> = {},
) => {
  const text = camt053({
    version,
    id,
    seq: id.replace(/\D/g, ''),
    iban: OWN,
    from: '2026-11-01',
    to: '2026-11-14',
    opening: '1000.00',
    closing: '2000.00',
    entries,
    ...over,
  });
  dumpIso(`camt053-${version}-${++files}-${id}.xml`, text);
  return text;
};
const sales = async (id: string) =>
  ok(await c.get(`/1.6/sales/invoices/${id}` as '/1.6/sales/invoices/{id}'));
const purchased = async (id: string) =>
  ok(await c.get(`/1.6/purchase/invoices/${id}` as '/1.6/purchase/invoices/{id}'));
const entryOf = (st: any, ref: string) => st.entries.find((e: any) => e.accountServicerRef === ref);

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company({ name: 'Platby s.r.o.', vatNumber: 'SK2021234567', country: 'SK' });
  await openYear(c, 2026);
  wh = (await warehouse(c)).id;
  account = ok(
    await c.post('/1.6/bank-accounts', unchecked({ code: 'TB', name: 'Tatra banka', iban: OWN })),
    201,
  );
  P.customer = ok(
    await c.post(
      '/1.6/partners',
      unchecked({ code: 'ODB', name: 'Odberateľ a.s.', country: 'SK', iban: CUSTOMER_IBAN }),
    ),
    201,
  );
  P.other = ok(
    await c.post('/1.6/partners', unchecked({ code: 'ODB2', name: 'Iný odberateľ', country: 'SK' })),
    201,
  );
  P.supplier = ok(
    await c.post(
      '/1.6/partners',
      unchecked({ code: 'DOD', name: 'Dodávateľ s.r.o.', country: 'SK', iban: SUPPLIER_IBAN }),
    ),
    201,
  );
  S.exact = await sale('100.00');
  S.partial = await sale('200.00');
  S.over = await sale('50.00');
  S.byIban = await sale('77.70');
  S.twin1 = await sale('33.00', { partnerId: P.other.id });
  S.twin2 = await sale('33.00', { partnerId: P.other.id });
  S.credit = await sale('-40.00');
  S.reversed = await sale('60.00');
  // One VS on two invoices of the customer (a partner reusing it): the older one is paid first.
  S.reuse1 = await sale('30.00', { symbolVariable: '880088', dateCreated: '2026-11-02' });
  S.reuse2 = await sale('50.00', { symbolVariable: '880088', dateCreated: '2026-11-01' });
  P.p1 = await purchase('DF-1', 300, { symbolVariable: '7001' });
  P.p2 = await purchase('DF-2', 150, { symbolVariable: '7002', symbolConstant: '0308' });
  P.p3 = await purchase('DF-3', 90, { symbolVariable: '7003' });
}, 240_000);
afterAll(() => stack?.stop());

describe('a bank statement pairs its entries (issue #45)', () => {
  it('pays exact, partial, over, by IBAN, a refund and a reversal; posts a fee; leaves ambiguous ones unpaired', async () => {
    const vs = (inv: any) => inv.symbolVariable;
    const text = statement('02', 'S41', [
      {
        amount: '100.00',
        cd: 'CRDT',
        date: '2026-11-05',
        ref: 'A1',
        e2e: `/VS${vs(S.exact)}/SS/KS0308`,
        name: 'Odberateľ a.s.',
        iban: CUSTOMER_IBAN,
      },
      { amount: '120.00', cd: 'CRDT', date: '2026-11-06', ref: 'A2', ustrd: `Faktura VS${vs(S.partial)}` },
      { amount: '80.00', cd: 'CRDT', date: '2026-11-07', ref: 'A3', e2e: `/VS${vs(S.over)}` },
      {
        amount: '77.70',
        cd: 'CRDT',
        date: '2026-11-08',
        ref: 'A4',
        name: 'Odberateľ a.s.',
        iban: CUSTOMER_IBAN,
      },
      { amount: '33.00', cd: 'CRDT', date: '2026-11-09', ref: 'A5', name: 'Niekto' },
      {
        amount: '40.00',
        cd: 'DBIT',
        date: '2026-11-10',
        ref: 'A6',
        e2e: `/VS${vs(S.credit)}`,
        iban: CUSTOMER_IBAN,
      },
      {
        amount: '60.00',
        cd: 'CRDT',
        date: '2026-11-11',
        ref: 'A7',
        e2e: `/VS${vs(S.reversed)}`,
        iban: CUSTOMER_IBAN,
      },
      {
        amount: '60.00',
        cd: 'DBIT',
        date: '2026-11-12',
        ref: 'A7',
        reversal: true,
        e2e: `/VS${vs(S.reversed)}`,
        iban: CUSTOMER_IBAN,
      },
      {
        amount: '300.00',
        cd: 'DBIT',
        date: '2026-11-13',
        ref: 'A8',
        e2e: '/VS7001/SS/KS',
        iban: SUPPLIER_IBAN,
      },
      { amount: '2.50', cd: 'DBIT', date: '2026-11-14', ref: 'A9', code: ['ACMT', 'MDOP', 'CHRG'] },
      { amount: '100.00', cd: 'CRDT', date: '2026-11-12', ref: 'A10', e2e: '/VS880088/SS/KS' },
    ]);
    const st = ok(await importXml(text), 201);
    S.st = st;
    expect(st).toMatchObject({
      iban: OWN,
      bankAccountId: account.id,
      number: '41',
      format: 'camt.053.001.02',
      entryCount: 11,
      newEntries: 11,
    });
    expect(st.openingBalance).toBe(1000);
    // In the bank's order.
    expect(st.entries.map((e: any) => e.accountServicerRef)).toEqual([
      'A1',
      'A2',
      'A3',
      'A4',
      'A5',
      'A6',
      'A7',
      'A7',
      'A8',
      'A9',
      'A10',
    ]);
    const status = (ref: string) => [entryOf(st, ref)?.status, entryOf(st, ref)?.rule];
    expect(status('A1')).toEqual(['paired', 'variableSymbol']);
    expect(status('A2')).toEqual(['paired', 'variableSymbol']);
    expect(status('A4')).toEqual(['paired', 'counterpartyAmount']);
    expect(status('A5')[0]).toBe('unpaired');
    expect(
      entryOf(st, 'A5')
        .candidates.map((x: any) => x.invoiceId)
        .sort(),
    ).toEqual([S.twin1.id, S.twin2.id].sort());
    expect(status('A6')).toEqual(['paired', 'variableSymbol']);
    expect(status('A8')).toEqual(['paired', 'variableSymbol']);
    expect(status('A9')).toEqual(['posted', 'fee']);
    const reversal = st.entries.filter((e: any) => e.accountServicerRef === 'A7');
    expect(reversal.map((e: any) => e.status)).toEqual(['reversed', 'reversed']);

    expect(await sales(S.exact.id)).toMatchObject({ balance: 0, state: 'paid', paymentStatus: 'paid' });
    expect(await sales(S.partial.id)).toMatchObject({
      balance: 80,
      state: 'partiallyPaid',
      paymentStatus: 'partlyPaid',
    });
    const over = await sales(S.over.id);
    expect(over).toMatchObject({ balance: -30, paymentStatus: 'overpaid' });
    expect(over.payments).toEqual([
      expect.objectContaining({ amount: 80, overpayment: 30, entryId: entryOf(st, 'A3').id }),
    ]);
    expect(await sales(S.byIban.id)).toMatchObject({ balance: 0, paymentStatus: 'paid' });
    expect(await sales(S.credit.id)).toMatchObject({ balance: 0, paymentStatus: 'paid' });
    expect(await sales(S.reversed.id)).toMatchObject({ balance: 60, paymentStatus: 'unpaid', payments: [] });
    expect(await purchased(P.p1.id)).toMatchObject({ balance: 0, paymentStatus: 'paid' });
    // The bank posts: 221 against 311 for a customer's payment, 321 against 221 for a supplier's.
    const exactEntries = ok(await c.get('/1.6/bank/entries?status=paired&pageSize=50')).items;
    expect(exactEntries.length).toBeGreaterThanOrEqual(6);
    const overpayments = ok(
      await c.get(`/1.6/bank/overpayments?partnerId=${P.customer.id}` as '/1.6/bank/overpayments'),
    );
    const byId = (a: any[][]) => a.sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(byId(overpayments.items.map((o: any) => [o.invoiceId, o.amount]))).toEqual(
      byId([
        [S.over.id, 30],
        [S.reuse1.id, 20],
      ]),
    );
    // One VS on two invoices: the older paid first, the surplus on the last one paid.
    expect(await sales(S.reuse2.id)).toMatchObject({ balance: 0, paymentStatus: 'paid' });
    expect(await sales(S.reuse1.id)).toMatchObject({ balance: -20, paymentStatus: 'overpaid' });
    expect(entryOf(st, 'A10').pairings.map((p: any) => [p.invoiceId, p.amount, p.overpayment])).toEqual([
      [S.reuse2.id, 50, 0],
      [S.reuse1.id, 50, 20],
    ]);
    // What the bank posted: 221 against 311 for a customer, 321 against 221 for a supplier, 568 for a fee.
    const posted = (ref: string) =>
      entryOf(st, ref).accountingEntries.map((a: any) => [a.debitAccount, a.creditAccount, a.amount]);
    expect(posted('A1')).toEqual([['221', '311', 100]]);
    expect(posted('A6')).toEqual([['311', '221', 40]]);
    expect(posted('A8')).toEqual([['321', '221', 300]]);
    expect(posted('A9')).toEqual([['568', '221', 2.5]]);
    expect(posted('A5')).toEqual([]);
    // The list views: balances, statuses and the filters.
    const unpaid = ok(
      await c.get('/1.6/sales/invoices/1?paymentStatus=overpaid' as '/1.6/sales/invoices/{page}'),
    );
    expect(byId(unpaid.items.map((i: any) => [i.id, i.balance]))).toEqual(
      byId([
        [S.over.id, -30],
        [S.reuse1.id, -20],
      ]),
    );
  });

  it('the same file again changes nothing; an overlapping statement stores each entry once and pays nothing twice', async () => {
    const again = ok(await importXml(statement('02', 'S41', [])), 201);
    expect(again.newEntries).toBe(0);
    const same = await importXml(
      camt053({
        version: '02',
        id: 'S41',
        seq: '41',
        iban: OWN,
        from: '2026-11-01',
        to: '2026-11-14',
        opening: '1000.00',
        closing: '2000.00',
        entries: [],
      }),
    );
    expect(same.status).toBe(200);
    // Version 08, overlapping: A1 again (stored), plus a new partial payment of the partial invoice in Strd.
    const overlap = ok(
      await importXml(
        statement(
          '08',
          'S42',
          [
            {
              amount: '100.00',
              cd: 'CRDT',
              date: '2026-11-05',
              ref: 'A1',
              e2e: `/VS${S.exact.symbolVariable}/SS/KS0308`,
              iban: CUSTOMER_IBAN,
            },
            {
              amount: '80.00',
              cd: 'CRDT',
              date: '2026-11-20',
              ref: 'B1',
              strdRef: `/VS${S.partial.symbolVariable}`,
            },
          ],
          { from: '2026-11-15', to: '2026-11-27', opening: '1900.00' },
        ),
      ),
      201,
    );
    expect(overlap).toMatchObject({ entryCount: 2, newEntries: 1, format: 'camt.053.001.08' });
    expect(overlap.warnings).toEqual([expect.objectContaining({ code: 'BalanceGap' })]);
    expect(await sales(S.exact.id)).toMatchObject({
      balance: 0,
      payments: [expect.objectContaining({ amount: 100 })],
    });
    expect(await sales(S.partial.id)).toMatchObject({ balance: 0, paymentStatus: 'paid' });
  });

  it('a person pairs, unpairs and ignores', async () => {
    const a5 = entryOf(S.st, 'A5');
    const paired = ok(
      await c.post(`/1.6/bank/entries/${a5.id}/pairings` as '/1.6/bank/entries/{id}/pairings', {
        invoiceId: S.twin2.id,
      }),
      201,
    );
    expect(paired).toMatchObject({ status: 'paired', rule: 'manual', unallocated: 0 });
    expect(await sales(S.twin2.id)).toMatchObject({ balance: 0, paymentStatus: 'paid' });
    const pairingId = paired.pairings[0].id;
    const un = ok(
      await c.api
        .DELETE(
          '/1.6/bank/entries/{id}/pairings/{pairingId}' as any,
          { params: { path: { id: a5.id, pairingId } } } as any,
        )
        .then(async (r: any) => ({
          status: r.response.status,
          body: r.data,
          text: '',
          headers: r.response.headers,
        })),
    );
    expect(un).toMatchObject({ status: 'unpaired', pairings: [] });
    expect(await sales(S.twin2.id)).toMatchObject({ balance: 33, paymentStatus: 'unpaid' });
    expect(
      ok(await c.post(`/1.6/bank/entries/${a5.id}/ignore` as '/1.6/bank/entries/{id}/ignore')),
    ).toMatchObject({ status: 'ignored' });
    // The overpayment moves to another invoice of the same customer.
    const a3 = entryOf(S.st, 'A3');
    const moved = ok(
      await c.post(
        `/1.6/bank/entries/${a3.id}/pairings` as '/1.6/bank/entries/{id}/pairings',
        unchecked({ invoiceId: S.reversed.id, amount: '30.00' }),
      ),
      201,
    );
    expect(moved.pairings.map((p: any) => [p.invoiceId, p.amount, p.overpayment])).toEqual([
      [S.over.id, 50, 0],
      [S.reversed.id, 30, 0],
    ]);
    expect(await sales(S.over.id)).toMatchObject({ balance: 0, paymentStatus: 'paid' });
    expect(await sales(S.reversed.id)).toMatchObject({ balance: 30, paymentStatus: 'partlyPaid' });
  });

  it('a payment order for two due purchase invoices is a pain.001.001.03 with the symbols in EndToEndId', async () => {
    const order = ok(
      await c.post('/1.6/bank/payment-orders', { bankAccountId: account.id, invoiceIds: [P.p2.id, P.p3.id] }),
      201,
    );
    // The next business day after today: a weekend (and a TARGET holiday) moves on.
    let next = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    do next = new Date(next.getTime() + 86_400_000);
    while (
      [0, 6].includes(next.getUTCDay()) ||
      ['12-25', '12-26', '01-01', '05-01'].includes(next.toISOString().slice(5, 10))
    );
    expect(order).toMatchObject({
      executionDate: next.toISOString().slice(0, 10),
      total: 240,
      state: 'open',
    });
    expect(order.items.map((i: any) => [i.amount, i.endToEndId, i.iban])).toEqual([
      [150, '/VS7002/SS/KS0308', SUPPLIER_IBAN],
      [90, '/VS7003/SS/KS', SUPPLIER_IBAN],
    ]);
    const xml = await c.get(`/1.6/bank/payment-orders/${order.id}` as '/1.6/bank/payment-orders/{id}', {
      Accept: 'application/xml',
    });
    expect(xml.status).toBe(200);
    dumpIso('pain001-order.xml', xml.text);
    expect(xml.text).toContain('<EndToEndId>/VS7002/SS/KS0308</EndToEndId>');
    expect(xml.text).toContain('<Nm>Dodavatel s.r.o.</Nm>');
    expect(xml.text).toContain('<InstdAmt Ccy="EUR">150.00</InstdAmt>');
    expect((await purchased(P.p2.id)).paymentOrderId).toBe(order.id);
    // Already in an open order: 422 naming the invoice.
    const again = await c.post('/1.6/bank/payment-orders', {
      bankAccountId: account.id,
      invoiceIds: [P.p2.id, P.p1.id],
    });
    expect(again.status).toBe(422);
    expect(again.body.errors.map((e: any) => e.path)).toEqual(['invoiceIds[0]', 'invoiceIds[1]']);
  });

  it('refuses bad files with a 4xx naming the problem, and stores nothing', async () => {
    const before = ok(await c.get('/1.6/bank/statements')).totalCount;
    const bad = [
      ['<Document><broken', 400],
      ['<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><Document/>', 400],
      [
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn/></Document>',
        400,
      ],
      [statement('02', 'X1', [], { iban: 'SK6807200002891987426353' }), 422],
      [statement('02', 'X2', [{ amount: '1.005', cd: 'CRDT', date: '2026-11-03', ref: 'X' }]), 400],
      [
        statement('02', 'X3', [{ amount: '1.00', cd: 'CRDT', date: '2026-11-03', ref: 'X', ccy: 'CZK' }]),
        400,
      ],
    ] as const;
    for (const [text, status] of bad) {
      const r = await importXml(text);
      expect([r.status, r.body?.errors?.length > 0]).toEqual([status, true]);
    }
    expect(ok(await c.get('/1.6/bank/statements')).totalCount).toBe(before);
  });
});
