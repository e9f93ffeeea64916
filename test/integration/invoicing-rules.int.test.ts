/**
 * Invoicing rules of issue #11 through HTTP (DESIGN §6 "States", §5 "Period"): credit notes settled by
 * refunds, zero totals paid at once, the issue-card link kept by a PUT, periods that cannot move under
 * the documents booked in them.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, item, ok, openYear, receive, warehouse } from '../support/fixtures.js';
import { ADMIN_TOKEN, type Client, type Stack, startStack } from '../support/stack.js';
import { type BodyOf, unchecked } from '../support/typed-paths.js';

let stack: Stack;
let c: Client;
let whId: string;
let partnerId: string;

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company();
  await openYear(c, 2025);
  whId = (await warehouse(c)).id;
  partnerId = ok(await c.post('/1.6/partners', { code: 'ODB', name: 'Odberateľ s.r.o.' }), 201).id;
});
afterAll(() => stack?.stop());

type SalesInvoiceBody = BodyOf<'/1.6/sales/invoices', 'post'>;
const invoice = async (rows: SalesInvoiceBody['rows'], over: Partial<SalesInvoiceBody> = {}) =>
  ok(
    await c.post('/1.6/sales/invoices', {
      ordnerCode: 'OF',
      warehouseId: whId,
      partnerId,
      dateCreated: '2025-05-02',
      rows,
      ...over,
    }),
    201,
  );
const listed = async (id: string, state?: string) =>
  ok(await c.get(`/1.6/sales/invoices?pageSize=500${state ? `&state=${state}` : ''}`)).items.find(
    (i: any) => i.id === id,
  );

describe('payments', () => {
  it('settles a credit note by a refund of its sign, lists it as paid, and refuses the other sign or zero', async () => {
    const credit = await invoice([{ name: 'Dobropis', quantity: -1, price: 100 }]);
    expect([credit.sumTotal, credit.state, credit.balance]).toEqual([-123, 'issued', -123]);
    const wrongSign = await c.post(`/1.6/sales/invoices/${credit.id}/payments`, {
      amount: 123,
      date: '2025-05-03',
    });
    expect(wrongSign.status).toBe(409);
    expect(wrongSign.body).toMatchObject({ code: 'Conflict', errors: [{ path: 'amount' }] });
    const zero = await c.post(`/1.6/sales/invoices/${credit.id}/payments`, { amount: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.errors).toEqual([{ path: 'amount', message: 'must not be zero' }]);
    const beyond = await c.post(`/1.6/sales/invoices/${credit.id}/payments`, { amount: -123.01 });
    expect(beyond.status).toBe(409);
    const part = ok(
      await c.post(`/1.6/sales/invoices/${credit.id}/payments`, { amount: -23, date: '2025-05-03' }),
      201,
    );
    expect([part.state, part.balance]).toEqual(['partiallyPaid', -100]);
    const paid = ok(
      await c.post(`/1.6/sales/invoices/${credit.id}/payments`, { amount: -100, date: '2025-05-04' }),
      201,
    );
    expect([paid.state, paid.balance, paid.payments.map((p: any) => p.amount)]).toEqual([
      'paid',
      0,
      [-23, -100],
    ]);
    expect(await listed(credit.id, 'paid')).toMatchObject({ state: 'paid', balance: 0, sumTotal: -123 });
    expect(await listed(credit.id, 'issued')).toBeUndefined();
  });

  it('a zero-total invoice is paid at once, in the detail and the list', async () => {
    const zero = await invoice([
      { name: 'Tovar', quantity: 1, price: 10 },
      { name: 'Vrátený tovar', quantity: -1, price: 10 },
    ]);
    expect([zero.sumTotal, zero.state, zero.balance]).toEqual([0, 'paid', 0]);
    expect(await listed(zero.id, 'paid')).toMatchObject({ state: 'paid', balance: 0 });
    expect((await c.post(`/1.6/sales/invoices/${zero.id}/payments`, { amount: 1 })).status).toBe(409);
    // Nothing was paid: it may still be corrected; with a total it is issued again.
    const { id, ...body } = zero;
    const corrected = ok(
      await c.put(`/1.6/sales/invoices/${id}`, {
        ...body,
        rows: [{ name: 'Tovar', quantity: 1, price: 10 }],
      }),
    );
    expect([corrected.sumTotal, corrected.state]).toEqual([12.3, 'issued']);
    expect(await listed(id, 'issued')).toMatchObject({ state: 'issued', balance: 12.3 });
  });
});

describe('the issue-card link', () => {
  it('a PUT with warehouseRecordNo absent, null or empty keeps the link the stock-issued event wrote', async () => {
    const coffee = await item(c, { code: 'KAVA', name: 'Káva' });
    await receive(c, whId, '2025-05-01', [[coffee.id, 10, 4]]);
    const inv = await invoice([{ itemId: coffee.id, quantity: 2, price: 9 }]);
    const card = ok(
      await c.post(`/1.6/warehouses/issue-cards/copy?sourceId=${inv.id}&dateOperation=2025-05-02`),
      201,
    );
    const linked = await eventually(
      async () => ok(await c.get(`/1.6/sales/invoices/${inv.id}`)),
      (x) => !!x.warehouseRecordNo,
    );
    expect(linked.warehouseRecordNo).toBe(card.recordNumber);
    const { warehouseRecordNo: _, ...withoutLink } = linked;
    for (const body of [
      withoutLink,
      { ...linked, warehouseRecordNo: null },
      { ...linked, warehouseRecordNo: '' },
    ]) {
      const saved = ok(
        await c.put(`/1.6/sales/invoices/${inv.id}`, { ...body, commentBelowItems: 'Ďakujeme.' }),
      );
      expect(saved.warehouseRecordNo).toBe(card.recordNumber);
    }
    expect(ok(await c.get(`/1.6/sales/invoices/${inv.id}`)).warehouseRecordNo).toBe(card.recordNumber);
  });
});

describe('periods', () => {
  it('cannot move or shrink under the invoices and cards booked in them (409), and may otherwise', async () => {
    const other = await stack.company();
    const p2024 = await openYear(other, 2024);
    const w = await warehouse(other);
    const partner = ok(await other.post('/1.6/partners', { code: 'P', name: 'Partner' }), 201).id;
    ok(
      await other.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: w.id,
        partnerId: partner,
        dateCreated: '2024-06-15',
        rows: [{ name: 'Služba', quantity: 1, price: 10 }],
      }),
      201,
    );
    const i = await item(other);
    await receive(other, w.id, '2024-11-20', [[i.id, 1, 1]]);
    const period = ok(await other.get(`/1.6/periods/${p2024}`));
    const put = (dateFrom: string, dateTo: string) =>
      other.put(`/1.6/periods/${p2024}`, { ...period, dateFrom, dateTo });
    const underInvoice = await put('2024-07-01', '2024-12-31');
    expect(underInvoice.status).toBe(409);
    expect(underInvoice.body).toMatchObject({
      code: 'InvalidState',
      detail: expect.stringContaining('1 document(s)'),
    });
    const underCard = await put('2024-01-01', '2024-10-31'); // the receipt card of 2024-11-20
    expect(underCard.status).toBe(409);
    expect(ok(await put('2024-01-01', '2024-11-30'))).toMatchObject({
      dateFrom: '2024-01-01',
      dateTo: '2024-11-30',
    });
  });
});

describe('numbering', () => {
  it('a year-less format runs on across years, continuing counters an earlier version kept per year', async () => {
    const ordner = ok(
      await c.post('/1.6/ordners', {
        code: 'OX',
        name: 'Bez roka',
        documentType: 'SalesInvoice',
        numberFormat: 'OX{seq:6}',
      }),
      201,
    );
    const numbered = async (dateCreated: string) =>
      (
        await invoice([{ name: 'Služba', quantity: 1, price: 1 }], {
          ordnerCode: undefined,
          ordnerId: ordner.id,
          dateCreated,
        })
      ).recordNumber;
    expect([
      await numbered('2025-12-30'),
      await numbered('2025-12-31'),
      await numbered('2026-01-02'),
    ]).toEqual(['OX000001', 'OX000002', 'OX000003']);
    // An earlier version counted this ordner per year: its highest per-year counter is where the single one goes on.
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    await db.query(`delete from invoicing.ordner_counter where ordner_id = $1`, [ordner.id]);
    await db.query(
      `insert into invoicing.ordner_counter (company_id, ordner_id, year, last_value) values ($1, $2, 2025, 500), ($1, $2, 2026, 3)`,
      [c.creds.companyId, ordner.id],
    );
    await db.end();
    expect(await numbered('2026-01-03')).toBe('OX000501');
    expect(await numbered('2025-06-01')).toBe('OX000502');
  });
});

describe('hostile input (item 5)', () => {
  const admin = (body: string) =>
    stack.app.request('/admin/companies', {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body,
    });

  it('refuses date-times that are not real calendar dates and times, naming the field', async () => {
    const vat = {
      code: 'X1',
      type: 'O',
      country: 'SK',
      rate: 10,
      kind: 'reduced',
      paragraphs: [],
    };
    for (const validFrom of [
      '2025-02-30T10:00:00Z',
      '2025-02-29',
      '2025-04-31T00:00:00+02:00',
      '2025-01-01T24:00:00Z',
    ]) {
      const r = await c.post('/1.6/vat-codes', unchecked({ ...vat, validFrom }));
      expect([validFrom, r.status, r.body.errors?.[0]?.path]).toEqual([validFrom, 400, 'validFrom']);
    }
    // A real date-time is the calendar date in the company's time zone (Europe/Bratislava).
    const ok2024 = ok(
      await c.post('/1.6/vat-codes', unchecked({ ...vat, validFrom: '2024-02-29T23:30:00Z' })),
      201,
    );
    expect(ok2024.validFrom).toBe('2024-03-01');
  });

  it('refuses lone surrogates, unknown keys at /admin and numbers where text is expected; nothing is stored', async () => {
    const before = ok(await c.get('/1.6/partners?pageSize=500')).totalCount;
    const lone = await c.post('/1.6/partners', { code: 'S1', name: 'Firma \ud800 s.r.o.' });
    expect(lone.status).toBe(400);
    expect(lone.body.errors).toEqual([
      { path: 'name', message: 'must be well-formed Unicode (a lone UTF-16 surrogate is not)' },
    ]);
    expect(ok(await c.get('/1.6/partners?pageSize=500')).totalCount).toBe(before);

    const company = await admin(JSON.stringify({ name: 'Firma \udc00', country: 'SK' }));
    expect(company.status).toBe(400);
    expect((await company.json()).errors).toEqual([
      { path: 'name', message: 'must be well-formed Unicode (a lone UTF-16 surrogate is not)' },
    ]);
    const unknown = await admin(
      JSON.stringify({ name: 'Firma', country: 'SK', note: 'x'.repeat(1_000_000) }),
    );
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors).toEqual([{ path: 'note', message: 'unknown field' }]);

    const w = await warehouse(c);
    const tags = await c.post(
      '/1.6/warehouses/issue-cards',
      unchecked({
        ordnerCode: 'VY',
        warehouseId: w.id,
        partnerId,
        dateOperation: '2025-05-02',
        tags: [1, 2],
        rows: [{ itemId: (await item(c)).id, quantity: 1 }],
      }),
    );
    expect(tags.status).toBe(400);
    expect(tags.body.errors).toEqual([
      { path: 'tags.0', message: 'expected a string, not a number' },
      { path: 'tags.1', message: 'expected a string, not a number' },
    ]);
  });
});

describe('VAT codes that fit the parties (item 1)', () => {
  const rows = (over: Partial<SalesInvoiceBody['rows'][number]> = {}) => [
    { name: 'Tovar', quantity: 1, price: 100, ...over },
  ];
  const post = (body: Partial<SalesInvoiceBody> & Pick<SalesInvoiceBody, 'rows'>) =>
    c.post('/1.6/sales/invoices', {
      ordnerCode: 'OF',
      warehouseId: whId,
      dateCreated: '2025-05-02',
      ...body,
    });
  const countInvoices = async () => ok(await c.get('/1.6/sales/invoices')).totalCount;

  it('refuses a named intra-community, export or domestic code that does not fit the parties, naming the field', async () => {
    const before = await countInvoices();
    const last = ok(await post({ partnerId, rows: rows() }), 201).recordNumber;
    const cases: [string, Record<string, unknown>, string][] = [
      ['SK0-IC', { partnerDetail: 'Jana, spotrebiteľ', partnerCountry: 'SK' }, 'intra-community'],
      [
        'SK0-IC',
        { partnerDetail: 'Firma SK', partnerCountry: 'SK', partnerNumber3: 'SK2021234567' },
        'intra-community',
      ],
      [
        'SK0-EX',
        { partnerDetail: 'Firma DE', partnerCountry: 'DE', partnerNumber3: 'DE123456789' },
        'export',
      ],
      ['SK0-EX', { partnerDetail: 'Jana, spotrebiteľ', partnerCountry: 'SK' }, 'export'],
    ];
    for (const [vatCode, parties, why] of cases) {
      const r = await post({ ...parties, vatCode, rows: rows() });
      expect([vatCode, r.status, r.body.code, r.body.errors?.[0]?.path]).toEqual([
        vatCode,
        422,
        'VatCodeNotValid',
        'vatCode',
      ]);
      expect(r.body.detail).toContain(why);
      const onRow = await post({ ...parties, rows: rows({ vatCode }) });
      expect(onRow.body.errors?.[0]?.path).toBe('rows.0.vatCode');
    }
    expect(await countInvoices()).toBe(before + 1);
    // The fitting parties are accepted, and the refusals consumed no record number.
    const ic = ok(
      await post({
        partnerDetail: 'Firma DE',
        partnerCountry: 'DE',
        partnerNumber3: 'DE123456789',
        vatCode: 'SK0-IC',
        rows: rows(),
      }),
      201,
    );
    expect([ic.vatCode, ic.sumVat, ic.sumTotal]).toEqual(['SK0-IC', 0, 100]);
    expect(Number(ic.recordNumber.slice(-5))).toBe(Number(last.slice(-5)) + 1);
    const ex = ok(
      await post({ partnerDetail: 'Firma US', partnerCountry: 'US', vatCode: 'SK0-EX', rows: rows() }),
      201,
    );
    expect([ex.vatCode, ex.sumTotal]).toEqual(['SK0-EX', 100]);
  });

  it('reads partnerNumber3 as a VAT number: prefix from partnerCountry, malformed refused (400)', async () => {
    const ic = ok(
      await post({
        partnerDetail: 'Firma DE',
        partnerCountry: 'DE',
        partnerNumber3: '123 456 789',
        vatRate: 0,
        rows: rows(),
      }),
      201,
    );
    expect([ic.partnerNumber3, ic.vatCode]).toEqual(['DE123456789', 'SK0-IC']);
    const bad = await post({
      partnerDetail: 'Firma DE',
      partnerCountry: 'DE',
      partnerNumber3: 'DE12',
      rows: rows(),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: 'partnerNumber3', message: 'not a well-formed DE VAT number' }]);
    const partner = await c.post('/1.6/partners', {
      code: 'BADVAT',
      name: 'Zlé IČ DPH',
      country: 'AT',
      vatNumber: '1234',
    });
    expect(partner.body.errors).toEqual([{ path: 'vatNumber', message: 'not a well-formed AT VAT number' }]);
  });

  it('a German VAT-registered buyer without any VAT field gets the reverse-charge (intra-community) code', async () => {
    const de = ok(
      await c.post('/1.6/partners', {
        code: 'KAFFEE',
        name: 'Kaffeehaus GmbH',
        country: 'DE',
        vatNumber: 'DE811907980',
      }),
      201,
    );
    const inv = ok(await post({ partnerId: de.id, rows: rows() }), 201);
    expect([inv.partnerNumber3, inv.vatCode, inv.sumVat, inv.sumTotal]).toEqual([
      'DE811907980',
      'SK0-IC',
      0,
      100,
    ]);
  });

  it('conflicting vatID / vatCode / vatRate are refused naming both fields, also on a GET → PUT', async () => {
    const codes = ok(await c.get('/1.6/vat-codes?pageSize=500')).items;
    const std = codes.find(
      (x: any) => x.kind === 'standard' && x.country === 'SK' && x.rate === 23 && x.type === 'O',
    );
    const r = await post({ partnerId, rows: rows({ vatID: std.id, vatRate: 5 }) });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.path)).toEqual(['rows.0.vatID', 'rows.0.vatRate']);
    const both = await post({ partnerId, vatID: std.id, vatCode: 'SK0-IC', rows: rows() });
    expect(both.body.errors.map((e: any) => e.path)).toEqual(['vatID', 'vatCode']);
    const inv = ok(await post({ partnerId, rows: rows({ vatRate: 23 }) }), 201);
    const { id, ...body } = ok(await c.get(`/1.6/sales/invoices/${inv.id}`));
    const changed = await c.put(`/1.6/sales/invoices/${id}`, {
      ...body,
      rows: [{ ...body.rows[0], vatRate: 5 }],
    });
    expect(changed.status).toBe(422);
    expect(changed.body.errors.map((e: any) => e.path)).toContain('rows.0.vatRate');
    expect(ok(await c.get(`/1.6/sales/invoices/${id}`)).sumTotal).toBe(123);
    // The same body without the stale vatID takes the new rate.
    const { vatID: _, vatCode: __, vatParagraphID: ___, ...row } = body.rows[0];
    expect(
      ok(await c.put(`/1.6/sales/invoices/${id}`, { ...body, rows: [{ ...row, vatRate: 5 }] })).sumTotal,
    ).toBe(105);
  });
});

describe('list view (item 3)', () => {
  it('shows the invoice as invoiced: partner snapshot, VAT number, IBAN, dateAccounting, VAT code and totals', async () => {
    const bank = ok(
      await c.post('/1.6/bank-accounts', {
        code: 'TB',
        name: 'Tatra banka',
        iban: 'SK31 1200 0000 1987 4263 7541',
        currency: 'EUR',
      }),
      201,
    );
    const p = ok(
      await c.post('/1.6/partners', {
        code: 'SNAP',
        name: 'Pôvodný názov s.r.o.',
        country: 'SK',
        vatNumber: 'SK2021234567',
      }),
      201,
    );
    const inv = await invoice([{ name: 'Tovar', quantity: 2, price: 50 }], {
      partnerId: p.id,
      bankAccountId: bank.id,
      dateAccounting: '2025-05-03',
    });
    const { id: pid, ...pbody } = p;
    ok(await c.put(`/1.6/partners/${pid}`, { ...pbody, name: 'Nový názov s.r.o.' }));
    expect(await listed(inv.id)).toMatchObject({
      partnerName: 'Pôvodný názov s.r.o.',
      partnerDetail: 'Pôvodný názov s.r.o.',
      partnerNumber3: 'SK2021234567',
      ordnerCode: 'OF',
      iban: 'SK3112000000198742637541',
      bankAccountId: bank.id,
      dateAccounting: '2025-05-03',
      vatCode: inv.vatCode,
      sumBase: 100,
      sumVat: 23,
      sumTotal: 123,
      vatSummary: [{ vatCode: inv.vatCode, rate: 23, base: 100, vat: 23 }],
      balance: 123,
      state: 'issued',
    });
  });
});
