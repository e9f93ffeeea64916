/**
 * "A 500 for anything a client sent is a bug" (DESIGN §2 "Errors"). Every field of the main write
 * operations, at every depth, is replaced in turn by values of the wrong type, size or form, and every
 * query parameter likewise; no answer may be a 5xx, and every refusal is a problem document with a code.
 */
import { XMLBuilder } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, ok, partner, receive, warehouse } from '../support/fixtures.js';
import { ADMIN_TOKEN, type Client, type Stack, send, startStack } from '../support/stack.js';
import { unchecked, uncheckedPath } from '../support/typed-paths.js';

let stack: Stack;
let c: Client;

/** Raw JSON texts that no field expects in this form. */
const HOSTILE = [
  '"abc"',
  '""',
  '"   "',
  '-1',
  '0',
  '-0',
  '0.00001',
  '1e400',
  '123456789012345678901234567890.123456',
  '99999999999999.9999',
  'true',
  '{}',
  '[]',
  '[{}]',
  'null',
  '"2025-02-30"',
  '"2025-13-01T25:00:00Z"',
  '"00000000-0000-0000-0000-000000000000"',
  '"a\\u0000b"',
  JSON.stringify('ž'.repeat(5000)),
];

/** Every path of `value` (objects and arrays included), as key lists. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = at.length ? [at] : [];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...paths(v, [...at, i]));
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

const MARK = '__HOSTILE__';
/** The JSON text of `body` with the value at `path` replaced by the raw JSON `raw`. */
function replaced(body: object, path: (string | number)[], raw: string): string {
  const copy = structuredClone(body) as any;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path[path.length - 1]!] = MARK;
  return JSON.stringify(copy).replace(`"${MARK}"`, raw);
}

/** Sends every variant of `body` and returns the ones answered with a 5xx or without a problem code. */
async function probe(method: 'POST' | 'PUT', url: string, body: object) {
  const bad: string[] = [];
  let sent = 0;
  for (const p of paths(body)) {
    for (const raw of HOSTILE) {
      const text = replaced(body, p, raw);
      const r =
        method === 'POST'
          ? await c.post(uncheckedPath(url), unchecked(text))
          : await c.put(uncheckedPath(url), unchecked(text));
      sent++;
      if (r.status >= 500 || (r.status >= 400 && !r.body?.code))
        bad.push(`${method} ${url} ${p.join('.')}=${raw.slice(0, 40)} → ${r.status} ${r.text.slice(0, 200)}`);
    }
  }
  return { bad, sent };
}

let ids: Record<string, string>;

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company({ iban: 'SK3112000000198742637541' });
  const w = await warehouse(c, { allowNegativeStock: true });
  const it1 = await item(c);
  const p = await partner(c);
  await receive(c, w.id, '2026-01-05', [[it1.id, 1000, '2.5']]);
  const inv = ok(
    await c.post('/1.6/sales/invoices', {
      ordnerCode: 'OF',
      warehouseId: w.id,
      dateCreated: '2026-02-01',
      partnerId: p.id,
      rows: [{ itemId: it1.id, quantity: 2, price: 10 }],
    }),
    201,
  );
  ids = { w: w.id, it: it1.id, p: p.id, inv: inv.id };
}, 60_000);
afterAll(() => stack?.stop());

