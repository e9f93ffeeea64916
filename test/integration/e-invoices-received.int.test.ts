/**
 * Received e-invoices become purchase invoices (issue #21; DESIGN §6a "Received e-invoices"): hand-written
 * documents (a foreign supplier in CZK, a Slovak supplier's CreditNote) and one issued by another company
 * of the stack, mapped to exact purchase invoices with their archived bytes; every refusal (not XML, not
 * UBL, hostile XML, not for this company, rules failing, a duplicate, too large) with nothing stored.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, SLOVAK_SELLER, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

let stack: Stack;
let demo: Client;
let other: Client;
const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/e-invoices', name));

/** POSTs a document as received (the typed client sends a string body as it is; JSON answers are checked against the OpenAPI document). */
const receive = (c: Client, body: string | Buffer, headers: Record<string, string> = {}) =>
  c.post('/1.6/purchase/e-invoices', unchecked(body.toString()), {
    'Content-Type': 'application/xml',
    ...headers,
  });
/** The archived bytes of a purchase invoice, as text, and its ETag. */
const archivedOf = async (c: Client, id: string) => {
  const r = await c.get(`/1.6/purchase/invoices/${id}/e-invoice`);
  return { status: r.status, text: r.text, etag: r.headers.get('ETag') };
};
const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('hex')}"`;
const count = async (c: Client) => ok(await c.get('/1.6/purchase/invoices')).totalCount as number;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bratislava' }).format(new Date());

beforeAll(async () => {
  stack = await startStack();
  // The buyer the hand-written documents name (IČ DPH SK2020123456, endpoint 0245:2020123456).
  demo = await stack.company(SLOVAK_SELLER);
  other = await stack.company({
    name: 'Iná firma s.r.o.',
    country: 'SK',
    vatNumber: 'SK2022222222',
    companyNumber: '47111222',
    street: 'Dlhá 1',
    city: 'Nitra',
    postalCode: '94901',
    iban: 'SK3112000000198742637541',
  });
});
afterAll(() => stack?.stop());

