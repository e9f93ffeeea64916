/**
 * Printouts (INTERFACE §4.3; DESIGN §2 "Printout", §7), checked with npm packages that need no
 * system tools (issue #9): MuPDF parses the whole file strictly (a repaired file fails), extracts the
 * text and renders page 1 for jsQR; the PAY by square payload is decoded with bysquare.
 */
import { decode } from 'bysquare/pay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, ok, openYear, receive, warehouse } from '../support/fixtures.js';
import { checkPdf, qrCodeOnPage } from '../support/pdf.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

const IBAN = 'SK3112000000198742637541';
let stack: Stack;
let c: Client;
let invoice: any;
let whId: string;

/** Fetches a printout; returns the reply and its bytes. */
async function printout(
  client: Client,
  report: string,
  id: string,
  headers: Record<string, string> = { Accept: 'application/pdf' },
  param = 'recordID',
) {
  const res = await stack.app.request(`/1.6/reports/${report}?output=pdf&${param}=${id}`, {
    headers: { ...client.headers, ...headers },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    json: () => JSON.parse(bytes.toString('utf8')),
  };
}
/** The text of a valid PDF; throws on a damaged one. */
const text = (bytes: Uint8Array) => checkPdf(bytes).text;

beforeAll(async () => {
  stack = await startStack({ requestTimeoutMs: 60_000 });
  c = await stack.company({
    name: 'Dodávateľ Žilina s.r.o.',
    iban: IBAN,
    companyNumber: '50123456',
    taxNumber: '2020555666',
    registration: 'Obchodný register Okresného súdu Žilina, oddiel Sro, vložka č. 76543/L',
    address: 'Štúrova 1, 010 01 Žilina',
  });
  await openYear(c, 2025);
  whId = (await warehouse(c)).id;
  const partner = ok(
    await c.post('/1.6/partners', {
      code: 'KAV',
      name: 'Kaviareň Ďumbier s.r.o.',
      address: 'Námestie 3, Brezno',
      country: 'SK',
      companyNumber: '36123456',
      taxNumber: '2021234567',
      vatNumber: 'SK2021234567',
    }),
    201,
  );
  invoice = ok(
    await c.post('/1.6/sales/invoices', {
      ordnerCode: 'OF',
      warehouseId: whId,
      partnerId: partner.id,
      dateCreated: '2025-05-02',
      dateDelivery: '2025-04-30',
      symbolConstant: '0308',
      commentAboveItems: 'Fakturujeme Vám za tovar:',
      commentBelowItems: 'Ďakujeme za spoluprácu.',
      rows: [
        { name: 'Žltý kôň úpel ďateľ', quantity: 2, price: 8.9, vatRate: 19 },
        { name: 'Mlynček na kávu', quantity: 1, price: 49.9 },
        { name: 'Čučoriedkový džem', quantity: 3, price: 3.15, vatRate: 5 },
      ],
    }),
    201,
  );
});
afterAll(() => stack?.stop());

describe('sales invoice printout', () => {
  it('is a valid PDF with the record number, parties, every row, every VAT-summary figure and the total', async () => {
    const r = await printout(c, 'SalesInvoice', invoice.id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-disposition')).toBe(
      `attachment; filename="${invoice.recordNumber}.pdf"; filename*=UTF-8''${invoice.recordNumber}.pdf`,
    );
    expect(r.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const t = text(r.bytes); // throws on a damaged file
    expect(summaryOf(invoice)).toEqual([
      ['19', '17.8', '3.38'],
      ['23', '49.9', '11.48'],
      ['5', '9.45', '0.47'],
    ]);
    for (const s of [
      invoice.recordNumber,
      'Kaviareň Ďumbier s.r.o.',
      'Dodávateľ Žilina s.r.o.',
      'IČO: 36123456',
      'IČ DPH: SK2021234567',
      'IČO: 50123456',
      // Issue #21: both parties' DIČ and the supplier's commercial-register line (Obchodný zákonník §3a).
      'DIČ: 2020555666',
      'DIČ: 2021234567',
      'Obchodný register Okresného súdu Žilina, oddiel Sro, vložka č. 76543/L',
      'Žltý kôň úpel ďateľ',
      'Mlynček na kávu',
      'Čučoriedkový džem',
      '17,80',
      '3,38',
      '49,90',
      '11,48',
      '9,45',
      '0,47',
      '77,15',
      '15,33',
      '92,48',
      '2. 5. 2025',
      '30. 4. 2025',
      'SK31 1200 0000 1987 4263 7541',
      invoice.symbolVariable,
      'Fakturujeme Vám za tovar:',
      'Ďakujeme za spoluprácu.',
      'Strana 1 / 1',
    ]) {
      expect(t).toContain(s);
    }
    expect([invoice.sumBase, invoice.sumVat, invoice.sumTotal]).toEqual([77.15, 15.33, 92.48]);
  });

  it('carries a PAY by square QR code with the IBAN, amount and variable symbol', async () => {
    const r = await printout(c, 'SalesInvoice', invoice.id);
    const qr = qrCodeOnPage(r.bytes);
    expect(qr).toBeTypeOf('string');
    const model = decode(qr!);
    expect(model.payments[0]).toMatchObject({
      amount: 92.48,
      currencyCode: 'EUR',
      variableSymbol: invoice.symbolVariable,
      constantSymbol: '0308',
      bankAccounts: [{ iban: IBAN }],
    });
  });

  it('titles a negative invoice as a credit note, without a QR code, and marks a cancelled invoice', async () => {
    const credit = ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: whId,
        dateCreated: '2025-05-03',
        partnerDetail: 'Kaviareň Ďumbier s.r.o.',
        rows: [{ name: 'Vrátený mlynček', quantity: -1, price: 49.9 }],
      }),
      201,
    );
    expect(credit.sumTotal).toBe(-61.38);
    const creditPdf = (await printout(c, 'SalesInvoice', credit.id)).bytes;
    const t = text(creditPdf);
    expect(t).toContain('DOBROPIS – opravný daňový doklad');
    expect(t).toContain('-61,38');
    expect(t).not.toContain('PAY by square');
    expect(qrCodeOnPage(creditPdf)).toBeUndefined();
    ok(await c.post(`/1.6/sales/invoices/${credit.id}/cancel`));
    expect(text((await printout(c, 'SalesInvoice', credit.id)).bytes)).toContain('STORNOVANÝ DOKLAD');
  });

  it('prints a record number with diacritics (RFC 6266 filename*), as an ordner FČ may give', async () => {
    ok(await c.post('/1.6/ordners', { code: 'FČ', name: 'Faktúry Č', documentType: 'SalesInvoice' }), 201);
    const inv = ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'FČ',
        warehouseId: whId,
        dateCreated: '2025-05-03',
        partnerDetail: 'Odberateľ',
        rows: [{ name: 'Služba', quantity: 1, price: 10 }],
      }),
      201,
    );
    expect(inv.recordNumber).toMatch(/^FČ2025\d{5}$/);
    const r = await printout(c, 'SalesInvoice', inv.id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe(
      `attachment; filename="F_${inv.recordNumber.slice(2)}.pdf"; filename*=UTF-8''F%C4%8C${inv.recordNumber.slice(2)}.pdf`,
    );
    expect(text(r.bytes)).toContain(inv.recordNumber);
  });

  it('finds the report by GUID too and the record parameter in any case', async () => {
    const report = ok(await c.get('/1.6/reports')).items.find((x: any) => x.code === 'SalesInvoice');
    expect((await printout(c, report.id, invoice.id, { Accept: 'application/pdf' }, 'recordid')).status).toBe(
      200,
    );
    expect(
      (
        await printout(
          c,
          'SalesInvoice',
          invoice.id,
          { Accept: 'text/html, application/pdf;q=0.9' },
          'RecordId',
        )
      ).status,
    ).toBe(200);
    // Without output/recordID the same path is the report definition.
    expect(ok(await c.get(`/1.6/reports/${report.id}`))).toMatchObject({
      code: 'SalesInvoice',
      documentType: 'SalesInvoice',
      builtIn: true,
    });
  });

  it('answers 406 without an Accept naming application/pdf, 400 for another output, 404 for another company', async () => {
    for (const accept of [{}, { Accept: '*/*' }, { Accept: 'application/json' }]) {
      const r = await printout(c, 'SalesInvoice', invoice.id, accept as Record<string, string>);
      expect(r.status).toBe(406);
      expect(r.json().code).toBe('NotAcceptable');
    }
    const xml = await stack.app.request(`/1.6/reports/SalesInvoice?output=xml&recordID=${invoice.id}`, {
      headers: { ...c.headers, Accept: 'application/pdf' },
    });
    expect(xml.status).toBe(400);
    expect((await xml.json()).errors).toEqual([
      { path: 'query.output', message: 'only output=pdf is supported' },
    ]);
    const other = await stack.company();
    const foreign = await printout(other, 'SalesInvoice', invoice.id);
    expect(foreign.status).toBe(404);
    expect(foreign.bytes.toString()).not.toContain('Kaviareň');
    expect((await printout(c, 'SalesInvoice', crypto.randomUUID())).status).toBe(404);
    expect((await printout(c, 'NoSuchReport', invoice.id)).status).toBe(404);
    const noAuth = await stack.app.request(`/1.6/reports/SalesInvoice?output=pdf&recordID=${invoice.id}`, {
      headers: { Accept: 'application/pdf' },
    });
    expect(noAuth.status).toBe(401);
  });

  it('prints an invoice of 2,000 rows whole, on many pages', async () => {
    // Long, poorly compressible names make the PDF larger than NATS's 1 MB message limit.
    const noise = () => Array.from({ length: 5 }, () => crypto.randomUUID()).join(' ');
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      name: `Položka č. ${i + 1} – ľadový čaj ${noise()}`,
      code: `P${i + 1}`,
      quantity: 1 + (i % 5),
      price: 1.25,
    }));
    const big = ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: whId,
        dateCreated: '2025-05-03',
        rows,
      }),
      201,
    );
    const r = await printout(c, 'SalesInvoice', big.id);
    expect(r.status).toBe(200);
    const { pages: n, text: t } = checkPdf(r.bytes);
    expect(n).toBeGreaterThan(20);
    expect(t).toContain('Položka č. 1 –');
    expect(t).toContain('Položka č. 2000 –');
    expect(t).toContain(`Strana ${n} / ${n}`);
    expect(Number(r.headers.get('content-length'))).toBe(r.bytes.length);
    expect(r.bytes.length).toBeGreaterThan(1024 * 1024);
  });
});

