/**
 * The VAT filings through HTTP (issue #37, acceptance): a month of documents of every kind booked through
 * `/1.6`, the control statement's every line, section total and XML attribute against a statement worked
 * by hand from the instructions to KVDPH_2025, the VAT return's rows and their agreement with it, filing
 * frozen byte for byte, a late document making the next filing a supplementary one with only that change,
 * the quarter, and bad periods refused with nothing frozen.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dec, sum } from '@bm/money';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, ok, openYear, receive, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

let stack: Stack;
let c: Client;
const P: Record<string, any> = {};
/** Each company's warehouse (a sales invoice names one). */
const wh = new Map<Client, string>();
const S: Record<string, any> = {};

const COMPANY = {
  name: 'Výkazy s.r.o.',
  vatNumber: 'SK2020123456',
  taxNumber: '2020123456',
  street: 'Hlavná 1',
  city: 'Bratislava',
  postalCode: '811 01',
  country: 'SK',
  email: 'uctaren@vykazy.sk',
  ossRegistered: true,
  // Issue #44: what the VAT return's header needs.
  taxOffice: 'Daňový úrad Bratislava',
  authorizedPersonName: 'Jana Výkazová',
  authorizedPersonPhone: '+421 2 1234 5678',
  authorizedPersonEmail: 'jana@vykazy.sk',
};

const partner = async (code: string, over: Record<string, unknown>) =>
  ok(await c.post('/1.6/partners', unchecked({ code, name: `Partner ${code}`, ...over })), 201);
/** A sales invoice of ordner OF with tax point 2027-01-10 unless `dateCreated` is given. */
const sale = async (body: Record<string, unknown>, client = c) =>
  ok(
    await client.post(
      '/1.6/sales/invoices',
      unchecked({ ordnerCode: 'OF', warehouseId: wh.get(client), dateCreated: '2027-01-10', ...body }),
    ),
    201,
  );
/** A purchase invoice of one row dated 2027-01-15 unless given; `row` adds to the row. */
const purchase = async (
  number: string,
  partnerId: string,
  price: number,
  row: Record<string, unknown>,
  over: Record<string, unknown> = {},
  client = c,
) =>
  ok(
    await client.post(
      '/1.6/purchase/invoices',
      unchecked({
        partnerId,
        dateCreated: '2027-01-15',
        externalRecordNumber: number,
        rows: [{ name: `Nákup ${number}`, itemsAmount: 1, price, ...row }],
        ...over,
      }),
    ),
    201,
  );
const strip = (lines: any[]) => lines.map(({ documentIds: _d, ...l }) => l);

/** Each element of `Transakcie` as `Name a="v" …` in document order (attributes as written). */
function transactions(text: string): string[] {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  const t = doc.getElementsByTagName('Transakcie')[0];
  const out: string[] = [];
  for (let n = t?.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as unknown as Element;
    const attrs = Array.from({ length: e.attributes.length }, (_, i) => e.attributes[i]!);
    out.push([e.tagName, ...attrs.map((a) => `${a.name}="${a.value}"`)].join(' '));
  }
  return out;
}
const textOf = (text: string, tag: string) =>
  new DOMParser().parseFromString(text, 'application/xml').getElementsByTagName(tag)[0]?.textContent;