describe('documents become purchase invoices', () => {
  it('official look-alikes (issue #35): line charges, allowances and a price base quantity; a plain EN 16931 return line', async () => {
    const allow = await receive(demo, fixture('line-allowances-base-quantity.xml'));
    expect(allow.status).toBe(201);
    expect(allow.body).toMatchObject({
      externalRecordNumber: 'ALW-2026-5',
      sumTotal: 5196.75,
      sumVat: 971.75,
    });
    expect(allow.body.rows.map((r: any) => [r.itemsAmount, r.price, r.sum])).toEqual([
      [10, 410, 4000],
      [10, 22.5, 225],
    ]);
    const cen = await receive(demo, fixture('en16931-return-line.xml'));
    expect(cen.status).toBe(201);
    expect(cen.body).toMatchObject({ externalRecordNumber: 'CEN-2026-9', sumTotal: 110.72 });
    expect(cen.body.rows.map((r: any) => r.sum)).toEqual([200, -109.98]);
  });

  it('a Czech supplier in CZK (reverse charge): new partner, record-mode rows, local sums, bytes archived', async () => {
    const bytes = fixture('cz-supplier-czk.xml');
    const r = await receive(demo, bytes);
    const inv = r.body;
    expect(r.status).toBe(201);
    expect(inv).toMatchObject({
      externalRecordNumber: 'CZ-2026-0815',
      dateCreated: '2026-10-30',
      dateValidTo: '2026-11-29',
      dateDelivery: '2026-10-28',
      dateAccounting: today(),
      Period: today().slice(0, 7),
      currency1: 'CZK',
      sum: 12500,
      sumVat: 0,
      sumTotal: 12500,
      source: 'eInvoice',
      vatSummary: [{ category: 'AE', rate: 0, base: 12500, vat: 0 }],
    });
    // No EUR VAT to derive a rate from (0.00): the local sums equal the document's (docs/decisions.md).
    expect(inv.localSum).toBe(12500);
    expect(inv.rows).toEqual([
      expect.objectContaining({
        name: 'Zelená káva Brazílie',
        code: 'ZK-BR',
        itemsAmount: 25,
        price: 500,
        sum: 12500,
        // Reverse charge (AE) from a foreign supplier: the buyer self-assesses (issue #37, §69(3)).
        vatRate: null,
        vatCode: 'I-SK23-SV',
      }),
    ]);
    expect(inv.inputVat.map((l: any) => [l.vatCode, l.kind, l.rate, l.selfAssessed])).toEqual([
      ['I-SK23-SV', 'foreignServices', 23, true],
    ]);
    const partner = ok(await demo.get(`/1.6/partners/${inv.partnerId}`));
    expect(partner).toMatchObject({
      name: 'Pražírna Brno s.r.o.',
      country: 'CZ',
      vatNumber: 'CZ12345678',
      companyNumber: '12345678',
      street: 'Masarykova 10',
      city: 'Brno',
      postalCode: '60200',
      peppolId: '9929:CZ12345678',
    });
    // Byte for byte: the same text, and the ETag is the SHA-256 of the bytes that were sent.
    const archived = await archivedOf(demo, inv.id);
    expect([archived.status, archived.text, archived.etag]).toEqual([
      200,
      bytes.toString('utf8'),
      etagOf(bytes),
    ]);
    // The same supplier and number again: 409, nothing stored twice.
    const before = await count(demo);
    const dup = await receive(demo, bytes);
    expect([dup.status, dup.body.code]).toEqual([409, 'DuplicateRecordNumber']);
    expect(await count(demo)).toBe(before);
  });

  it('a Slovak supplier’s CreditNote books negative, with its allowance as a row and input VAT per rate', async () => {
    const r = await receive(demo, fixture('sk-credit-note.xml'), { Accept: 'application/json' });
    const inv = r.body;
    expect(r.status).toBe(201);
    expect([inv.sum, inv.sumVat, inv.sumTotal, inv.localSum]).toEqual([-148.7, -32.05, -180.75, -148.7]);
    expect(inv.rows.map((x: any) => [x.name, x.itemsAmount, x.price, x.sum, x.vatRate])).toEqual([
      ['Káva Arabica 1 kg', -10, 10, -100, 23],
      ['Sušienky', -6, 8.95, -53.7, 19],
      ['Zľava', 1, 5, 5, 23],
    ]);
    expect(inv.vatSummary).toEqual([
      { category: 'S', rate: 23, base: -95, vat: -21.85 },
      { category: 'S', rate: 19, base: -53.7, vat: -10.2 },
    ]);
    expect([inv.dateDelivery, inv.dateValidTo]).toEqual(['2026-11-01', '2026-11-16']);
    // Input VAT is posted (debit 343 / credit 321).
    expect(inv.accountingEntries).toContainEqual(
      expect.objectContaining({ debitAccount: '343', creditAccount: '321', amount: -32.05 }),
    );
  });

  it('an e-invoice issued by another company of the stack arrives with its figures and bytes', async () => {
    const wh = (await warehouse(other)).id;
    const buyer = ok(
      await other.post(
        '/1.6/partners',
        unchecked({
          code: 'DEMO',
          name: 'Demo Obchod s.r.o.',
          country: 'SK',
          vatNumber: 'SK2020123456',
          companyNumber: '50123456',
          street: 'Hlavná 12',
          city: 'Bratislava',
          postalCode: '81101',
        }),
      ),
      201,
    );
    // 4 × 12.50 at 23 % = 50.00 + 11.50; 3 × 2.10 at 5 % = 6.30 + 0.32 (0.315 half up); total 68.12.
    const sale = ok(
      await other.post(
        '/1.6/sales/invoices',
        unchecked({
          ordnerCode: 'OF',
          warehouseId: wh,
          dateCreated: today(),
          partnerId: buyer.id,
          rows: [
            { name: 'Káva', quantity: 4, price: 12.5, vatRate: 23 },
            { name: 'Mlieko', quantity: 3, price: 2.1, vatRate: 5 },
          ],
        }),
      ),
      201,
    );
    expect(sale.sumTotal).toBe(68.12);
    const issued = await other.post(`/1.6/sales/invoices/${sale.id}/e-invoice`);
    const bytes = Buffer.from(issued.text, 'utf8');
    expect([issued.status, issued.headers.get('ETag')]).toEqual([201, etagOf(bytes)]);
    const r = await receive(demo, bytes);
    const inv = r.body;
    expect(r.status).toBe(201);
    expect([inv.externalRecordNumber, inv.sum, inv.sumVat, inv.sumTotal]).toEqual([
      sale.recordNumber,
      56.3,
      11.82,
      68.12,
    ]);
    expect(inv.vatSummary).toEqual([
      { category: 'S', rate: 23, base: 50, vat: 11.5 },
      { category: 'S', rate: 5, base: 6.3, vat: 0.32 },
    ]);
    // The receiver's archive holds exactly the sender's issued bytes.
    expect((await archivedOf(demo, inv.id)).etag).toBe(issued.headers.get('ETag'));
    // The other company is not the buyer of its own invoice.
    const wrong = await receive(other, bytes);
    expect([wrong.status, wrong.body.code]).toEqual([422, 'EInvoiceNotForThisCompany']);
  });
});