describe('issue card printout', () => {
  it('prints the card with its rows and cost', async () => {
    const honey = await item(c, { code: 'MED', name: 'Med lesný ďateľový' });
    await receive(c, whId, '2025-05-01', [[honey.id, 10, 4.55]]);
    const partner = ok(await c.get('/1.6/partners')).items[0];
    const card = ok(
      await c.post('/1.6/warehouses/issue-cards', {
        ordnerCode: 'VY',
        warehouseId: whId,
        partnerId: partner.id,
        dateOperation: '2025-05-04',
        rows: [{ itemId: honey.id, quantity: 3 }],
      }),
      201,
    );
    const r = await printout(c, 'IssueCard', card.id);
    expect(r.status).toBe(200);
    const t = text(r.bytes);
    for (const s of [
      card.recordNumber,
      'VÝDAJKA',
      'Med lesný ďateľový',
      '4,55',
      '13,65',
      'Kaviareň Ďumbier s.r.o.',
    ])
      expect(t).toContain(s);
    expect(r.bytes.length).toBeGreaterThan(1000);
  });
});

function summaryOf(inv: any) {
  return inv.vatSummary.map((s: any) => [String(s.rate), String(s.base), String(s.vat)]);
}

describe('bounds (issue #12)', () => {
  it("100 parallel printouts of a large invoice: some 503 with Retry-After, the others complete, another company's printout keeps working", async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({
      name: `Položka ${i + 1}`,
      quantity: 1,
      price: 1.5,
    }));
    const big = ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: whId,
        dateCreated: '2025-05-06',
        rows,
      }),
      201,
    );
    const other = await stack.company({ name: 'Iná firma s.r.o.' });
    await openYear(other, 2025);
    const otherWh = ok(await other.get('/1.6/warehouses')).items[0].id;
    const small = ok(
      await other.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: otherWh,
        dateCreated: '2025-05-06',
        rows: [{ name: 'Káva', quantity: 2, price: 3 }],
      }),
      201,
    );
    const burst = Promise.all(Array.from({ length: 100 }, () => printout(c, 'SalesInvoice', big.id)));
    // While the burst is in work, the other company's printout is admitted and completes.
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    const theirs = await printout(other, 'SalesInvoice', small.id);
    const theirsMs = performance.now() - t0;
    const mine = await burst;
    expect(theirs.status).toBe(200);
    expect(text(theirs.bytes)).toContain(small.recordNumber);
    const done = mine.filter((r) => r.status === 200);
    const refused = mine.filter((r) => r.status === 503);
    expect(done.length + refused.length).toBe(100);
    expect(done.length).toBeGreaterThanOrEqual(4);
    expect(refused.length).toBeGreaterThanOrEqual(50);
    expect(refused.every((r) => Number(r.headers.get('retry-after')) >= 1)).toBe(true);
    expect(refused[0].json().code).toBe('ServiceUnavailable');
    for (const r of done.slice(0, 3)) expect(text(r.bytes)).toContain(big.recordNumber);
    console.log(
      `printout burst: ${done.length} rendered, ${refused.length} refused; other company's printout ${theirsMs.toFixed(0)} ms`,
    );
  });
});