beforeAll(async () => {
  if (process.env.VAT_XML_DUMP_DIR) mkdirSync(process.env.VAT_XML_DUMP_DIR, { recursive: true });
  stack = await startStack();
  c = await stack.company(COMPANY);
  await openYear(c, 2027);
  wh.set(c, (await warehouse(c)).id);
  P.skB = await partner('SKB', { country: 'SK', vatNumber: 'SK2021111111' });
  P.deB = await partner('DEB', { country: 'DE', vatNumber: 'DE123456789' });
  P.usB = await partner('USB', { country: 'US' });
  P.czC = await partner('CZC', { country: 'CZ' });
  P.skC = await partner('SKC', { country: 'SK' });
  P.skS = await partner('SKS', { country: 'SK', vatNumber: 'SK2022222222' });
  P.czS = await partner('CZS', { country: 'CZ', vatNumber: 'CZ12345678' });
  P.usS = await partner('USS', { country: 'US' });
  P.shop = await partner('SHOP', { country: 'SK' });

  // Sales of January 2027 (tax point 2027-01-10).
  S.domestic = await sale({
    partnerId: P.skB.id,
    rows: [
      { name: 'Tovar 23', quantity: 1, price: 1000, vatCode: 'SK23' },
      { name: 'Tovar 19', quantity: 1, price: 200, vatCode: 'SK19' },
      { name: 'Kniha', quantity: 1, price: 100, vatCode: 'SK5' },
    ],
  });
  // §69(12)(g): steel sheets whose commodity code comes from the item, scrap with one given on the row.
  const steel = await item(c, { name: 'Oceľové plechy', unitCode: 'kg', commodityCode: '72081000' });
  await receive(c, wh.get(c)!, '2027-01-05', [[steel.id, 250, 8]]);
  S.rc = await sale({
    partnerId: P.skB.id,
    rows: [
      { itemId: steel.id, quantity: 250, price: 12, vatCode: 'SK0-RC-g' },
      {
        name: 'Šrot',
        quantity: 100,
        unitCode: 'kg',
        price: 1,
        vatCode: 'SK0-RC-g',
        commodityCode: '72044100',
      },
    ],
  });
  S.ic = await sale({
    partnerId: P.deB.id,
    vatCode: 'SK0-IC',
    rows: [{ name: 'Stroj', quantity: 1, price: 5000 }],
  });
  // Services to a business in another member state (§15(1)): only the recapitulative statement has them.
  const ic = ok(await c.get('/1.6/vat-codes?pageSize=500')).items.find((v: any) => v.code === 'SK0-IC');
  S.icServices = await sale({
    partnerId: P.deB.id,
    vatCode: 'SK0-IC',
    vatParagraphID: ic.paragraphs.find((p: any) => p.code === 'IC-SERVICES').id,
    rows: [{ name: 'Konzultácie', quantity: 10, price: 80, unitCode: 'h' }],
  });
  // Issue #44: the middle party's supply of a triangular trade (§45): only the recapitulative statement.
  P.atB = await partner('ATB', { country: 'AT', vatNumber: 'ATU13585627' });
  S.triangular = await sale({
    partnerId: P.atB.id,
    vatCode: 'SK0-IC',
    vatParagraphID: ic.paragraphs.find((p: any) => p.code === 'IC-TRIANGULAR').id,
    rows: [{ name: 'Stroj cez DE', quantity: 1, price: 3000 }],
  });
  S.export = await sale({
    partnerId: P.usB.id,
    vatCode: 'SK0-EX',
    rows: [{ name: 'Káva', quantity: 8, price: 100 }],
  });
  S.oss = await sale({
    partnerId: P.czC.id,
    partnerCountry: 'CZ',
    rows: [{ name: 'E-kniha', quantity: 1, price: 100 }],
  });
  S.exempt = await sale({
    partnerId: P.skB.id,
    vatCode: 'SK0-OS',
    rows: [{ name: 'Poistenie', quantity: 1, price: 120 }],
  });
  S.credit = await sale({
    partnerId: P.skB.id,
    correctedInvoiceId: S.domestic.id,
    rows: [{ name: 'Vrátený tovar', quantity: -1, price: 100, vatCode: 'SK23' }],
  });
  S.consumer = await sale({
    partnerId: P.skC.id,
    rows: [{ name: 'Tovar', quantity: 1, price: 50, vatCode: 'SK23' }],
  });

  // Purchases whose deduction falls in January 2027.
  S.f400 = await purchase('F-400', P.skS.id, 400, { vatRate: 23 });
  await purchase('F-100', P.skS.id, 100, { vatRate: 19, deductiblePercent: 50 });
  await purchase('CZ-1', P.czS.id, 2000, { vatCode: 'I-SK23-IC' });
  await purchase('RC-1', P.skS.id, 1000, { vatCode: 'I-SK23-RC' });
  await purchase('US-1', P.usS.id, 300, { vatCode: 'I-SK23-SV' });
  await purchase('BLOK-1', P.shop.id, 100, { vatRate: 23 }, { simplified: true });
  await purchase('BLOK-2', P.skS.id, 3000, { vatRate: 23 }, { simplified: true });
  await purchase('DOB-1', P.skS.id, 40, { itemsAmount: -1, vatRate: 23 }, { correctedInvoiceId: S.f400.id });
  await purchase(
    'CZ-CZK',
    P.czS.id,
    25125,
    { vatCode: 'I-SK23-IC' },
    { currency1: 'CZK', exchangeRate: 25.125 },
  );
  // Tax point in January, received in February: deducted in February (§51).
  await purchase(
    'F-FEB',
    P.skS.id,
    1000,
    { vatRate: 23 },
    { dateCreated: '2027-01-28', dateReceived: '2027-02-03' },
  );

  ok(
    await c.put(
      '/1.6/tax/control-statements/2027-01/manual' as any,
      {
        d1: { turnover: 1230, base23: 1000, vat23: 230 },
        d2: { base19: 100, vat19: 19 },
      } as any,
    ),
  );
}, 120_000);
afterAll(() => stack?.stop());

/**
 * Every XML a test reads is also written to `VAT_XML_DUMP_DIR` when it is set (issue #44: `.ci/run` then
 * checks each against the official schemas with `../shared/tools/vat-xml/validate.sh`).
 */
function dump<R extends { status: number; text: string; headers: Headers }>(r: R, path: string): R {
  const dir = process.env.VAT_XML_DUMP_DIR;
  if (
    dir &&
    r.status === 200 &&
    /xml/.test(r.headers.get('content-type') ?? '') &&
    r.text.startsWith('<?xml')
  )
    writeFileSync(
      join(dir, `${path.replace(/^\/1\.6\/tax\//, '').replace(/[^A-Za-z0-9-]+/g, '_')}-${++dumped}.xml`),
      r.text,
    );
  return r;
}
let dumped = 0;
const get = async (path: string, headers: Record<string, string> = {}, client = c) =>
  dump(await client.get(path as any, headers), path);
const post = async (path: string, body: Record<string, unknown> = {}) => c.post(path as any, unchecked(body));

