/**
 * Request and response handling through HTTP (DESIGN §2): case-insensitive field names, unknown
 * fields, malformed bodies, XML in and out, exact decimals, list envelope, unique codes.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type Stack, send, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

let stack: Stack;
let c: Client;

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company();
});
afterAll(() => stack?.stop());

describe('field names', () => {
  it('matches input names case-insensitively and answers with the documented spelling', async () => {
    const r = await c.post(
      '/1.6/items',
      unchecked({
        CODE: 'CI-1',
        Name: 'Kôň',
        UNITCODE: 'kg',
        sellprice: 12.3456,
        VatRate: 23,
        HasLotNumbers: true,
      }),
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      code: 'CI-1',
      name: 'Kôň',
      unitCode: 'kg',
      sellPrice: 12.3456,
      vatRate: 23,
      hasLotNumbers: true,
    });
    expect(Object.keys(r.body)).toContain('sellPrice');
  });

  it('refuses an unknown field with 400 naming it, and stores nothing', async () => {
    const r = await c.post('/1.6/items', unchecked({ code: 'UF-1', name: 'X', colour: 'red' }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'ValidationFailed',
      errors: [{ path: 'colour', message: 'unknown field' }],
    });
    expect((await c.get('/1.6/items')).body.items.some((i: any) => i.code === 'UF-1')).toBe(false);
  });

  it('names unknown fields inside nested objects with their path', async () => {
    const r = await c.post(
      '/1.6/vat-codes',
      unchecked({
        code: 'T1',
        type: 'O',
        country: 'SK',
        rate: 23,
        validFrom: '2025-01-01',
        kind: 'standard',
        paragraphs: [{ code: 'A', text: 'Text', colour: 'x' }],
      }),
    );
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ path: 'paragraphs.0.colour', message: 'unknown field' }]);
  });

  it('accepts and ignores read-only fields the API itself returns (read, change, write back)', async () => {
    const created = await c.post('/1.6/partners', { code: 'RW', name: 'Pôvodný', dueDays: 30 });
    const back = { ...created.body, name: 'Zmenený' };
    const r = await c.put(`/1.6/partners/${created.body.id}`, back);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: created.body.id, name: 'Zmenený', dueDays: 30 });
  });

  it('refuses a field given twice in different case', async () => {
    const r = await c.post('/1.6/units', unchecked({ code: 'a', CODE: 'b', name: 'x' }));
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/more than once/);
  });
});

describe('malformed and invalid input', () => {
  it('answers 400 BadRequest for malformed JSON', async () => {
    const r = await c.post('/1.6/units', unchecked('{"code": "x",'));
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BadRequest');
    expect(r.body.detail).toMatch(/malformed JSON/);
  });

  it('answers 400 naming each invalid field', async () => {
    const r = await c.post(
      '/1.6/items',
      unchecked({ code: '', name: 'X', sellPrice: 1.23456, kind: 'gadget' }),
    );
    expect(r.status).toBe(400);
    const paths = r.body.errors.map((e: any) => e.path).sort();
    expect(paths).toEqual(['code', 'kind', 'sellPrice']);
  });

  it('answers 400 for a malformed id in the path and for an unknown query parameter', async () => {
    expect((await c.get('/1.6/items/123')).status).toBe(400);
    const r = await c.get('/1.6/items?colour=red');
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toEqual({ path: 'query.colour', message: 'unknown query parameter' });
  });

  it('answers 409 Conflict for a code the company already uses', async () => {
    expect((await c.post('/1.6/units', { code: 'bal', name: 'balenie' })).status).toBe(201);
    const r = await c.post('/1.6/units', { code: 'bal', name: 'iné' });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'Conflict', errors: [{ path: 'code' }] });
  });

  it('answers 406 for an Accept that allows neither JSON nor XML', async () => {
    const r = await c.get('/1.6/warehouses', { Accept: 'text/html' });
    expect(r.status).toBe(406);
    expect(r.body.code).toBe('NotAcceptable');
  });

  it('answers 413 for a body over the limit', async () => {
    const r = await c.post('/1.6/units', { code: 'big', name: 'x'.repeat(5 * 1024 * 1024) });
    expect(r.status).toBe(413);
  });
});

describe('numbers', () => {
  it('keeps decimals exact end to end (no binary floating point)', async () => {
    const r = await c.post('/1.6/items', { code: 'DEC', name: 'Presné', sellPrice: 0.1 });
    expect(r.text).toContain('"sellPrice":0.1,');
    // Sent as raw JSON text: a JS number literal would already be rounded by the test's own JSON.stringify.
    const big = await c.post(
      '/1.6/items',
      unchecked('{"code":"BIG","name":"Veľké","sellPrice":12345678901234.5678}'),
    );
    expect(big.status).toBe(201);
    expect(big.text).toContain('"sellPrice":12345678901234.5678');
  });
});

describe('XML', () => {
  const parser = new XMLParser({ parseTagValue: false });

  it('answers the same data as well-formed XML on Accept: application/xml', async () => {
    const r = await c.get('/1.6/warehouses', { Accept: 'application/xml' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/xml/);
    expect(XMLValidator.validate(r.text)).toBe(true);
    const doc = parser.parse(r.text);
    expect(doc.Warehouses.totalCount).toBe('1');
    expect(doc.Warehouses.items.item).toMatchObject({
      code: 'HS',
      name: 'Hlavný sklad',
      valuationMethod: 'FIFO',
    });
    const json = await c.get('/1.6/warehouses');
    expect(doc.Warehouses.items.item.id).toBe(json.body.items[0].id);
  });

  it('accepts XML request bodies with array wrappers and answers errors as XML', async () => {
    const xml = `<?xml version="1.0"?><VatCode><code>X23</code><type>O</type><country>sk</country><rate>23</rate>
      <validFrom>2025-01-01</validFrom><kind>standard</kind>
      <paragraphs><paragraph><code>P1</code><text>Prvý</text><isDefault>true</isDefault></paragraph><paragraph><code>P2</code><text>Druhý</text></paragraph></paragraphs></VatCode>`;
    const r = await c.post('/1.6/vat-codes', unchecked(xml), {
      'Content-Type': 'application/xml',
      Accept: 'application/xml',
    });
    expect(r.status).toBe(201);
    const doc = parser.parse(r.text);
    expect(doc.VatCode).toMatchObject({ code: 'X23', country: 'SK', rate: '23' });
    expect(doc.VatCode.paragraphs.paragraph.map((p: any) => [p.code, p.isDefault])).toEqual([
      ['P1', 'true'],
      ['P2', 'false'],
    ]);
    const bad = await c.post('/1.6/units', unchecked('<Unit><code>x</code>'), {
      'Content-Type': 'application/xml',
      Accept: 'application/xml',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+xml/);
    expect(parser.parse(bad.text).problem.code).toBe('BadRequest');
  });
});

describe('lists', () => {
  it('pages with the list envelope; a page past the end is empty', async () => {
    for (let i = 0; i < 7; i++) await c.post('/1.6/projects', { code: `PRJ${i}`, name: `Projekt ${i}` });
    const p1 = await c.get('/1.6/projects?pageSize=3');
    expect(p1.body).toMatchObject({ page: 1, pageSize: 3, totalCount: 7 });
    expect(p1.body.items.map((x: any) => x.code)).toEqual(['PRJ0', 'PRJ1', 'PRJ2']);
    const p3 = await c.get('/1.6/projects?page=3&PageSize=3');
    expect(p3.body.items.map((x: any) => x.code)).toEqual(['PRJ6']);
    expect((await c.get('/1.6/projects?page=9&pageSize=3')).body.items).toEqual([]);
    expect((await c.get('/1.6/projects?pageSize=501')).status).toBe(400);
  });

  it('keeps code lists apart', async () => {
    expect((await c.get('/1.6/payment-types')).body.items.map((x: any) => x.code)).toEqual([
      'DOB',
      'HOT',
      'KAR',
      'PP',
    ]);
    expect((await c.get('/1.6/persons')).body.totalCount).toBe(0);
    const pt = (await c.get('/1.6/payment-types')).body.items[0];
    expect((await c.get(`/1.6/cost-centers/${pt.id}`)).status).toBe(404);
  });
});

describe('request id', () => {
  it('echoes a given X-Request-Id and makes one otherwise', async () => {
    const r = await c.get('/1.6/units', { 'X-Request-Id': 'abc-123' });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
    const r2 = await c.get('/1.6/units');
    expect(r2.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('health', () => {
  it('reports database, NATS and one responder per service', async () => {
    const r = await send(stack.app, 'GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'ok',
      database: 'ok',
      nats: 'ok',
      services: { warehouse: 1, invoicing: 1, reporting: 1 },
    });
  });
});
