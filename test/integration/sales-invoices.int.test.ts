/**
 * Sales invoices through HTTP with exact figures (INTERFACE §2.4, §4.3, §7; DESIGN §6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, ok, openYear, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

let stack: Stack;
let c: Client;
let whId: string;
let sk: any;
let cz: any;
let de: any;

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company({
    ossRegistered: true,
    vatNumber: 'SK2020123456',
    iban: 'SK3112000000198742637541',
  });
  await openYear(c, 2024);
  await openYear(c, 2025);
  whId = (await warehouse(c)).id;
  sk = ok(
    await c.post('/1.6/partners', {
      code: 'SKB',
      name: 'Slovenská firma s.r.o.',
      address: 'Hlavná 1, Košice',
      country: 'SK',
      vatNumber: 'SK2021111111',
      dueDays: 10,
    }),
    201,
  );
  cz = ok(
    await c.post('/1.6/partners', { code: 'CZC', name: 'Jana Nováková', address: 'Praha', country: 'CZ' }),
    201,
  );
  de = ok(
    await c.post('/1.6/partners', {
      code: 'DEB',
      name: 'Müller GmbH',
      country: 'DE',
      vatNumber: 'DE123456789',
    }),
    201,
  );
});
afterAll(() => stack?.stop());

/** A sales invoice of ordner OF on 2025-03-10; tests give rows and what else they need (checked at run time). */
const invoice = (body: Record<string, unknown>) =>
  c.post(
    '/1.6/sales/invoices',
    unchecked({ ordnerCode: 'OF', warehouseId: whId, dateCreated: '2025-03-10', ...body }),
  );
const summary = (inv: any) => inv.vatSummary.map((s: any) => [s.vatCode, s.rate, s.base, s.vat]);
const totals = (inv: any) => [inv.sumBase, inv.sumVat, inv.sumTotal];

