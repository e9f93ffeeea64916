/**
 * E-invoicing through HTTP (issue #21; DESIGN §6a): every VAT case as a Peppol BIS Billing 3.0 UBL
 * document with exact values read back by XPath, issuing (frozen bytes, PUT refused, idempotent, the
 * event through a durable consumer of the access-point user), received documents booked as purchase
 * invoices with their archived bytes, and every refusal with nothing stored.
 *
 * The expected figures are worked out by hand in the comments; `EINVOICE_DUMP_DIR=/tmp/x pnpm test
 * e-invoices` also writes every produced document there for the official validator (development only).
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, ok, SLOVAK_SELLER as SELLER, warehouse } from '../support/fixtures.js';
import { type Client, type Reply, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';
import { type Xml, xml } from '../support/xml.js';

let stack: Stack;
let a: Client;
let whId: string;
let units: Record<string, string> = {};
const P: Record<string, any> = {};
const DATE = '2026-11-20';

/** Issues the e-invoice of invoice `id` (the typed client; the answer is the XML or a problem). */
const issue = (id: string) => a.post(`/1.6/sales/invoices/${id}/e-invoice`);

const invoice = async (body: Record<string, unknown>) =>
  ok(
    await a.post(
      '/1.6/sales/invoices',
      unchecked({ ordnerCode: 'OF', warehouseId: whId, dateCreated: DATE, ...body }),
    ),
    201,
  );

/** GET of the draft e-invoice, parsed. */
async function draft(id: string, name: string): Promise<{ x: Xml; res: Reply; text: string }> {
  const res = await a.get(`/1.6/sales/invoices/${id}/e-invoice`, { Accept: 'application/xml' });
  if (res.status !== 200) throw new Error(`${res.status}: ${res.text}`);
  return { x: xml(res.text, name), res, text: res.text };
}

beforeAll(async () => {
  stack = await startStack();
  a = await stack.company(SELLER);
  await stack.company({
    name: 'Odberateľ a.s.',
    country: 'SK',
    vatNumber: 'SK2021987654',
    companyNumber: '36789012',
    taxNumber: '2021987654',
    street: 'Námestie SNP 5',
    city: 'Banská Bystrica',
    postalCode: '97401',
  });
  whId = (await warehouse(a)).id;
  units = Object.fromEntries(ok(await a.get('/1.6/units')).items.map((u: any) => [u.code, u.uneceCode]));
  const partner = async (body: Record<string, unknown>) =>
    ok(await a.post('/1.6/partners', unchecked(body)), 201);
  P.sk = await partner({
    code: 'SKB',
    name: 'Odberateľ a.s.',
    country: 'SK',
    companyNumber: '36789012',
    taxNumber: '2021987654',
    vatNumber: 'SK2021987654',
    street: 'Námestie SNP 5',
    city: 'Banská Bystrica',
    postalCode: '97401',
    dueDays: 14,
  });
  P.de = await partner({
    code: 'DEB',
    name: 'Müller GmbH',
    country: 'DE',
    vatNumber: 'DE123456789',
    street: 'Leopoldstraße 8',
    city: 'München',
    postalCode: '80802',
  });
  P.us = await partner({
    code: 'USB',
    name: 'Coffee Inc.',
    country: 'US',
    companyNumber: '123456789',
    street: '5th Avenue 1',
    city: 'New York',
    postalCode: '10001',
    peppolId: '0060:123456789',
  });
  P.consumer = await partner({
    code: 'CZC',
    name: 'Jana Nováková',
    country: 'CZ',
    street: 'Vinohradská 12',
    city: 'Praha',
    postalCode: '12000',
  });
  P.nostreet = await partner({
    code: 'NOS',
    name: 'Bez ulice s.r.o.',
    country: 'SK',
    vatNumber: 'SK2021111111',
    city: 'Košice',
    postalCode: '04001',
  });
});
afterAll(() => stack?.stop());