describe('a month of every kind (2027-01)', () => {
  it('gives every section line and total as worked by hand', async () => {
    const s = ok(await get('/1.6/tax/control-statements/2027-01'));
    const [sk, skS] = [P.skB.vatNumber, P.skS.vatNumber];
    const no = (k: string) => S[k].recordNumber;
    expect(s).toMatchObject({
      period: '2027-01',
      form: 'KVDPH_2025',
      filings: 0,
      changed: false,
      deadline: '2027-02-25',
    });
    expect(s.xml).toBeUndefined();
    const x = s.sections;
    expect(strip(x.A1)).toEqual([
      {
        partnerVatNumber: sk,
        documentNumber: no('domestic'),
        taxPoint: '2027-01-10',
        base: 1000,
        vat: 230,
        rate: 23,
      },
      {
        partnerVatNumber: sk,
        documentNumber: no('domestic'),
        taxPoint: '2027-01-10',
        base: 200,
        vat: 38,
        rate: 19,
      },
      {
        partnerVatNumber: sk,
        documentNumber: no('domestic'),
        taxPoint: '2027-01-10',
        base: 100,
        vat: 5,
        rate: 5,
      },
    ]);
    expect(strip(x.A2)).toEqual([
      {
        partnerVatNumber: sk,
        documentNumber: no('rc'),
        taxPoint: '2027-01-10',
        base: 3000,
        commodityCode: '7208',
        goodsKind: null,
        quantity: 250,
        unit: 'kg',
      },
      {
        partnerVatNumber: sk,
        documentNumber: no('rc'),
        taxPoint: '2027-01-10',
        base: 100,
        commodityCode: '7204',
        goodsKind: null,
        quantity: 100,
        unit: 'kg',
      },
    ]);
    expect(
      x.B1.map((l: any) => [l.documentNumber, l.partnerVatNumber, l.base, l.vat, l.rate, l.deducted]),
    ).toEqual([
      ['CZ-1', 'CZ12345678', 2000, 460, 23, 460],
      ['CZ-CZK', 'CZ12345678', 1000, 230, 23, 230],
      ['RC-1', skS, 1000, 230, 23, 230],
      ['US-1', null, 300, 69, 23, 69],
    ]);
    expect(
      x.B2.map((l: any) => [
        l.documentNumber,
        l.partnerVatNumber,
        l.taxPoint,
        l.base,
        l.vat,
        l.rate,
        l.deducted,
      ]),
    ).toEqual([
      ['F-100', skS, '2027-01-15', 100, 19, 19, 9.5],
      ['F-400', skS, '2027-01-15', 400, 92, 23, 92],
    ]);
    expect([x.B31.base, x.B31.vat, x.B31.deducted]).toEqual([100, 23, 23]);
    expect(x.B32.map((l: any) => [l.partnerVatNumber, l.base, l.vat, l.deducted])).toEqual([
      [skS, 3000, 690, 690],
    ]);
    expect(
      x.C1.map((l: any) => [l.partnerVatNumber, l.documentNumber, l.originalNumber, l.base, l.vat, l.rate]),
    ).toEqual([[sk, no('credit'), no('domestic'), -100, -23, 23]]);
    expect(
      x.C2.map((l: any) => [
        l.partnerVatNumber,
        l.documentNumber,
        l.originalNumber,
        l.base,
        l.vat,
        l.rate,
        l.deducted,
      ]),
    ).toEqual([[skS, 'DOB-1', 'F-400', -40, -9.2, 23, -9.2]]);
    expect(x.D1).toEqual({
      turnover: 1230,
      base: 1000,
      vat: 230,
      baseReduced: 0,
      vatReduced: 0,
    });
    expect(x.D2).toEqual({ base: 50, vat: 11.5, baseReduced: 100, vatReduced: 19 });
    // Neither the intra-community supply, the export, the OSS sale, the exempt one nor February's deduction.
    const all = JSON.stringify(x);
    for (const k of ['ic', 'icServices', 'export', 'oss', 'exempt']) expect(all).not.toContain(`"${no(k)}"`);
    expect(all).not.toContain('F-FEB');
  });

  it('writes the KVDPH_2025 XML: identification and every transaction attribute', async () => {
    const r = await get('/1.6/tax/control-statements/2027-01', { Accept: 'application/xml' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = r.text;
    expect(xml).toContain('<KVDPH_2025 xmlns="https://ekr.financnasprava.sk/Formulare/XSD/kv_dph_2025.xsd">');
    expect(
      ['IcDphPlatitela', 'Druh', 'Rok', 'Mesiac', 'Nazov', 'Obec', 'PSC', 'Ulica', 'Cislo', 'Email'].map(
        (t) => textOf(xml, t),
      ),
    ).toEqual([
      'SK2020123456',
      'R',
      '2027',
      '1',
      'Výkazy s.r.o.',
      'Bratislava',
      '81101',
      'Hlavná',
      '1',
      'uctaren@vykazy.sk',
    ]);
    const [sk, skS, d, rc, cr] = [
      'SK2021111111',
      'SK2022222222',
      S.domestic.recordNumber,
      S.rc.recordNumber,
      S.credit.recordNumber,
    ];
    expect(transactions(xml)).toEqual([
      `A1 Odb="${sk}" F="${d}" Den="2027-01-10" Z="1000.00" D="230.00" S="23"`,
      `A1 Odb="${sk}" F="${d}" Den="2027-01-10" Z="200.00" D="38.00" S="19"`,
      `A1 Odb="${sk}" F="${d}" Den="2027-01-10" Z="100.00" D="5.00" S="5"`,
      `A2 Odb="${sk}" F="${rc}" Den="2027-01-10" Z="3000.00" TK="7208" Mn="250.00" MJ="kg"`,
      `A2 Odb="${sk}" F="${rc}" Den="2027-01-10" Z="100.00" TK="7204" Mn="100.00" MJ="kg"`,
      'B1 Dod="CZ12345678" F="CZ-1" Den="2027-01-15" Z="2000.00" D="460.00" S="23" O="460.00"',
      'B1 Dod="CZ12345678" F="CZ-CZK" Den="2027-01-15" Z="1000.00" D="230.00" S="23" O="230.00"',
      `B1 Dod="${skS}" F="RC-1" Den="2027-01-15" Z="1000.00" D="230.00" S="23" O="230.00"`,
      'B1 F="US-1" Den="2027-01-15" Z="300.00" D="69.00" S="23" O="69.00"',
      `B2 Dod="${skS}" F="F-100" Den="2027-01-15" Z="100.00" D="19.00" S="19" O="9.50"`,
      `B2 Dod="${skS}" F="F-400" Den="2027-01-15" Z="400.00" D="92.00" S="23" O="92.00"`,
      'B31 Z="100.00" D="23.00" O="23.00"',
      `B32 Dod="${skS}" Z="3000.00" D="690.00" O="690.00"`,
      `C1 Odb="${sk}" FO="${cr}" FP="${d}" ZR="-100.00" DR="-23.00" S="23"`,
      `C2 Dod="${skS}" FO="DOB-1" FP="F-400" ZR="-40.00" DR="-9.20" S="23" OR="-9.20"`,
      'D1 SumaObratov="1230.00" Z="1000.00" D="230.00" ZZn="0.00" DZn="0.00"',
      'D2 Z="50.00" D="11.50" ZZn="100.00" DZn="19.00"',
    ]);
  });

  it('gives the return rows worked by hand, agreeing with the statement', async () => {
    const r = ok(await get('/1.6/tax/vat-returns/2027-01'));
    expect(r.rows).toEqual({
      r01: 300,
      r01a: 100,
      r02: 57,
      r02a: 5,
      r03: 2050,
      r04: 471.5,
      r07: 3000,
      r08: 690,
      r09b: 1300,
      r10b: 299,
      r13: 5920,
      r14: 5000,
      r15: 800,
      r17: 1522.5,
      r18: 9.5,
      r19: 1794,
      // Issue #44: of which §51(1)(a) (B.2, B.3): 9.50 at 19 %; 92 + 23 (B.3.1) + 690 (B.3.2) = 805 at 23 %
      // (the 989 self-assessed in B.1 is the rest of r19).
      r20: 9.5,
      r21: 805,
      r24: -100,
      r25: -23,
      r28: 9.2,
      r33: 294.8,
    });
    // What the tax office checks: output VAT and deducted VAT equal the statement's sums.
    const x = ok(await get('/1.6/tax/control-statements/2027-01')).sections;
    const total = (lines: any[], f: string) => sum(lines.map((l) => String(l?.[f] ?? 0)));
    const output = total([...x.A1, ...x.B1, ...x.C1], 'vat')
      .plus(total([x.D1, x.D2], 'vat'))
      .plus(total([x.D1, x.D2], 'vatReduced'));
    expect(output.toFixed(2)).toBe(dec(String(r.rows.r17)).plus(String(r.rows.r25)).toFixed(2));
    const deducted = total([...x.B1, ...x.B2, x.B31, ...x.B32, ...x.C2], 'deducted');
    expect(deducted.toFixed(2)).toBe(
      dec(String(r.rows.r18)).plus(String(r.rows.r19)).minus(String(r.rows.r28)).toFixed(2),
    );
    const xml = (await get('/1.6/tax/vat-returns/2027-01', { Accept: 'application/xml' })).text;
    expect(['r13', 'r17', 'r19', 'r33', 'rdp', 'mesiac', 'rok'].map((t) => textOf(xml, t))).toEqual([
      '5920.00',
      '1522.50',
      '1794.00',
      '294.80',
      '1',
      '01',
      '2027',
    ]);
  });

  it('puts February’s deduction in February', async () => {
    const feb = ok(await get('/1.6/tax/control-statements/2027-02')).sections;
    expect(feb.B2.map((l: any) => [l.documentNumber, l.taxPoint, l.base, l.vat, l.deducted])).toEqual([
      ['F-FEB', '2027-01-28', 1000, 230, 230],
    ]);
  });
});

describe('filing and the supplementary statement', () => {
  it('freezes R byte for byte; a late purchase invoice makes the next filing D with only it', async () => {
    const nothing = await post('/1.6/tax/control-statements/2027-01/filings');
    const r = ok(nothing, 201);
    expect([r.kind, r.seq, r.period, r.form]).toEqual(['R', 1, '2027-01', 'KVDPH']);
    const asOfR = (await get('/1.6/tax/control-statements/2027-01', { Accept: 'application/xml' })).text;
    const bytes = await get(`/1.6/tax/filings/${r.id}`);
    expect(bytes.status).toBe(200);
    expect(createHash('sha256').update(bytes.text).digest('hex')).toBe(r.sha256);
    expect(bytes.headers.get('etag')).toBe(`"${r.sha256}"`);
    expect(transactions(bytes.text)).toEqual(transactions(asOfR));
    expect(textOf(bytes.text, 'Druh')).toBe('R');

    const again = await post('/1.6/tax/control-statements/2027-01/filings');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'InvalidState', errors: [{ path: 'kind' }] });
    expect(ok(await get('/1.6/tax/control-statements/2027-01')).changed).toBe(false);

    await purchase('LATE-7', P.skS.id, 10, { vatRate: 23 }, { dateCreated: '2027-01-20' });
    const now = ok(await get('/1.6/tax/control-statements/2027-01'));
    expect([now.filings, now.changed]).toEqual([1, true]);
    const d = ok(await post('/1.6/tax/control-statements/2027-01/filings'), 201);
    expect([d.kind, d.seq]).toEqual(['D', 2]);
    const dBytes = (await get(`/1.6/tax/filings/${d.id}`)).text;
    expect(textOf(dBytes, 'Druh')).toBe('D');
    expect(transactions(dBytes)).toEqual([
      'B2 Dod="SK2022222222" F="LATE-7" Den="2027-01-20" Z="10.00" D="2.30" S="23" O="2.30" KOpr="2"',
    ]);
    // The first filing is what it was.
    const first = (await get(`/1.6/tax/filings/${r.id}`)).text;
    expect(createHash('sha256').update(first).digest('hex')).toBe(r.sha256);
    const list = ok(await get('/1.6/tax/control-statements/2027-01/filings'));
    expect(list.items.map((f: any) => [f.kind, f.seq, f.sha256])).toEqual([
      ['R', 1, r.sha256],
      ['D', 2, d.sha256],
    ]);
  });

  it('files the return R, then O with the full rows after a change', async () => {
    const r = ok(await post('/1.6/tax/vat-returns/2027-01/filings', { kind: 'R' }), 201);
    expect([r.kind, r.form]).toEqual(['R', 'DPH']);
    const rXml = (await get(`/1.6/tax/filings/${r.id}`)).text;
    expect([textOf(rXml, 'rdp'), textOf(rXml, 'r19')]).toEqual(['1', '1796.30']);
    // Nothing changed since: no second filing.
    const again = await post('/1.6/tax/vat-returns/2027-01/filings');
    expect([again.status, again.body.code]).toEqual([409, 'InvalidState']);
    await purchase('LATE-8', P.skS.id, 100, { vatRate: 23 }, { dateCreated: '2027-01-21' });
    const o = ok(await post('/1.6/tax/vat-returns/2027-01/filings', { kind: 'O' }), 201);
    const oXml = (await get(`/1.6/tax/filings/${o.id}`)).text;
    expect([o.kind, textOf(oXml, 'odp'), textOf(oXml, 'r19'), textOf(oXml, 'r33')]).toEqual([
      'O',
      '1',
      '1819.30',
      '320.10',
    ]);
  });
});