describe('domestic VAT (DESIGN §6)', () => {
  it('applies 23 % for a 2025 tax point and 20 % for a 2024 one', async () => {
    const a = ok(
      await invoice({ partnerId: sk.id, rows: [{ name: 'Tovar', quantity: 2, price: 10.5 }] }),
      201,
    );
    expect(a).toMatchObject({
      vatCode: 'SK23',
      vatRate: 23,
      mode: 'creation',
      state: 'issued',
      currency: 'EUR',
    });
    expect(summary(a)).toEqual([['SK23', 23, 21, 4.83]]);
    expect(totals(a)).toEqual([21, 4.83, 25.83]);
    expect(a.balance).toBe(25.83);
    const b = ok(
      await invoice({
        partnerId: sk.id,
        dateCreated: '2025-01-05',
        dateDelivery: '2024-12-20',
        rows: [{ name: 'Tovar', quantity: 2, price: 10.5 }],
      }),
      201,
    );
    expect(summary(b)).toEqual([['SK20', 20, 21, 4.2]]);
    expect(b.vatPeriod).toBe('2024-12');
    const refused = await invoice({
      dateDelivery: '2025-02-01',
      vatCode: 'SK20',
      rows: [{ name: 'x', quantity: 1, price: 1 }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'VatCodeNotValid', errors: [{ path: 'vatCode' }] });
    expect(refused.body.detail).toMatch(/not on the tax point 2025-02-01/);
  });

  it('selects reduced rates by vatRate, with mixed rates and a row overriding the invoice VAT', async () => {
    const inv = ok(
      await invoice({
        partnerId: sk.id,
        vatRate: 19,
        rows: [
          { name: 'Potraviny', quantity: 3, price: 1.99 },
          { name: 'Knihy', quantity: 1, price: 12, vatRate: 5 },
          { name: 'Elektronika', quantity: 1, price: 100, vatCode: 'SK23' },
          { name: 'Potraviny 2', quantity: 1, price: 0.03 },
        ],
      }),
      201,
    );
    expect(inv.vatCode).toBe('SK19');
    expect(inv.rows.map((r: any) => [r.vatCode, r.sumBase, r.sumVat])).toEqual([
      ['SK19', 5.97, 1.13],
      ['SK5', 12, 0.6],
      ['SK23', 100, 23],
      ['SK19', 0.03, 0.01],
    ]);
    // VAT per code on the sum of bases: 19 % of 6.00 = 1.14 (the rows alone would give 1.14 too, by luck of cents).
    expect(summary(inv)).toEqual([
      ['SK19', 19, 6, 1.14],
      ['SK5', 5, 12, 0.6],
      ['SK23', 23, 100, 23],
    ]);
    expect(totals(inv)).toEqual([118, 24.74, 142.74]);
  });

  it('derives net prices from gross rows by the coefficient method, and gross from net', async () => {
    const inv = ok(
      await invoice({
        rows: [
          { name: 'A', quantity: 2, priceBrutto: 12.3 },
          { name: 'B', quantity: 1, priceBrutto: 1.99 },
        ],
      }),
      201,
    );
    // Σ gross 26.59; VAT = round(26.59 × 23 / 123) = 4.97
    expect(summary(inv)).toEqual([['SK23', 23, 21.62, 4.97]]);
    expect(inv.rows.map((r: any) => [r.price, r.priceBrutto])).toEqual([
      [10, 12.3],
      [1.6179, 1.99],
    ]);
    const net = ok(await invoice({ rows: [{ name: 'C', quantity: 1, price: 3.33 }] }), 201);
    expect(net.rows[0].priceBrutto).toBe(4.0959);
  });

  it('discounts every row by bonusPercent without rounding in between', async () => {
    const inv = ok(
      await invoice({
        bonusPercent: 10,
        rows: [
          { name: 'A', quantity: 3, price: 3.335 },
          { name: 'B', quantity: 1, price: 100 },
        ],
      }),
      201,
    );
    // 3 × 3.335 × 0.9 = 9.0045 → 9.00; 90.00
    expect(inv.rows.map((r: any) => r.sumBase)).toEqual([9, 90]);
    expect(summary(inv)).toEqual([['SK23', 23, 99, 22.77]]);
    expect(inv.bonusPercent).toBe(10);
  });

  it('keeps every number of a record-mode invoice as sent', async () => {
    const inv = ok(
      await invoice({
        recordNumber: 'EXT-2025-77',
        rows: [
          { name: 'A', quantity: 3, price: 3.33, priceBrutto: 4.1, vatRate: 23 },
          { name: 'B', quantity: 1, price: 10, priceBrutto: 10.5, vatCode: 'SK5' },
        ],
      }),
      201,
    );
    expect(inv.mode).toBe('record');
    expect(inv.recordNumber).toBe('EXT-2025-77');
    expect(inv.rows.map((r: any) => [r.price, r.priceBrutto, r.sumBase, r.sumVat, r.sumTotal])).toEqual([
      [3.33, 4.1, 9.99, 2.31, 12.3],
      [10, 10.5, 10, 0.5, 10.5],
    ]);
    expect(totals(inv)).toEqual([19.99, 2.81, 22.8]);
    expect(inv.symbolVariable).toBe('202577');
  });
});

describe('VAT codes, OSS and paragraphs', () => {
  it('is case-sensitive for vatCode and refuses a type-I vatID', async () => {
    const r = await invoice({ vatCode: 'sk23', rows: [{ name: 'x', quantity: 1, price: 1 }] });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('VatCodeNotValid');
    expect(r.body.detail).toMatch(/case-sensitive/);
    const codes = ok(await c.get('/1.6/vat-codes?pageSize=500')).items;
    const input = codes.find((x: any) => x.code === 'I-SK23');
    const t = await invoice({ vatID: input.id, rows: [{ name: 'x', quantity: 1, price: 1 }] });
    expect(t.status).toBe(422);
    expect(t.body.detail).toMatch(/type I/);
  });

  it('taxes consumers in CZ, DE and AT at their own rates (OSS), and refuses OSS without partnerCountry', async () => {
    const sale = (partnerCountry: string) =>
      invoice({ partnerId: cz.id, partnerCountry, rows: [{ name: 'E-book', quantity: 1, price: 100 }] });
    expect(summary(ok(await sale('CZ'), 201))).toEqual([['OSS-CZ21', 21, 100, 21]]);
    expect(summary(ok(await sale('DE'), 201))).toEqual([['OSS-DE19', 19, 100, 19]]);
    expect(summary(ok(await sale('at'), 201))).toEqual([['OSS-AT20', 20, 100, 20]]);
    const reduced = ok(
      await invoice({ partnerCountry: 'CZ', vatRate: 12, rows: [{ name: 'Kniha', quantity: 1, price: 50 }] }),
      201,
    );
    expect(summary(reduced)).toEqual([['OSS-CZ12', 12, 50, 6]]);
    const without = await invoice({
      vatCode: 'OSS-CZ21',
      rows: [{ name: 'E-book', quantity: 1, price: 100 }],
    });
    expect(without.status).toBe(422);
    expect(without.body).toMatchObject({ code: 'VatCodeNotValid', errors: [{ path: 'vatCode' }] });
    expect(without.body.detail).toMatch(/partnerCountry must be set/);
  });

  it('picks the intra-Community code for 0 % to a business with a DE VAT number', async () => {
    const inv = ok(
      await invoice({ partnerId: de.id, vatRate: 0, rows: [{ name: 'Stroj', quantity: 1, price: 1000 }] }),
      201,
    );
    expect(inv).toMatchObject({ vatCode: 'SK0-IC', partnerNumber3: 'DE123456789', partnerCountry: 'DE' });
    expect(summary(inv)).toEqual([['SK0-IC', 0, 1000, 0]]);
    const ic = ok(await c.get(`/1.6/vat-codes/${inv.vatID}`));
    expect(inv.vatParagraphID).toBe(ic.paragraphs.find((p: any) => p.isDefault).id);
  });

  it('validates vatParagraphID against the code', async () => {
    const codes = ok(await c.get('/1.6/vat-codes?pageSize=500')).items;
    const ic = codes.find((x: any) => x.code === 'SK0-IC');
    const services = ic.paragraphs.find((p: any) => p.code === 'IC-SERVICES');
    const good = ok(
      await invoice({
        partnerId: de.id,
        vatRate: 0,
        vatParagraphID: services.id,
        rows: [{ name: 'Služba', quantity: 1, price: 10 }],
      }),
      201,
    );
    expect(good.vatParagraphID).toBe(services.id);
    expect(good.rows[0].vatParagraphID).toBe(services.id);
    const bad = await invoice({ vatParagraphID: services.id, rows: [{ name: 'x', quantity: 1, price: 1 }] });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'VatParagraphNotValid', errors: [{ path: 'vatParagraphID' }] });
  });
});