describe('abandoned printouts (issue #22)', () => {
  it('clients that abort mid-render free their slots: 4 clients looping at the per-company limit right after get no 503', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => ({
      name: `Riadok ${i + 1}`,
      quantity: 1,
      price: 2.5,
    }));
    const doc = ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: whId,
        dateCreated: '2025-05-07',
        rows,
      }),
      201,
    );
    const url = `/1.6/reports/SalesInvoice?output=pdf&recordID=${doc.id}`;
    const headers = { ...c.headers, Accept: 'application/pdf' };
    // 12 clients give up after 30 ms, while their renders are in work.
    const abandoned = Array.from({ length: 12 }, async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      const res = await Promise.resolve(stack.app.request(url, { headers, signal: controller.signal })).catch(
        () => null,
      );
      await res?.arrayBuffer().catch(() => undefined);
    });
    await new Promise((r) => setTimeout(r, 35));
    // Right after, 4 clients each fetch 5 printouts one after another: at the limit, never above it.
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 5; i++) {
          const res = await stack.app.request(url, { headers });
          const bytes = Buffer.from(await res.arrayBuffer());
          statuses.push(res.status);
          if (res.status === 200) expect(text(bytes)).toContain(doc.recordNumber);
        }
      }),
    );
    await Promise.all(abandoned);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses).toHaveLength(20);
  });
});