describe('refusals store nothing', () => {
  const base = () => fixture('sk-credit-note.xml').toString('utf8');

  it.each([
    ['not XML', 'this is not xml', 400, 'BadRequest'],
    ['not well-formed', '<CreditNote><cbc:ID>1</CreditNote>', 400, 'BadRequest'],
    ['not UBL', '<?xml version="1.0"?><Order xmlns="urn:x"><ID>1</ID></Order>', 400, 'BadRequest'],
    [
      'billion laughs',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&lol2;</ID></Invoice>',
      400,
      'BadRequest',
    ],
    [
      'external entity',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>',
      400,
      'BadRequest',
    ],
  ])('%s → %s', async (_name, body, status, code) => {
    const before = await count(demo);
    const r = await receive(demo, body);
    const p = r.body;
    expect([r.status, p.code]).toEqual([status, code]);
    expect(JSON.stringify(p)).not.toContain('root:');
    expect(await count(demo)).toBe(before);
  });

  it('a document for another company → 422 EInvoiceNotForThisCompany', async () => {
    const before = await count(other);
    const r = await receive(other, base());
    expect([r.status, r.body.code]).toEqual([422, 'EInvoiceNotForThisCompany']);
    expect(await count(other)).toBe(before);
  });

  it('broken arithmetic → 422 EInvoiceNotValid naming BR-CO-15 and BR-CO-16', async () => {
    const before = await count(demo);
    const doc = base()
      .replace('<cbc:ID>DOB-2026-17</cbc:ID>', '<cbc:ID>DOB-2026-99</cbc:ID>')
      .replace(
        '<cbc:TaxInclusiveAmount currencyID="EUR">180.75',
        '<cbc:TaxInclusiveAmount currencyID="EUR">181.75',
      );
    // The total with VAT no longer adds up (BR-CO-15), nor does the amount due that was left as it was (BR-CO-16).
    const r = await receive(demo, doc);
    expect([r.status, r.body.code]).toEqual([422, 'EInvoiceNotValid']);
    expect(r.body.errors.map((e: any) => e.message.split(']')[0])).toEqual(['[BR-CO-15', '[BR-CO-16']);
    // With the amount due moved along, only BR-CO-15 is left.
    const only15 = await receive(
      demo,
      doc.replace('<cbc:PayableAmount currencyID="EUR">180.75', '<cbc:PayableAmount currencyID="EUR">181.75'),
    );
    expect(only15.body.errors.map((e: any) => e.message.split(']')[0])).toEqual(['[BR-CO-15']);
    expect(await count(demo)).toBe(before);
  });

  it('a wrong Content-Type → 400; a body over the limit → 413', async () => {
    const r = await receive(demo, base(), { 'Content-Type': 'application/json' });
    expect(r.status).toBe(400);
    const big = `<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${' '.repeat(5 * 1024 * 1024)}</Invoice>`;
    const tooLarge = await receive(demo, big);
    expect(tooLarge.status).toBe(413);
  });
});