describe('validation and defaults', () => {
  it('refuses quantity 0 and a row with neither price nor priceBrutto with 400', async () => {
    const zero = await invoice({ rows: [{ name: 'x', quantity: 0, price: 1 }] });
    expect(zero.status).toBe(400);
    expect(zero.body.errors).toEqual([
      { path: 'rows.0.quantity', message: 'quantity must be other than zero' },
    ]);
    // Amounts beyond what the books can hold are the client's data, not a server error.
    const huge = await invoice({ rows: [{ name: 'x', quantity: 99999999999999, price: 99999999999999 }] });
    expect(huge.status).toBe(400);
    expect(huge.body).toMatchObject({ code: 'ValidationFailed', detail: 'a number is too large' });
    // The example's PeriodYear/Period are accepted (and ignored) here too (DESIGN §2).
    expect(
      (await invoice({ PeriodYear: '2025', Period: '2025-03', rows: [{ name: 'x', quantity: 1, price: 1 }] }))
        .status,
    ).toBe(201);
    expect(
      (await invoice({ periodyeer: '2025', rows: [{ name: 'x', quantity: 1, price: 1 }] })).body.errors,
    ).toEqual([{ path: 'periodyeer', message: 'unknown field' }]);
    const noPrice = await invoice({ rows: [{ name: 'x', quantity: 1 }] });
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.errors).toEqual([
      { path: 'rows.0.price', message: 'price or priceBrutto is required' },
    ]);
  });

  it('fills partner details, due date, variable symbol, bank account, item texts and a record number', async () => {
    const it1 = await item(c, { code: 'KAV', name: 'Káva', unitCode: 'kg' });
    const inv = ok(
      await invoice({ partnerId: sk.id, rows: [{ itemCode: 'KAV', quantity: 2, price: 8 }] }),
      201,
    );
    expect(inv).toMatchObject({
      partnerDetail: 'Slovenská firma s.r.o.\nHlavná 1, Košice',
      partnerCountry: 'SK',
      partnerNumber3: 'SK2021111111',
      dateAccounting: '2025-03-10',
      dateValidTo: '2025-03-20',
      vatNumber: 'SK2020123456',
    });
    expect(inv.recordNumber).toMatch(/^OF2025\d{5}$/);
    expect(inv.symbolVariable).toBe(inv.recordNumber.replace(/\D/g, ''));
    expect(inv.bankAccountId).toEqual(expect.any(String));
    // The create reply is what a later GET returns.
    expect(ok(await c.get(`/1.6/sales/invoices/${inv.id}`))).toEqual(inv);
    expect(inv.rows[0]).toMatchObject({ itemId: it1.id, code: 'KAV', name: 'Káva' });
    expect(inv.accountingEntries).toEqual([
      {
        debitAccount: '311',
        creditAccount: '604',
        amount: 16,
        description: `Sales invoice ${inv.recordNumber}`,
      },
      {
        debitAccount: '311',
        creditAccount: '343',
        amount: 3.68,
        description: `Sales invoice ${inv.recordNumber}`,
      },
    ]);
    const dup = await invoice({
      recordNumber: inv.recordNumber,
      rows: [{ name: 'x', quantity: 1, price: 1 }],
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DuplicateRecordNumber');
  });
});

describe('states and updates (DESIGN §6 "States")', () => {
  it('takes back unchanged what GET returned, as JSON and as XML: same rows, ids, prices and totals', async () => {
    const inv = ok(
      await invoice({
        partnerId: sk.id,
        bonusPercent: 5,
        rows: [
          { name: 'Net', quantity: 3, price: 10.99 },
          { name: 'Gross', quantity: 7, priceBrutto: 9.99 },
          { name: 'Reduced', quantity: 1, priceBrutto: 10, vatRate: 5 },
        ],
      }),
      201,
    );
    // Creation mode: bonus on every row, gross rows by the coefficient method per VAT code.
    expect(inv.rows.map((r: any) => [r.price, r.priceBrutto, r.sumBase])).toEqual([
      [10.99, 13.5177, 31.32],
      [8.122, 9.99, 54.01],
      [9.5238, 10, 9.05],
    ]);
    expect(summary(inv)).toEqual([
      ['SK23', 23, 85.33, 19.62],
      ['SK5', 5, 9.05, 0.45],
    ]);
    expect(totals(inv)).toEqual([94.38, 20.07, 114.45]);

    const again = ok(await c.put(`/1.6/sales/invoices/${inv.id}`, inv));
    expect(again).toEqual(inv);

    const xml = await c.get(`/1.6/sales/invoices/${inv.id}`, { Accept: 'application/xml' });
    expect(xml.text).toContain('<bonusPercent>5</bonusPercent><orderRecordNo/>');
    const fromXml = await c.put(`/1.6/sales/invoices/${inv.id}`, unchecked(xml.text), {
      'Content-Type': 'application/xml',
    });
    expect(fromXml.status).toBe(200);
    expect(fromXml.body).toEqual(inv);

    // A changed net price wins over the gross price sent with it; the other rows keep their basis.
    const changed = structuredClone(inv);
    changed.rows[1].price = 8;
    const repriced = ok(await c.put(`/1.6/sales/invoices/${inv.id}`, changed));
    expect(repriced.rows.map((r: any) => [r.id, r.price, r.priceBrutto, r.sumBase])).toEqual([
      [inv.rows[0].id, 10.99, 13.5177, 31.32],
      [inv.rows[1].id, 8, 9.84, 53.2],
      [inv.rows[2].id, 9.5238, 10, 9.05],
    ]);
  });

  it('never lets an update, a payment and a cancel of one invoice all pass when they race', async () => {
    for (let i = 0; i < 15; i++) {
      const inv = ok(
        await invoice({ partnerId: sk.id, rows: [{ name: 'A', quantity: 1, price: 100, vatRate: 0 }] }),
        201,
      );
      const smaller = { ...inv, rows: [{ ...inv.rows[0], price: 50, priceBrutto: null }] };
      const [put, pay, cancel] = await Promise.all([
        c.put(`/1.6/sales/invoices/${inv.id}`, smaller),
        c.post(`/1.6/sales/invoices/${inv.id}/payments`, { amount: 80, date: '2025-03-12' }),
        i % 3 === 0 ? c.post(`/1.6/sales/invoices/${inv.id}/cancel`) : Promise.resolve(null),
      ]);
      const after = ok(await c.get(`/1.6/sales/invoices/${inv.id}`));
      const paid = after.payments.reduce((a: number, p: any) => a + p.amount, 0);
      // Payments never exceed the total and a cancelled invoice has none: a payment excludes both an
      // update (either order: 409 InvalidState, or 409 Conflict for 80 > 50) and a cancel.
      expect(paid).toBeLessThanOrEqual(after.sumTotal);
      if (after.state === 'cancelled') expect(paid).toBe(0);
      if (pay.status === 201) expect([put.status, cancel?.status ?? 409]).toEqual([409, 409]);
      else expect(put.status === 200 || cancel?.status === 200).toBe(true);
    }
  });

  it('updates an issued invoice with all data and refuses updates after a payment, after cancel and in a closed period', async () => {
    const inv = ok(await invoice({ partnerId: sk.id, rows: [{ name: 'A', quantity: 1, price: 100 }] }), 201);
    const back = {
      ...inv,
      commentAboveItems: 'Fakturujeme Vám',
      rows: [...inv.rows, { name: 'B', quantity: 1, price: 50, vatRate: 5 }],
    };
    const updated = ok(await c.put(`/1.6/sales/invoices/${inv.id}`, back));
    expect(updated).toMatchObject({
      id: inv.id,
      recordNumber: inv.recordNumber,
      commentAboveItems: 'Fakturujeme Vám',
    });
    expect(totals(updated)).toEqual([150, 25.5, 175.5]);
    expect(ok(await c.get(`/1.6/sales/invoices/${inv.id}`))).toEqual(updated);
    const paid = ok(
      await c.post(`/1.6/sales/invoices/${inv.id}/payments`, { amount: 75.5, date: '2025-03-15' }),
      201,
    );
    expect(paid).toMatchObject({ state: 'partiallyPaid', balance: 100 });
    const afterPayment = await c.put(`/1.6/sales/invoices/${inv.id}`, updated);
    expect(afterPayment.status).toBe(409);
    expect(afterPayment.body.code).toBe('InvalidState');
    expect(ok(await c.post(`/1.6/sales/invoices/${inv.id}/payments`, { amount: 100 }), 201)).toMatchObject({
      state: 'paid',
      balance: 0,
    });
    expect((await c.post(`/1.6/sales/invoices/${inv.id}/payments`, { amount: 1 })).status).toBe(409);

    const other = ok(await invoice({ rows: [{ name: 'C', quantity: 1, price: 10 }] }), 201);
    const cancelled = ok(await c.post(`/1.6/sales/invoices/${other.id}/cancel`));
    expect(cancelled).toMatchObject({ state: 'cancelled', balance: 0 });
    expect(cancelled.accountingEntries.at(-1)).toMatchObject({
      amount: -2.3,
      description: `Cancellation of ${other.recordNumber}`,
    });
    expect((await c.put(`/1.6/sales/invoices/${other.id}`, other)).body.code).toBe('InvalidState');

    const p2024 = (ok(await c.get('/1.6/periods?pageSize=500')).items as any[]).find(
      (p) => p.code === '2024',
    );
    const old = ok(
      await invoice({ dateCreated: '2024-11-11', rows: [{ name: 'D', quantity: 1, price: 10 }] }),
      201,
    );
    expect(old.vatCode).toBe('SK20');
    ok(await c.post(`/1.6/periods/${p2024.id}/close`));
    const closed = await c.put(`/1.6/sales/invoices/${old.id}`, old);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('InvalidState');
    const inClosed = await invoice({
      dateCreated: '2024-12-01',
      rows: [{ name: 'E', quantity: 1, price: 1 }],
    });
    expect(inClosed.body.code).toBe('PeriodClosed');
  });
});

describe('purchase invoices', () => {
  it('lists newest first, filtered by dateCreated range and partner', async () => {
    const own = await stack.company();
    await openYear(own, 2025);
    const [p1, p2] = await Promise.all(
      ['A', 'B'].map(async (n) =>
        ok(await own.post('/1.6/partners', { code: `PL${n}`, name: `Dodávateľ ${n}` }), 201),
      ),
    );
    for (const [partnerId, dateCreated, price] of [
      [p1.id, '2025-01-10', 10],
      [p2.id, '2025-02-10', 20],
      [p1.id, '2025-03-10', 30],
      [p1.id, '2025-04-10', 40],
    ] as const) {
      ok(
        await own.post('/1.6/purchase/invoices', {
          partnerId,
          dateCreated,
          rows: [{ name: 'X', itemsAmount: 1, price }],
        }),
        201,
      );
    }
    const all = ok(await own.get('/1.6/purchase/invoices'));
    expect(all.items.map((i: any) => [i.dateCreated, i.sum, i.partnerName])).toEqual([
      ['2025-04-10', 40, 'Dodávateľ A'],
      ['2025-03-10', 30, 'Dodávateľ A'],
      ['2025-02-10', 20, 'Dodávateľ B'],
      ['2025-01-10', 10, 'Dodávateľ A'],
    ]);
    const some = ok(
      await own.get(`/1.6/purchase/invoices/1?partnerId=${p1.id}&dateFrom=2025-02-01&dateTo=2025-03-31`),
    );
    expect([some.totalCount, some.items.map((i: any) => i.sum)]).toEqual([1, [30]]);
  });

  it('defaults row sums, the VAT period, and requires localSum for another currency', async () => {
    const inv = ok(
      await c.post('/1.6/purchase/invoices', {
        partnerId: sk.id,
        dateCreated: '2025-04-02',
        dateDelivery: '2025-03-28',
        externalRecordNumber: 'FA-991',
        rows: [
          { name: 'Káva', itemsAmount: 3, price: 10.5, bonus: 0.5, bonusPercent: 10 },
          { name: 'Doprava', itemsAmount: 1, price: 15 },
        ],
      }),
      201,
    );
    expect(inv.rows.map((r: any) => [r.sum, r.localSum])).toEqual([
      [27, 27],
      [15, 15],
    ]);
    expect(inv).toMatchObject({
      Period: '2025-03',
      PeriodYear: '2025',
      currency1: 'EUR',
      sum: 42,
      localSum: 42,
      externalRecordNumber: 'FA-991',
    });
    expect(inv.recordNumber).toMatch(/^DF2025\d{5}$/);
    expect(inv.accountingEntries).toEqual([
      {
        debitAccount: '518',
        creditAccount: '321',
        amount: 42,
        description: `Purchase invoice ${inv.recordNumber}`,
      },
    ]);
    const periodGiven = ok(
      await c.post('/1.6/purchase/invoices', {
        partnerId: sk.id,
        dateCreated: '2025-04-02',
        PeriodYear: '2025',
        Period: '2025-04',
        rows: [],
      }),
      201,
    );
    expect(periodGiven.Period).toBe('2025-04');
    const mismatch = await c.post('/1.6/purchase/invoices', {
      partnerId: sk.id,
      dateCreated: '2025-04-02',
      PeriodYear: '2024',
      rows: [],
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0].path).toBe('PeriodYear');
    const usd = await c.post('/1.6/purchase/invoices', {
      partnerId: sk.id,
      dateCreated: '2025-04-02',
      currency1: 'USD',
      rows: [{ name: 'Software', itemsAmount: 1, price: 100 }],
    });
    expect(usd.status).toBe(400);
    expect(usd.body.errors).toEqual([
      { path: 'rows.0.localSum', message: 'required: the invoice is in USD, the company books in EUR' },
    ]);
    const usdOk = ok(
      await c.post('/1.6/purchase/invoices', {
        partnerId: sk.id,
        dateCreated: '2025-04-02',
        currency1: 'usd',
        rows: [{ name: 'Software', itemsAmount: 1, price: 100, localSum: 92.35 }],
      }),
      201,
    );
    expect(usdOk).toMatchObject({ currency1: 'USD', sum: 100, localSum: 92.35 });
    const got = ok(await c.get(`/1.6/purchase/invoices/${usdOk.id}`));
    expect(got).toEqual(usdOk);
    const list = ok(await c.get('/1.6/purchase/invoices/1'));
    expect(list.totalCount).toBe(3);
    expect(list.items[0]).toMatchObject({ partnerName: 'Slovenská firma s.r.o.' });
  });
});