describe('master data the e-invoice needs', () => {
  it('company profile: GET, PUT of the whole record, default endpoint 0245:<DIČ>', async () => {
    const co = ok(await a.get('/1.6/company'));
    expect([
      co.name,
      co.companyNumber,
      co.taxNumber,
      co.vatNumber,
      co.street,
      co.city,
      co.postalCode,
    ]).toEqual([
      'Demo Obchod s.r.o.',
      '50123456',
      '2020123456',
      'SK2020123456',
      'Hlavná 12',
      'Bratislava',
      '81101',
    ]);
    expect(co.registration).toBe(SELLER.registration);
    expect(co.peppolId).toBeNull();
    expect(co.peppolEndpoint).toBe('0245:2020123456');
    const back = ok(await a.put('/1.6/company', unchecked({ ...co, phone: '+421 2 9999 0000' })));
    expect(back.phone).toBe('+421 2 9999 0000');
    expect(back.peppolEndpoint).toBe('0245:2020123456');
    const bad = await a.put('/1.6/company', unchecked({ ...co, peppolId: '1234:abc' }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path)).toContain('peppolId');
  });

  it('partner: structured address composes address; peppolId needs an EAS scheme (400 naming it)', async () => {
    expect(P.sk.address).toBe('Námestie SNP 5, 97401 Banská Bystrica');
    expect([P.sk.street, P.sk.city, P.sk.postalCode, P.sk.taxNumber]).toEqual([
      'Námestie SNP 5',
      'Banská Bystrica',
      '97401',
      '2021987654',
    ]);
    const r = await a.post('/1.6/partners', unchecked({ code: 'BAD', name: 'X', peppolId: '0245' }));
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: any) => e.path)).toEqual(['peppolId']);
  });

  it('units carry their UN/ECE code', () => {
    expect(units).toMatchObject({ ks: 'H87', kg: 'KGM', m: 'MTR', h: 'HUR', l: 'LTR' });
  });
});