describe('periods', () => {
  it('answers an empty statement for a period with nothing to file', async () => {
    const s = ok(await get('/1.6/tax/control-statements/2027-05'));
    expect(s.sections).toEqual({
      A1: [],
      A2: [],
      B1: [],
      B2: [],
      B31: null,
      B32: [],
      C1: [],
      C2: [],
      D1: null,
      D2: null,
    });
    expect(ok(await get('/1.6/tax/vat-returns/2027-05')).rows).toEqual({});
  });

  it('refuses malformed periods and the other length with 400 naming period, freezing nothing', async () => {
    for (const p of ['2027-13', '2027-Q1', '27-01', '2027-Q5']) {
      for (const r of [
        await get(`/1.6/tax/control-statements/${p}`),
        await post(`/1.6/tax/control-statements/${p}/filings`),
        await post(`/1.6/tax/vat-returns/${p}/filings`),
      ]) {
        expect(r.status, `${p}: ${r.text}`).toBe(400);
        expect(r.body.errors[0].path).toBe('period');
      }
    }
    const q = await get('/1.6/tax/control-statements/2027-Q1');
    expect(q.body.errors[0].message).toMatch(/files monthly/);
  });

  it('refuses a document a section cannot carry with 422 naming it, freezing nothing', async () => {
    // A domestic purchase from a supplier without an IČ DPH cannot be listed in B.2.
    await purchase('NO-ICDPH', P.shop.id, 200, { vatRate: 23 }, { dateCreated: '2027-03-05' });
    const r = await post('/1.6/tax/control-statements/2027-03/filings');
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        path: 'documents.NO-ICDPH.partnerId',
        message: expect.stringMatching(/B\.2 needs the supplier’s IČ DPH/),
      },
    ]);
    expect(ok(await get('/1.6/tax/control-statements/2027-03/filings')).items).toEqual([]);
  });

  it('holds for a quarterly payer: the quarter’s three months together, months refused', async () => {
    const q = await stack.company({ ...COMPANY, name: 'Štvrťročný s.r.o.', vatPeriod: 'quarter' });
    await openYear(q, 2027);
    wh.set(q, (await warehouse(q)).id);
    const buyer = ok(
      await q.post(
        '/1.6/partners',
        unchecked({ code: 'B', name: 'B', country: 'SK', vatNumber: 'SK2021111111' }),
      ),
      201,
    );
    const seller = ok(
      await q.post(
        '/1.6/partners',
        unchecked({ code: 'S', name: 'S', country: 'SK', vatNumber: 'SK2022222222' }),
      ),
      201,
    );
    const jan = await sale(
      { partnerId: buyer.id, rows: [{ name: 'A', quantity: 1, price: 100, vatCode: 'SK23' }] },
      q,
    );
    const mar = await sale(
      {
        partnerId: buyer.id,
        dateCreated: '2027-03-31',
        rows: [{ name: 'B', quantity: 2, price: 50, vatCode: 'SK19' }],
      },
      q,
    );
    await sale(
      {
        partnerId: buyer.id,
        dateCreated: '2027-04-01',
        rows: [{ name: 'C', quantity: 1, price: 999, vatCode: 'SK23' }],
      },
      q,
    );
    await purchase('Q-1', seller.id, 40, { vatRate: 5 }, { dateCreated: '2027-02-14' }, q);
    const s = ok(await q.get('/1.6/tax/control-statements/2027-Q1' as any));
    // Issue #44: 25 April 2027 is a Sunday: the deadline is the next working day.
    expect([s.period, s.deadline]).toEqual(['2027-Q1', '2027-04-26']);
    expect(s.sections.A1.map((l: any) => [l.documentNumber, l.taxPoint, l.base, l.vat, l.rate])).toEqual([
      [jan.recordNumber, '2027-01-10', 100, 23, 23],
      [mar.recordNumber, '2027-03-31', 100, 19, 19],
    ]);
    expect(s.sections.B2.map((l: any) => [l.documentNumber, l.base, l.vat, l.rate, l.deducted])).toEqual([
      ['Q-1', 40, 2, 5, 2],
    ]);
    const xml = (await get('/1.6/tax/control-statements/2027-Q1', { Accept: 'application/xml' }, q)).text;
    expect([textOf(xml, 'Stvrtrok'), textOf(xml, 'Mesiac')]).toEqual(['1', undefined]);
    // Issue #44: the quarter's return as DPHv25 (checked against the schema in CI).
    const qXml = (await get('/1.6/tax/vat-returns/2027-Q1', { Accept: 'application/xml' }, q)).text;
    expect([textOf(qXml, 'stvrtrok'), textOf(qXml, 'mesiac'), textOf(qXml, 'r20a')]).toEqual([
      '1',
      '',
      '2.00',
    ]);
    expect(ok(await q.get('/1.6/tax/vat-returns/2027-Q1' as any)).rows).toEqual({
      r01: 100,
      r02: 19,
      r03: 100,
      r04: 23,
      r17: 42,
      r18a: 2,
      r20a: 2,
      r32: 40,
      r35: 40,
    });
    const month = await q.get('/1.6/tax/control-statements/2027-01' as any);
    expect([month.status, month.body.errors[0].message]).toEqual([
      400,
      expect.stringMatching(/files quarterly/),
    ]);
  });
});

