/**
 * Received invoices a person can read (issue #35): `GET /1.6/reports/PurchaseInvoice?recordID=<purchase
 * invoice>` and `…/ReceivedEInvoice?recordID=<inbox record>` render the document from its archived bytes,
 * in Slovak. The text of each PDF (MuPDF) carries the document's own figures: hand-written documents (a
 * Czech supplier in CZK with reverse charge, a Slovak credit note with a document allowance, line charges
 * and allowances with a base quantity, a plain EN 16931 return line). The official CEN and Peppol examples
 * were rendered the same way during development (docs/decisions.md); they are not kept in the repository.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, SLOVAK_SELLER } from '../support/fixtures.js';
import { checkPdf } from '../support/pdf.js';
import { type Client, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

let stack: Stack;
let demo: Client;
const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../fixtures/e-invoices', name), 'utf8');

beforeAll(async () => {
  stack = await startStack();
  demo = await stack.company(SLOVAK_SELLER);
});
afterAll(() => stack?.stop());

async function pdfText(report: string, id: string, accept = 'application/pdf') {
  const res = await stack.app.request(`/1.6/reports/${report}?output=pdf&recordID=${id}`, {
    headers: { ...demo.headers, Accept: accept },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    text: res.status === 200 ? checkPdf(bytes).text : '',
  };
}

async function received(name: string) {
  const r = await demo.post('/1.6/purchase/e-invoices', unchecked(fixture(name)), {
    'Content-Type': 'application/xml',
  });
  expect(r.status).toBe(201);
  const record = ok(await demo.get('/1.6/purchase/e-invoices?pageSize=500')).items.find(
    (x: any) => x.purchaseInvoiceId === r.body.id,
  );
  expect(record).toMatchObject({ channel: 'upload', status: 'booked' });
  return { invoice: r.body, record };
}

describe('the readable printout of a received e-invoice', () => {
  it.each([
    [
      'line-allowances-base-quantity.xml',
      [
        'PRIJATÁ FAKTÚRA',
        'č. ALW-2026-5',
        'Veľkoobchod Káva s.r.o.',
        'IČO: 44555666',
        'IČ DPH: SK2021555555',
        'Demo Obchod s.r.o.',
        'Dátum vystavenia 18. 11. 2026',
        'Dátum splatnosti 2. 12. 2026',
        'Mlynček na kávu',
        '410,00 S 23 % -100,00 4 000,00',
        '45,00 / 2 S 23 % 225,00',
        'S – základná/znížená 23 % 4 225,00 971,75',
        'Spolu s DPH 5 196,75',
        'Na úhradu (EUR) 5 196,75',
        'SK75 1100 0000 0026 2000 0000',
        'Variabilný symbol 2026118',
        'Poznámka: Ďakujeme za objednávku.',
      ],
    ],
    [
      'sk-credit-note.xml',
      [
        'PRIJATÝ DOBROPIS',
        'č. DOB-2026-17',
        'Opravovaná faktúra FA-2026-100 1. 10. 2026',
        'Dátum dodania 1. 11. 2026',
        'Káva Arabica 1 kg',
        'zľava Zľava S 23 % -5,00',
        '23 % 95,00 21,85',
        '19 % 53,70 10,20',
        'Zľavy -5,00',
        'Spolu bez DPH 148,70',
        'Na úhradu (EUR) 180,75',
      ],
    ],
    [
      'en16931-return-line.xml',
      ['č. CEN-2026-9', 'Fritovací olej 10 kg RETOUR', '6 EA 18,33 S 23 % -109,98', 'Na úhradu (EUR) 110,72'],
    ],
    [
      'cz-supplier-czk.xml',
      ['PRIJATÁ FAKTÚRA', 'č. CZ-2026-0815', 'AE – prenesenie daňovej povinnosti', '(CZK)'],
    ],
  ])(
    '%s: its own figures, by purchase invoice and by inbox record, with the SHA-256 of the legal XML',
    async (name, expected) => {
      const { invoice, record } = await received(name);
      const byInvoice = await pdfText('PurchaseInvoice', invoice.id);
      expect([byInvoice.status, byInvoice.type]).toEqual([200, 'application/pdf']);
      for (const t of expected) expect(byInvoice.text).toContain(t);
      expect(byInvoice.text).toContain(`SHA-256 ${record.sha256}`);
      expect(byInvoice.text).toContain('Právne záväzným dokladom je elektronická faktúra vo formáte XML');
      const byRecord = await pdfText('ReceivedEInvoice', record.id);
      expect(byRecord.status).toBe(200);
      expect(byRecord.text).toBe(byInvoice.text);
    },
  );

  it('the Accept rule of every printout; a purchase invoice entered by hand, or another company’s, is 404', async () => {
    const any = ok(await demo.get('/1.6/purchase/invoices')).items.find(
      (x: any) => x.externalRecordNumber === 'DOB-2026-17',
    );
    expect((await pdfText('PurchaseInvoice', any.id, 'application/json')).status).toBe(406);
    const partner = ok(await demo.get('/1.6/partners')).items[0];
    const manual = ok(
      await demo.post(
        '/1.6/purchase/invoices',
        unchecked({
          partnerId: partner.id,
          dateCreated: '2026-11-20',
          rows: [{ name: 'Nájom', itemsAmount: 1, price: 100 }],
        }),
      ),
      201,
    );
    expect((await pdfText('PurchaseInvoice', manual.id)).status).toBe(404);
    const other = await stack.company({ name: 'Iná s.r.o.', country: 'SK' });
    const res = await stack.app.request(`/1.6/reports/PurchaseInvoice?output=pdf&recordID=${any.id}`, {
      headers: { ...other.headers, Accept: 'application/pdf' },
    });
    expect(res.status).toBe(404);
  });
});