describe('hostile values in every field never give a 5xx', () => {
  it('issue and receipt cards', async () => {
    const issue = await probe('POST', '/1.6/warehouses/issue-cards', {
      ordnerCode: 'VY',
      warehouseId: ids.w!,
      partnerId: ids.p!,
      dateOperation: '2026-03-01',
      dateAccounting: '2026-03-01',
      recordNumber: 'H-1',
      tags: ['a'],
      itemsComment: 'x',
      rows: [{ itemId: ids.it!, quantity: 1, sellPrice: 3, costPrice: 2, unitCode: 'ks' }],
    });
    const receipt = await probe('POST', '/1.6/warehouses/receipt-cards', {
      ordnerCode: 'PR',
      warehouseId: ids.w!,
      dateOperation: '2026-03-01',
      rows: [{ itemId: ids.it!, quantity: 1, costPrice: 2 }],
    });
    expect([...issue.bad, ...receipt.bad]).toEqual([]);
    expect(issue.sent + receipt.sent).toBeGreaterThan(400);
  }, 120_000);

  it('sales invoices: create, update, payments', async () => {
    const body = {
      ordnerCode: 'OF',
      warehouseId: ids.w!,
      dateCreated: '2026-03-02',
      dateDelivery: '2026-03-02',
      partnerId: ids.p!,
      partnerCountry: 'SK',
      vatRate: 23,
      bonusPercent: 5,
      symbolConstant: '0308',
      commentAboveItems: 'x',
      rows: [
        { itemId: ids.it!, quantity: 2, price: 10, vatCode: 'SK23' },
        { name: 'Doprava', quantity: 1, priceBrutto: 12.3, vatRate: 23 },
      ],
    };
    const create = await probe('POST', '/1.6/sales/invoices', body);
    const current = ok(await c.get(`/1.6/sales/invoices/${ids.inv}`));
    const update = await probe('PUT', `/1.6/sales/invoices/${ids.inv}`, current);
    const pay = await probe('POST', `/1.6/sales/invoices/${ids.inv}/payments`, {
      amount: 0.01,
      date: '2026-03-03',
    });
    expect([...create.bad, ...update.bad, ...pay.bad]).toEqual([]);
  }, 300_000);

  it('purchase invoices and master data', async () => {
    const results = await Promise.all([
      probe('POST', '/1.6/purchase/invoices', {
        partnerId: ids.p!,
        dateCreated: '2026-03-02',
        dateDelivery: '2026-03-02',
        currency1: 'CZK',
        PeriodYear: '2026',
        Period: '2026-03',
        rows: [{ itemsAmount: 2, name: 'Papier', price: 100, bonus: 1, bonusPercent: 2, localSum: 8 }],
      }),
      probe('POST', '/1.6/items', { code: 'HX', name: 'X', unitCode: 'ks', sellPrice: 1, vatRate: 23 }),
      probe('POST', '/1.6/partners', {
        code: 'HP',
        name: 'P',
        country: 'DE',
        vatNumber: 'DE123456789',
        dueDays: 5,
      }),
      probe('POST', '/1.6/warehouses', { code: 'HW', name: 'W', valuationMethod: 'Custom', accounted: true }),
      probe('POST', '/1.6/periods', { code: 'H2030', dateFrom: '2030-01-01', dateTo: '2030-12-31' }),
      probe('POST', '/1.6/ordners', {
        code: 'HO',
        name: 'O',
        documentType: 'SalesInvoice',
        numberFormat: 'HO{seq}',
      }),
      probe('POST', '/1.6/bank-accounts', { code: 'HB', name: 'B', iban: 'SK3112000000198742637541' }),
      probe('POST', '/1.6/units', { code: 'HU', name: 'U' }),
      probe('POST', '/1.6/persons', { code: 'HPE', name: 'Person' }),
      probe('POST', `/1.6/items/${ids.it}/lot-numbers`, { number: 'L-1', expiryDate: '2027-01-31' }),
      probe('POST', '/1.6/vat-codes', {
        code: 'HV',
        type: 'O',
        country: 'SK',
        rate: 10,
        validFrom: '2025-01-01',
        kind: 'reduced',
        paragraphs: [{ code: 'P', text: 'T', isDefault: true }],
      }),
    ]);
    expect(results.flatMap((r) => r.bad)).toEqual([]);
  }, 300_000);

  it('master data written back with PUT', async () => {
    const bad: string[] = [];
    for (const list of ['warehouses', 'items', 'units', 'partners', 'ordners', 'periods', 'bank-accounts']) {
      const first = ok(await c.get(uncheckedPath(`/1.6/${list}`))).items[0];
      const r = await probe(
        'PUT',
        `/1.6/${list}/${first.id}`,
        ok(await c.get(uncheckedPath(`/1.6/${list}/${first.id}`))),
      );
      bad.push(...r.bad);
    }
    expect(bad).toEqual([]);
  }, 300_000);

  it('company creation (admin)', async () => {
    const admin = (url: string, text: string) =>
      send(stack.app, 'POST', url, text, { Authorization: `Bearer ${ADMIN_TOKEN}` });
    const body = {
      name: 'Hostile s.r.o.',
      country: 'SK',
      vatNumber: 'SK2020999999',
      iban: 'SK3112000000198742637541',
    };
    const bad: string[] = [];
    for (const p of paths(body))
      for (const raw of HOSTILE) {
        const r = await admin('/admin/companies', replaced(body, p, raw));
        if (r.status >= 500 || (r.status >= 400 && !r.body?.code))
          bad.push(`${p.join('.')}=${raw.slice(0, 40)} → ${r.status} ${r.text.slice(0, 200)}`);
      }
    expect(bad).toEqual([]);
  }, 300_000);

  it('XML bodies', async () => {
    const builder = new XMLBuilder({});
    const values = [
      'abc',
      '',
      ' ',
      '-1',
      '0',
      '1e400',
      '99999999999999999999.5',
      '2025-02-30',
      'ž'.repeat(300),
    ];
    const body = {
      ordnerCode: 'OF',
      warehouseId: ids.w!,
      dateCreated: '2026-03-02',
      partnerId: ids.p!,
      bonusPercent: '5',
      vatRate: '23',
      tags: { tag: ['a', 'b'] },
      rows: {
        row: [
          { itemId: ids.it!, quantity: '2', price: '10' },
          { name: 'X', quantity: '1', priceBrutto: '5' },
        ],
      },
    };
    const valid = await c.post(
      '/1.6/sales/invoices',
      unchecked(`<SalesInvoice>${builder.build(body)}</SalesInvoice>`),
      {
        'Content-Type': 'application/xml',
      },
    );
    expect([valid.status, valid.body.sumTotal, valid.body.tags]).toEqual([201, 28.12, ['a', 'b']]);
    const bad: string[] = [];
    for (const p of paths(body).filter((q) => q[q.length - 1] !== 'row' && q[q.length - 1] !== 'tag')) {
      for (const v of values) {
        const copy = structuredClone(body) as any;
        let node = copy;
        for (const k of p.slice(0, -1)) node = node[k];
        node[p[p.length - 1]!] = v;
        const xml = `<SalesInvoice>${builder.build(copy)}</SalesInvoice>`;
        const r = await c.post('/1.6/sales/invoices', unchecked(xml), { 'Content-Type': 'application/xml' });
        if (r.status >= 500)
          bad.push(`${p.join('.')}=${v.slice(0, 20)} → ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it('query parameters', async () => {
    const urls = [
      (v: string) => `/1.6/warehouses/issue-cards/copy?sourceId=${v}`,
      (v: string) => `/1.6/warehouses/issue-cards/copy?sourceId=${ids.inv}&dateOperation=${v}`,
      (v: string) => `/1.6/warehouses/${ids.w}/stock?date=${v}`,
      (v: string) => `/1.6/warehouses/${ids.w}/stock?itemId=${v}`,
      (v: string) => `/1.6/sales/invoices/${v}`,
      (v: string) => `/1.6/sales/invoices/1?pageSize=${v}`,
      (v: string) => `/1.6/sales/invoices/1?dateFrom=${v}&state=${v}`,
      (v: string) => `/1.6/purchase/invoices/${v}`,
      (v: string) => `/1.6/items/${v}`,
      (v: string) => `/1.6/reports/SalesInvoice?output=pdf&recordID=${v}`,
      (v: string) => `/1.6/reports/${v}?output=pdf&recordID=${ids.inv}`,
    ];
    const values = [
      'abc',
      '',
      '-1',
      '0',
      '1e400',
      '99999999999999999999',
      '2025-02-30',
      '%00',
      '%E2%82',
      'ž',
    ];
    const bad: string[] = [];
    for (const url of urls)
      for (const v of values) {
        const u = url(encodeURIComponent(v) === v ? v : v.startsWith('%') ? v : encodeURIComponent(v));
        const r = await c.get(uncheckedPath(u), { Accept: 'application/pdf, application/json' });
        if (r.status >= 500) bad.push(`GET ${u} → ${r.status} ${r.text.slice(0, 200)}`);
      }
    expect(bad).toEqual([]);
  }, 120_000);
});