/** The VAT return's `adresa` as tag → text. */
function addressOf(xml: string): Record<string, string> {
  const a = new DOMParser().parseFromString(xml, 'application/xml').getElementsByTagName('adresa')[0];
  const out: Record<string, string> = {};
  for (let n = a?.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1) out[(n as unknown as Element).tagName] = n.textContent ?? '';
  return out;
}

describe('filings the Financial Administration accepts (issue #44)', () => {
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bratislava' }).format(new Date());
  const formDate = (d: string) => d.split('-').reverse().map(Number).join('.');
  const J: Record<string, any> = {};

  beforeAll(async () => {
    J.a = await sale({
      partnerId: P.skB.id,
      dateCreated: '2027-06-10',
      rows: [{ name: 'A', quantity: 1, price: 500, vatCode: 'SK23' }],
    });
    J.b = await sale({
      partnerId: P.skB.id,
      dateCreated: '2027-06-11',
      rows: [{ name: 'B', quantity: 1, price: 200, vatCode: 'SK23' }],
    });
    await sale({
      partnerId: P.skC.id,
      dateCreated: '2027-06-12',
      rows: [{ name: 'C', quantity: 1, price: 100, vatCode: 'SK23' }],
    });
    await purchase('J-1', P.skS.id, 300, { vatRate: 23 }, { dateCreated: '2027-06-15' });
  });

  it('a supplementary control statement carries exactly the changed lines with their codes; O the whole again', async () => {
    const r = ok(await post('/1.6/tax/control-statements/2027-06/filings'), 201);
    const rXml = (await get(`/1.6/tax/filings/${r.id}`)).text;
    const [sk, skS] = ['SK2021111111', 'SK2022222222'];
    expect(transactions(rXml)).toEqual([
      `A1 Odb="${sk}" F="${J.a.recordNumber}" Den="2027-06-10" Z="500.00" D="115.00" S="23"`,
      `A1 Odb="${sk}" F="${J.b.recordNumber}" Den="2027-06-11" Z="200.00" D="46.00" S="23"`,
      `B2 Dod="${skS}" F="J-1" Den="2027-06-15" Z="300.00" D="69.00" S="23" O="69.00"`,
      'D2 Z="100.00" D="23.00" ZZn="0.00" DZn="0.00"',
    ]);
    // A late purchase invoice, a cancelled sales invoice and a changed D.2 (100.00 became 1450.00).
    await purchase('J-2', P.skS.id, 50, { vatRate: 23 }, { dateCreated: '2027-06-20' });
    ok(await c.post(`/1.6/sales/invoices/${J.b.id}/cancel` as any));
    ok(
      await c.put(
        '/1.6/tax/control-statements/2027-06/manual' as any,
        { d2: { base23: 1350, vat23: 310.5 } } as any,
      ),
    );
    const shown = ok(await get('/1.6/tax/control-statements/2027-06'));
    expect([shown.kind, shown.filings, shown.changed]).toEqual(['D', 1, true]);
    expect(shown.totals.D2).toEqual({ base: 1450, vat: 333.5 });
    expect(shown.changes.A1.map((l: any) => [l.documentNumber, l.correction])).toEqual([
      [J.b.recordNumber, '1'],
    ]);
    const expectedD = [
      `A1 Odb="${sk}" F="${J.b.recordNumber}" Den="2027-06-11" Z="200.00" D="46.00" S="23" KOpr="1"`,
      `B2 Dod="${skS}" F="J-2" Den="2027-06-20" Z="50.00" D="11.50" S="23" O="11.50" KOpr="2"`,
      'D2 Z="100.00" D="23.00" ZZn="0.00" DZn="0.00" KOpr="1"',
      'D2 Z="1450.00" D="333.50" ZZn="0.00" DZn="0.00" KOpr="2"',
    ];
    // The GET shows what the POST files.
    const getXml = (await get('/1.6/tax/control-statements/2027-06', { Accept: 'application/xml' })).text;
    expect([textOf(getXml, 'Druh'), transactions(getXml)]).toEqual(['D', expectedD]);
    const d = ok(await post('/1.6/tax/control-statements/2027-06/filings'), 201);
    const dXml = (await get(`/1.6/tax/filings/${d.id}`)).text;
    expect([d.kind, textOf(dXml, 'Druh'), transactions(dXml)]).toEqual(['D', 'D', expectedD]);
    // Nothing changed since: the GET shows the last filing and no next kind.
    const after = ok(await get('/1.6/tax/control-statements/2027-06'));
    expect(after).toMatchObject({ kind: null, changed: false, filings: 2 });
    expect((await get('/1.6/tax/control-statements/2027-06', { Accept: 'application/xml' })).text).toBe(dXml);
    // O (before the deadline, 26 July 2027: the 25th is a Sunday): the whole statement again, no codes.
    await purchase('J-3', P.skS.id, 10, { vatRate: 23 }, { dateCreated: '2027-06-21' });
    const o = ok(await post('/1.6/tax/control-statements/2027-06/filings', { kind: 'O' }), 201);
    const oXml = (await get(`/1.6/tax/filings/${o.id}`)).text;
    expect([o.kind, textOf(oXml, 'Druh'), transactions(oXml)]).toEqual([
      'O',
      'O',
      [
        `A1 Odb="${sk}" F="${J.a.recordNumber}" Den="2027-06-10" Z="500.00" D="115.00" S="23"`,
        `B2 Dod="${skS}" F="J-1" Den="2027-06-15" Z="300.00" D="69.00" S="23" O="69.00"`,
        `B2 Dod="${skS}" F="J-2" Den="2027-06-20" Z="50.00" D="11.50" S="23" O="11.50"`,
        `B2 Dod="${skS}" F="J-3" Den="2027-06-21" Z="10.00" D="2.30" S="23" O="2.30"`,
        'D2 Z="1450.00" D="333.50" ZZn="0.00" DZn="0.00"',
      ],
    ]);
  });

  it('a supplementary VAT return: the whole return with r36 and r37 against the last filing', async () => {
    const filings = ok(await get('/1.6/tax/vat-returns/2027-06/filings')).items;
    expect(filings).toEqual([]);
    // The June books as they stand now (the statement's D and O above): 500 + 1450 (D.2) at 23 %.
    const r = ok(await post('/1.6/tax/vat-returns/2027-06/filings'), 201);
    const rXml = (await get(`/1.6/tax/filings/${r.id}`)).text;
    expect(
      ['rdp', 'r03', 'r04', 'r17', 'r19', 'r21', 'r32', 'r35', 'r36'].map((t) => textOf(rXml, t)),
    ).toEqual(['1', '1950.00', '448.50', '448.50', '82.80', '82.80', '365.70', '365.70', '']);
    expect(['danovyUrad', 'ulica', 'menoPriezvisko', 'datumVyhlasenia'].map((t) => textOf(rXml, t))).toEqual([
      'Daňový úrad Bratislava',
      'Hlavná',
      'Jana Výkazová',
      formDate(today()),
    ]);
    expect(addressOf(rXml)).toMatchObject({ ulica: 'Hlavná', cislo: '1', psc: '81101', obec: 'Bratislava' });
    // A late purchase invoice of 100.00 at 23 % (23.00 deducted): the supplementary return.
    await purchase('J-4', P.skS.id, 100, { vatRate: 23 }, { dateCreated: '2027-06-22' });
    const shown = ok(await get('/1.6/tax/vat-returns/2027-06'));
    expect(shown.kind).toBe('D');
    expect([shown.rows.r32, shown.rows.r36, shown.rows.r37]).toEqual([342.7, -23, -23]);
    const d = ok(await post('/1.6/tax/vat-returns/2027-06/filings'), 201);
    const dXml = (await get(`/1.6/tax/filings/${d.id}`)).text;
    expect(
      ['rdp', 'ddp', 'datumZisteniaDdp', 'r19', 'r21', 'r32', 'r35', 'r36', 'r37'].map((t) =>
        textOf(dXml, t),
      ),
    ).toEqual(['0', '1', formDate(today()), '105.80', '105.80', '342.70', '342.70', '-23.00', '-23.00']);
  });

  it('two filings of one period at once: one R, the other refused, never two of one sequence', async () => {
    const both = await Promise.all([
      post('/1.6/tax/control-statements/2027-08/filings'),
      post('/1.6/tax/control-statements/2027-08/filings'),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const items = ok(await get('/1.6/tax/control-statements/2027-08/filings')).items;
    expect(items.map((f: any) => [f.kind, f.seq])).toEqual([['R', 1]]);
  });

  it('refuses a period the service does not file with 422 naming the periods it files, freezing nothing', async () => {
    for (const [path, from] of [
      ['/1.6/tax/vat-returns/2025-06', '2025-07'],
      ['/1.6/tax/control-statements/2024-12', '2025-01'],
    ]) {
      for (const r of [await get(path), await post(`${path}/filings`)]) {
        expect([r.status, r.body.code], r.text).toEqual([422, 'ValidationFailed']);
        expect(r.body.errors).toEqual([{ path: 'period', message: `filed for periods from ${from}` }]);
      }
    }
    expect(ok(await get('/1.6/tax/vat-returns/2025-06/filings')).items).toEqual([]);
    // The first period of each form is filed.
    expect((await get('/1.6/tax/vat-returns/2025-07', { Accept: 'application/xml' })).status).toBe(200);
    expect((await get('/1.6/tax/control-statements/2025-01', { Accept: 'application/xml' })).status).toBe(
      200,
    );
  });

  it('refuses a filing whose header data are missing with 422 naming each field, freezing nothing', async () => {
    const bare = await stack.company({
      ...COMPANY,
      name: 'Bez hlavičky s.r.o.',
      city: null,
      taxOffice: null,
      authorizedPersonName: null,
    } as any);
    const r = await bare.post('/1.6/tax/vat-returns/2027-01/filings' as any, unchecked({}));
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.path)).toEqual([
      'company.city',
      'company.taxOffice',
      'company.authorizedPersonName',
    ]);
    const k = await bare.post('/1.6/tax/control-statements/2027-01/filings' as any, unchecked({}));
    expect([k.status, k.body.errors.map((e: any) => e.path)]).toEqual([422, ['company.city']]);
    expect(ok(await bare.get('/1.6/tax/vat-returns/2027-01/filings' as any)).items).toEqual([]);
    // After the PUT the header is complete.
    const company = ok(await bare.get('/1.6/company'));
    const put = ok(
      await bare.put(
        '/1.6/company',
        unchecked({
          ...company,
          city: 'Košice',
          streetNumber: '7A',
          taxOffice: 'Daňový úrad Košice',
          authorizedPersonName: 'Peter Hlavička',
        }),
      ),
    );
    expect([put.taxOffice, put.authorizedPersonName, put.streetNumber]).toEqual([
      'Daňový úrad Košice',
      'Peter Hlavička',
      '7A',
    ]);
    const xml = (await get('/1.6/tax/vat-returns/2027-01', { Accept: 'application/xml' }, bare)).text;
    expect(textOf(xml, 'danovyUrad')).toBe('Daňový úrad Košice');
    // A house number given apart is taken as it is; the street stays whole.
    expect(addressOf(xml)).toMatchObject({ ulica: 'Hlavná 1', cislo: '7A', obec: 'Košice' });
  });
});