describe('outbound: every VAT case', () => {
  it('domestic 23 %: parties, dates, payment and totals of the invoice', async () => {
    const it1 = await item(a, { code: 'KAV', name: 'Káva zrnková', unitCode: 'ks' });
    // 3 × 100.00 = 300.00; VAT 23 % = 69.00; total 369.00.
    const inv = await invoice({
      partnerId: P.sk.id,
      orderRecordNo: 'OBJ-4711',
      dateDelivery: '2026-11-18',
      rows: [{ itemId: it1.id, quantity: 3, price: 100 }],
    });
    expect([inv.sumBase, inv.sumVat, inv.sumTotal]).toEqual([300, 69, 369]);
    const { x, res } = await draft(inv.id, 'domestic-23');
    expect(res.headers.get('E-Invoice-Status')).toBe('draft');
    expect(res.headers.get('Content-Type')).toMatch(/^application\/xml/);
    expect(x.one('/inv:Invoice/cbc:CustomizationID')).toBe(
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    );
    expect(x.one('/inv:Invoice/cbc:ProfileID')).toBe('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    expect(x.one('/inv:Invoice/cbc:ID')).toBe(inv.recordNumber);
    expect(x.one('/inv:Invoice/cbc:InvoiceTypeCode')).toBe('380');
    expect(x.one('/inv:Invoice/cbc:IssueDate')).toBe(DATE);
    expect(x.one('/inv:Invoice/cbc:TaxPointDate')).toBe('2026-11-18');
    expect(x.one('/inv:Invoice/cbc:DueDate')).toBe('2026-12-04');
    expect(x.one('/inv:Invoice/cbc:DocumentCurrencyCode')).toBe('EUR');
    expect(x.one('/inv:Invoice/cac:OrderReference/cbc:ID')).toBe('OBJ-4711');
    const seller = '/inv:Invoice/cac:AccountingSupplierParty/cac:Party';
    expect(x.one(`${seller}/cbc:EndpointID`)).toBe('2020123456');
    expect(x.one(`${seller}/cbc:EndpointID/@schemeID`)).toBe('0245');
    expect(x.one(`${seller}/cac:PartyLegalEntity/cbc:CompanyID`)).toBe('50123456');
    expect(x.one(`${seller}/cac:PartyLegalEntity/cbc:CompanyLegalForm`)).toBe(SELLER.registration);
    expect(x.one(`${seller}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID`)).toBe(
      'SK2020123456',
    );
    expect(x.all(`${seller}/cac:PostalAddress/*[not(self::cac:Country)]`)).toEqual([
      'Hlavná 12',
      'Bratislava',
      '81101',
    ]);
    const buyer = '/inv:Invoice/cac:AccountingCustomerParty/cac:Party';
    expect(x.one(`${buyer}/cbc:EndpointID`)).toBe('2021987654');
    expect(x.one(`${buyer}/cac:PartyTaxScheme/cbc:CompanyID`)).toBe('SK2021987654');
    expect(x.all(`${buyer}/cac:PostalAddress/*[not(self::cac:Country)]`)).toEqual([
      'Námestie SNP 5',
      'Banská Bystrica',
      '97401',
    ]);
    expect(x.one(`${buyer}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`)).toBe('SK');
    expect(x.one('//cac:PaymentMeans/cbc:PaymentMeansCode')).toBe('58');
    expect(x.one('//cac:PaymentMeans/cbc:PaymentID')).toBe(inv.symbolVariable);
    expect(x.one('//cac:PayeeFinancialAccount/cbc:ID')).toBe('SK3112000000198742637541');
    expect(x.one('/inv:Invoice/cac:TaxTotal/cbc:TaxAmount')).toBe('69.00');
    expect(x.all('//cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toEqual(['S']);
    expect(x.all('//cac:TaxSubtotal/cac:TaxCategory/cbc:Percent')).toEqual(['23']);
    expect(x.one('//cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount')).toBe('300.00');
    expect(x.one('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('369.00');
    expect(x.one('//cac:InvoiceLine/cbc:InvoicedQuantity/@unitCode')).toBe('H87');
    expect(x.one('//cac:InvoiceLine/cac:Item/cbc:Name')).toBe('Káva zrnková');
    expect(x.one('//cac:InvoiceLine/cac:Price/cbc:PriceAmount')).toBe('100');
  });

  it('mixed 19 % and 5 %: one breakdown line per rate, each with the invoice summary figures', async () => {
    // 19 %: 2 × 49.90 = 99.80 → VAT 18.96; 5 %: 10 × 1.15 = 11.50 → VAT 0.58 (0.575 rounds half up).
    const inv = await invoice({
      partnerId: P.sk.id,
      rows: [
        { name: 'Kniha', quantity: 2, price: 49.9, vatRate: 19 },
        { name: 'Chlieb', quantity: 10, price: 1.15, vatRate: 5 },
      ],
    });
    const { x } = await draft(inv.id, 'mixed-19-5');
    const byRate = (r: string, what: string) =>
      x.one(`//cac:TaxSubtotal[cac:TaxCategory/cbc:Percent='${r}']/cbc:${what}`);
    expect([byRate('19', 'TaxableAmount'), byRate('19', 'TaxAmount')]).toEqual(['99.80', '18.96']);
    expect([byRate('5', 'TaxableAmount'), byRate('5', 'TaxAmount')]).toEqual(['11.50', '0.58']);
    expect(x.one('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe(String(inv.sumTotal.toFixed(2)));
    expect(inv.sumTotal).toBe(130.84);
  });

  it('gross prices: the net price carries more decimals, totals stay the invoice’s', async () => {
    // 1000 × 1.23 gross at 19 %: VAT round(1230 × 19/119) = 196.39, base 1033.61; net price 1.0336 would
    // give 1033.60, so BT-146 is 1.03361 (R120). 7 × 4.99 = 34.93 gross → VAT 5.58, base 29.35, and
    // 7 × 4.1933 = 29.3531 is within half a cent, so that price stays.
    // The summary: Σ gross 1264.93 → VAT round(1264.93 × 19/119) = 201.96, base 1062.97 (rows: 1062.96).
    const inv = await invoice({
      partnerId: P.sk.id,
      rows: [
        { name: 'Voda', quantity: 1000, priceBrutto: 1.23, vatRate: 19 },
        { name: 'Džús', quantity: 7, priceBrutto: 4.99, vatRate: 19 },
      ],
    });
    expect([inv.sumBase, inv.sumVat, inv.sumTotal]).toEqual([1062.97, 201.96, 1264.93]);
    const { x } = await draft(inv.id, 'gross');
    expect(x.all('//cac:InvoiceLine/cbc:LineExtensionAmount')).toEqual(['1033.61', '29.35']);
    expect(x.all('//cac:InvoiceLine/cac:Price/cbc:PriceAmount')).toEqual(['1.03361', '4.1933']);
    // The cent by which the rows' bases miss the summary's base is a rounding charge.
    expect(x.one('/inv:Invoice/cac:AllowanceCharge/cbc:ChargeIndicator')).toBe('true');
    expect(x.one('/inv:Invoice/cac:AllowanceCharge/cbc:Amount')).toBe('0.01');
    expect(x.one('//cac:TaxSubtotal/cbc:TaxableAmount')).toBe('1062.97');
    expect(x.one('//cac:TaxSubtotal/cbc:TaxAmount')).toBe('201.96');
    expect(x.one('//cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toBe('1264.93');
  });

  it('bonusPercent: a document-level allowance (reason 95) per rate', async () => {
    // 3 × 8.90 = 26.70 before the bonus; base round(26.70 × 0.9) = 24.03; allowance 2.67; VAT 5.53.
    const inv = await invoice({
      partnerId: P.sk.id,
      bonusPercent: 10,
      rows: [{ name: 'Káva', quantity: 3, price: 8.9 }],
    });
    expect([inv.sumBase, inv.sumVat, inv.sumTotal]).toEqual([24.03, 5.53, 29.56]);
    const { x } = await draft(inv.id, 'bonus');
    expect(x.one('//cac:InvoiceLine/cbc:LineExtensionAmount')).toBe('26.70');
    expect(x.one('/inv:Invoice/cac:AllowanceCharge/cbc:ChargeIndicator')).toBe('false');
    expect(x.one('/inv:Invoice/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode')).toBe('95');
    expect(x.one('/inv:Invoice/cac:AllowanceCharge/cbc:Amount')).toBe('2.67');
    expect(x.one('//cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount')).toBe('2.67');
    expect(x.one('//cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount')).toBe('24.03');
    expect(x.one('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('29.56');
  });

  it('reverse charge within the EU (AE) and intra-community supply (K)', async () => {
    const codes = ok(await a.get('/1.6/vat-codes?pageSize=500')).items;
    const ic = codes.find((v: any) => v.code === 'SK0-IC');
    const services = ic.paragraphs.find((p: any) => p.code === 'IC-SERVICES').id;
    const ae = await invoice({
      partnerId: P.de.id,
      vatCode: 'SK0-IC',
      vatParagraphID: services,
      rows: [{ name: 'Konzultácie', quantity: 10, price: 80, unitCode: 'h' }],
    });
    const x = (await draft(ae.id, 'reverse-charge')).x;
    expect(x.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('AE');
    expect(x.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).toBe('VATEX-EU-AE');
    expect(x.one('//cac:TaxSubtotal/cbc:TaxableAmount')).toBe('800.00');
    expect(x.one('//cac:TaxSubtotal/cbc:TaxAmount')).toBe('0.00');
    expect(x.one('//cac:InvoiceLine/cbc:InvoicedQuantity/@unitCode')).toBe('HUR');
    expect(x.one('/inv:Invoice/cac:AccountingCustomerParty/cac:Party/cbc:EndpointID/@schemeID')).toBe('9930');
    expect(x.one('/inv:Invoice/cac:AccountingCustomerParty/cac:Party/cbc:EndpointID')).toBe('DE123456789');
    const k = await invoice({
      partnerId: P.de.id,
      vatCode: 'SK0-IC',
      rows: [{ name: 'Mlynček', quantity: 2, price: 31.5 }],
    });
    const y = (await draft(k.id, 'intra-community')).x;
    expect(y.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('K');
    expect(y.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).toBe('VATEX-EU-IC');
    expect(
      y.one('/inv:Invoice/cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode'),
    ).toBe('DE');
    expect(y.one('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('63.00');
    // Issue #44: the middle party's supply in a triangular trade (§45): an intra-community supply (K) as
    // EN 16931 has no category of its own for it (the e-invoice's exemption text is the category's).
    const t = await invoice({
      partnerId: P.de.id,
      vatCode: 'SK0-IC',
      vatParagraphID: ic.paragraphs.find((p: any) => p.code === 'IC-TRIANGULAR').id,
      rows: [{ name: 'Stroj cez AT', quantity: 1, price: 300 }],
    });
    const z = (await draft(t.id, 'triangular')).x;
    expect(z.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('K');
    expect(z.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).toBe('VATEX-EU-IC');
    expect(z.one('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('300.00');
  });

  it('export (G) and exempt (E)', async () => {
    const g = await invoice({
      partnerId: P.us.id,
      vatCode: 'SK0-EX',
      rows: [{ name: 'Káva', quantity: 5, price: 10 }],
    });
    const x = (await draft(g.id, 'export')).x;
    expect(x.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('G');
    expect(x.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).toBe('VATEX-EU-G');
    expect(x.one('/inv:Invoice/cac:AccountingCustomerParty/cac:Party/cbc:EndpointID/@schemeID')).toBe('0060');
    const e = await invoice({
      partnerId: P.sk.id,
      vatCode: 'SK0-OS',
      rows: [{ name: 'Poistenie', quantity: 1, price: 120 }],
    });
    const y = (await draft(e.id, 'exempt')).x;
    expect(y.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('E');
    expect(y.one('//cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReason')).toMatch(/§ 28 až § 42/);
    expect(y.one('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('120.00');
  });

  it('credit note with correctedInvoiceId: CreditNote 381 with positive amounts and BT-25/26', async () => {
    const orig = await invoice({ partnerId: P.sk.id, rows: [{ name: 'Káva', quantity: 2, price: 50 }] });
    const bad = await a.post(
      '/1.6/sales/invoices',
      unchecked({
        ordnerCode: 'OF',
        warehouseId: whId,
        dateCreated: DATE,
        correctedInvoiceId: crypto.randomUUID(),
        rows: [{ name: 'X', quantity: -1, price: 1 }],
      }),
    );
    expect([bad.status, bad.body.code, bad.body.errors[0].path]).toEqual([
      422,
      'ReferenceNotFound',
      'correctedInvoiceId',
    ]);
    // −1 × 50.00 = −50.00, VAT −11.50, total −61.50.
    const cn = await invoice({
      partnerId: P.sk.id,
      correctedInvoiceId: orig.id,
      rows: [{ name: 'Káva', quantity: -1, price: 50 }],
    });
    expect(cn.correctedInvoiceId).toBe(orig.id);
    const { x } = await draft(cn.id, 'credit-note');
    expect(x.one('/cn:CreditNote/cbc:CreditNoteTypeCode')).toBe('381');
    expect(x.one('/cn:CreditNote/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).toBe(
      orig.recordNumber,
    );
    expect(x.one('/cn:CreditNote/cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate')).toBe(
      DATE,
    );
    expect(x.one('//cac:CreditNoteLine/cbc:CreditedQuantity')).toBe('1');
    expect(x.one('//cac:CreditNoteLine/cbc:LineExtensionAmount')).toBe('50.00');
    expect(x.one('//cac:TaxTotal/cbc:TaxAmount')).toBe('11.50');
    expect(x.one('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('61.50');
  });

  it('record mode: the figures as recorded', async () => {
    // Record mode keeps round(q × price) = 3 × 33.33 = 99.99 and round(q × 40.9959) = 122.99.
    const inv = await invoice({
      partnerId: P.sk.id,
      rows: [{ name: 'Služba', quantity: 3, price: 33.33, priceBrutto: 40.9959, vatRate: 23 }],
    });
    expect(inv.mode).toBe('record');
    const { x } = await draft(inv.id, 'record-mode');
    expect(x.one('//cac:InvoiceLine/cbc:LineExtensionAmount')).toBe('99.99');
    expect(x.one('//cac:TaxSubtotal/cbc:TaxAmount')).toBe(inv.sumVat.toFixed(2));
    expect(x.one('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe(inv.sumTotal.toFixed(2));
    expect(inv.sumTotal).toBe(122.99);
  });
});

describe('pre-flight rules and issuing', () => {
  it('an OSS sale to a consumer cannot be a Peppol e-invoice: 422 naming PEPPOL-EN16931-R010', async () => {
    const inv = await invoice({
      partnerId: P.consumer.id,
      partnerCountry: 'CZ',
      rows: [{ name: 'Káva', quantity: 1, price: 10 }],
    });
    const r = await issue(inv.id);
    const p = r.body;
    expect([r.status, p.code]).toEqual([422, 'EInvoiceNotValid']);
    expect(p.errors.map((e: any) => e.message.slice(0, 22))).toContain('[PEPPOL-EN16931-R010] ');
    expect(p.errors.find((e: any) => e.message.includes('R010')).path).toBe('partner.peppolId');
    expect(ok(await a.get(`/1.6/sales/invoices/${inv.id}`)).eInvoice.status).toBe('draft');
  });

  it('a buyer without street fails SK-09; fixed partner data then passes', async () => {
    const inv = await invoice({ partnerId: P.nostreet.id, rows: [{ name: 'Káva', quantity: 1, price: 10 }] });
    const r = await issue(inv.id);
    const p = r.body;
    expect(r.status).toBe(422);
    expect(p.errors).toEqual([
      { path: 'partner.street', message: '[SK-09] Buyer street (BT-50) is mandatory' },
    ]);
    ok(
      await a.put(
        `/1.6/partners/${P.nostreet.id}`,
        unchecked({ ...P.nostreet, street: 'Hlavná 1', address: null }),
      ),
    );
    const again = await issue(inv.id);
    expect(again.status).toBe(201);
  });

  it('issue: 201 with frozen bytes, the same bytes again, PUT refused, bytes unchanged after master data change', async () => {
    const inv = await invoice({ partnerId: P.sk.id, rows: [{ name: 'Káva', quantity: 1, price: 10 }] });
    const first = await issue(inv.id);
    const bytes = first.text;
    expect(first.status).toBe(201);
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const second = await issue(inv.id);
    expect([second.status, second.text]).toEqual([200, bytes]);
    const got = ok(await a.get(`/1.6/sales/invoices/${inv.id}`));
    expect(got.eInvoice.status).toBe('issued');
    expect(`"${got.eInvoice.sha256}"`).toBe(etag);
    const put = await a.put(
      `/1.6/sales/invoices/${inv.id}`,
      unchecked({ ...got, commentBelowItems: 'zmena' }),
    );
    expect([put.status, put.body.code]).toEqual([409, 'InvalidState']);
    const co = ok(await a.get('/1.6/company'));
    ok(await a.put('/1.6/company', unchecked({ ...co, street: 'Nová 1' })));
    ok(await a.put(`/1.6/partners/${P.sk.id}`, unchecked({ ...P.sk, name: 'Premenovaný a.s.' })));
    const later = await a.get(`/1.6/sales/invoices/${inv.id}/e-invoice`);
    expect([later.headers.get('E-Invoice-Status'), later.headers.get('ETag'), later.text]).toEqual([
      'issued',
      etag,
      bytes,
    ]);
    ok(await a.put('/1.6/company', unchecked(co)));
    ok(await a.put(`/1.6/partners/${P.sk.id}`, unchecked(P.sk)));
    // Payments stay allowed.
    ok(await a.post(`/1.6/sales/invoices/${inv.id}/payments`, { amount: 12.3 }), 201);
  });

  it('404 for an unknown, malformed or another company’s id (the same answer), 406 for an Accept without XML', async () => {
    const inv = await invoice({ partnerId: P.sk.id, rows: [{ name: 'Káva', quantity: 1, price: 5 }] });
    const stranger = await stack.company({ name: 'Cudzia s.r.o.', country: 'SK' });
    for (const r of [
      await a.get(`/1.6/sales/invoices/${crypto.randomUUID()}/e-invoice`),
      await a.get('/1.6/sales/invoices/not-a-guid/e-invoice'),
      await stranger.get(`/1.6/sales/invoices/${inv.id}/e-invoice`),
      await stranger.post(`/1.6/sales/invoices/${inv.id}/e-invoice`),
    ])
      expect([r.status, r.body.code]).toEqual([404, 'NotFound']);
    const json = await a.get(`/1.6/sales/invoices/${inv.id}/e-invoice`, { Accept: 'application/json' });
    expect([json.status, json.body.code]).toEqual([406, 'NotAcceptable']);
    expect(ok(await a.get(`/1.6/sales/invoices/${inv.id}`)).eInvoice.status).toBe('draft');
  });

  it('the e-invoice-issued event reaches a durable consumer of the access-point user, which may do nothing else', async () => {
    const nc = await stack.natsConnect('access-point');
    try {
      const jsm = await jetstreamManager(nc);
      const name = `ap-test-${Date.now()}`;
      await jsm.consumers.add('EVENTS', {
        durable_name: name,
        filter_subject: 'events.invoicing.e-invoice-issued',
        ack_policy: 'explicit' as any,
        deliver_policy: 'new' as any,
      });
      const inv = await invoice({ partnerId: P.sk.id, rows: [{ name: 'Káva', quantity: 2, price: 10 }] });
      const issued = await issue(inv.id);
      const bytes = Buffer.from(issued.text, 'utf8');
      const consumer = await jetstream(nc).consumers.get('EVENTS', name);
      let event: any;
      for (let i = 0; i < 50 && !event; i++) {
        const m = await consumer.next({ expires: 1000 });
        if (!m) continue;
        const e = m.json<any>();
        m.ack();
        if (e.invoiceId === inv.id) event = e;
      }
      expect(event).toMatchObject({
        recordNumber: inv.recordNumber,
        documentType: 'Invoice',
        senderId: '0245:2020123456',
        receiverId: '0245:2021987654',
      });
      expect(Buffer.from(event.document, 'base64').equals(bytes)).toBe(true);
      expect(`"${event.sha256}"`).toBe(issued.headers.get('ETag'));
      // Anything beyond its allow-list is refused by the server.
      await expect(
        jsm.consumers.add('EVENTS', {
          durable_name: `${name}-all`,
          filter_subject: 'events.>',
          ack_policy: 'explicit' as any,
        }),
      ).rejects.toThrow();
      await jsm.consumers.delete('EVENTS', name).catch(() => undefined);
    } finally {
      await nc.close();
    }
  });
});