describe('the recapitulative statement (issue #44, §80)', () => {
  it('lists each customer and kind with its code; its goods agree with the return’s r14', async () => {
    const sv = ok(await get('/1.6/tax/recapitulative-statements/2027-01'));
    expect(sv).toMatchObject({ form: 'SVDPHv20', kind: 'R', filings: 0, deadline: '2027-02-25' });
    expect(sv.lines.map(({ documentIds: _d, ...l }: any) => l)).toEqual([
      { country: 'AT', vatNumber: 'U13585627', kind: 'triangular', code: '1', value: 3000 },
      { country: 'DE', vatNumber: '123456789', kind: 'goods', code: '', value: 5000 },
      { country: 'DE', vatNumber: '123456789', kind: 'services', code: '2', value: 800 },
    ]);
    expect(sv.totals).toEqual({ goods: 5000, triangular: 3000, services: 800, total: 8800 });
    const dph = ok(await get('/1.6/tax/vat-returns/2027-01'));
    expect(sv.totals.goods).toBe(dph.rows.r14);
    const xml = (await get('/1.6/tax/recapitulative-statements/2027-01', { Accept: 'application/xml' })).text;
    expect(
      ['dic', 'riadny', 'mesiac', 'rok', 'celkovaHodnota', 'konatel'].map((t) => textOf(xml, t)),
    ).toEqual(['2020123456', '1', '01', '2027', '8800.00', 'Jana Výkazová']);
    const records = [
      ...xml.matchAll(
        /<zaznam>\s*<kodStatu>(\w*)<\/kodStatu>\s*<idCislo>(\w*)<\/idCislo>\s*<hodnota>([\d.-]*)<\/hodnota>\s*(?:<kod>(\d*)<\/kod>|<kod\/>)/g,
      ),
    ].map((m) => m.slice(1, 5).map((x) => x ?? ''));
    expect(records).toEqual([
      ['AT', 'U13585627', '3000.00', '1'],
      ['DE', '123456789', '5000.00', ''],
      ['DE', '123456789', '800.00', '2'],
    ]);
    expect(xml.match(/<zaznam>/g)).toHaveLength(12);
  });

  it('files R, then O with a corrected line and D with a line never filed; a credit note lowers its own month', async () => {
    const r = ok(await post('/1.6/tax/recapitulative-statements/2027-01/filings'), 201);
    expect([r.kind, r.form, r.seq]).toEqual(['R', 'SV', 1]);
    expect(textOf((await get(`/1.6/tax/filings/${r.id}`)).text, 'celkovaHodnota')).toBe('8800.00');
    const again = await post('/1.6/tax/recapitulative-statements/2027-01/filings');
    expect([again.status, again.body.code]).toEqual([409, 'InvalidState']);
    // Another supply to the German customer (its line is now 5200: a correction), and one to a French one.
    P.frB = await partner('FRB', { country: 'FR', vatNumber: 'FR40303265045' });
    await sale({ partnerId: P.deB.id, vatCode: 'SK0-IC', rows: [{ name: 'Diel', quantity: 1, price: 200 }] });
    await sale({ partnerId: P.frB.id, vatCode: 'SK0-IC', rows: [{ name: 'Diel', quantity: 2, price: 350 }] });
    const shown = ok(await get('/1.6/tax/recapitulative-statements/2027-01'));
    expect(shown.kind).toBe('O');
    expect(shown.changes.corrections.map((l: any) => [l.country, l.kind, l.value])).toEqual([
      ['DE', 'goods', 5200],
    ]);
    expect(shown.changes.additions.map((l: any) => [l.country, l.kind, l.value])).toEqual([
      ['FR', 'goods', 700],
    ]);
    const o = ok(await post('/1.6/tax/recapitulative-statements/2027-01/filings'), 201);
    const oXml = (await get(`/1.6/tax/filings/${o.id}`)).text;
    expect([
      o.kind,
      textOf(oXml, 'opravny'),
      textOf(oXml, 'celkovaHodnota'),
      textOf(oXml, 'idCislo'),
    ]).toEqual(['O', '1', '5200.00', '123456789']);
    const d = ok(await post('/1.6/tax/recapitulative-statements/2027-01/filings'), 201);
    const dXml = (await get(`/1.6/tax/filings/${d.id}`)).text;
    expect([
      d.kind,
      textOf(dXml, 'dodatocny'),
      textOf(dXml, 'celkovaHodnota'),
      textOf(dXml, 'kodStatu'),
    ]).toEqual(['D', '1', '700.00', 'SK']);
    expect(ok(await get('/1.6/tax/recapitulative-statements/2027-01'))).toMatchObject({
      kind: null,
      changed: false,
    });
    // A credit note in February corrects February (as the return does): a negative line there.
    await sale({
      partnerId: P.deB.id,
      vatCode: 'SK0-IC',
      dateCreated: '2027-02-05',
      correctedInvoiceId: S.ic.id,
      rows: [{ name: 'Stroj – zľava', quantity: -1, price: 1000 }],
    });
    const feb = ok(await get('/1.6/tax/recapitulative-statements/2027-02'));
    expect(feb.lines.map((l: any) => [l.country, l.kind, l.value])).toEqual([['DE', 'goods', -1000]]);
    expect(feb.totals.goods).toBe(ok(await get('/1.6/tax/vat-returns/2027-02')).rows.r14);
    expect(
      (await get('/1.6/tax/recapitulative-statements/2027-02', { Accept: 'application/xml' })).status,
    ).toBe(200);
  });

  it('a quarter only for services alone; a malformed period is 400', async () => {
    const q1 = await get('/1.6/tax/recapitulative-statements/2027-Q1');
    expect([q1.status, q1.body.errors]).toEqual([
      422,
      [{ path: 'period', message: 'file the months of this quarter' }],
    ]);
    const ic = ok(await c.get('/1.6/vat-codes?pageSize=500')).items.find((v: any) => v.code === 'SK0-IC');
    await sale({
      partnerId: P.deB.id,
      vatCode: 'SK0-IC',
      dateCreated: '2027-05-12',
      vatParagraphID: ic.paragraphs.find((p: any) => p.code === 'IC-SERVICES').id,
      rows: [{ name: 'Servis', quantity: 3, price: 100 }],
    });
    const q2 = ok(await get('/1.6/tax/recapitulative-statements/2027-Q2'));
    expect([q2.kind, q2.deadline, q2.lines.map((l: any) => [l.kind, l.code, l.value])]).toEqual([
      'R',
      '2027-07-26',
      [['services', '2', 300]],
    ]);
    const xml = (await get('/1.6/tax/recapitulative-statements/2027-Q2', { Accept: 'application/xml' })).text;
    expect([textOf(xml, 'stvrtrok'), textOf(xml, 'mesiac')]).toEqual(['2', '']);
    const bad = await get('/1.6/tax/recapitulative-statements/2027-13');
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'period']);
  });
});
