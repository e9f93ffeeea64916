import { describe, expect, it } from 'vitest';
import type { VatCodeDef } from '../vat/vat-selection.js';
import { changeRefusal } from './invoice-state.js';
import { decideSalesInvoice, type InvoiceReferences, numberedInvoice } from './sales-invoice.decision.js';

const code = (id: string, rate: string): VatCodeDef => ({
  id,
  code: `V${rate}`,
  type: 'O',
  country: 'SK',
  rate,
  validFrom: '2025-01-01',
  validTo: null,
  kind: 'standard',
  paragraphs: [],
});
const v23 = code('vat-23', '23');
const v5 = code('vat-5', '5');
const refs = (over: Partial<InvoiceReferences> = {}): InvoiceReferences => ({
  profile: { currency: 'EUR', defaultDueDays: 14 },
  ordner: { id: 'ordner-of' },
  warehouseId: null,
  catalog: [
    { item: { id: 'item-1', code: 'T1', name: 'Tovar', kind: 'stock' }, unitId: 'unit-ks' },
    { item: null, unitId: null },
  ],
  partner: {
    id: 'partner-1',
    name: 'Odberateľ s.r.o.',
    address: 'Hlavná 1, Bratislava',
    deliveryAddress: null,
    dueDays: 30,
  },
  bankAccountId: 'bank-1',
  dateAccounting: '2025-03-10',
  period: { id: 'period-2025' },
  partnerCountry: 'SK',
  partnerNumber3: 'SK2020123456',
  vatNumber: 'SK2021999999',
  invoiceCode: v23,
  invoiceParagraph: null,
  rowCodes: [
    { code: v23, paragraph: null },
    { code: v5, paragraph: null },
  ],
  ...over,
});
const input = {
  ordnerId: 'ordner-of',
  dateCreated: '2025-03-10',
  dateDelivery: '2025-02-28',
  rows: [
    { itemId: 'item-1', quantity: '3', price: '10.00' },
    { name: 'Služba', quantity: '1', price: '20.00' },
  ],
} as any;

describe('a sales invoice decided (INTERFACE §2.4, DESIGN §6)', () => {
  const w = decideSalesInvoice(input, refs(), { id: 'inv-1', companyId: 'co-1' }, undefined, new Date(0));

  it('prices the rows and sums them per VAT code', () => {
    expect(w.rows.map((r) => [r.rowNo, r.code, r.name, r.sumBase, r.sumVat, r.sumTotal])).toEqual([
      [1, 'T1', 'Tovar', '30', '6.9', '36.9'],
      [2, null, 'Služba', '20', '1', '21'],
    ]);
    expect([w.fields.sumBase, w.fields.sumVat, w.fields.sumTotal]).toEqual(['50', '7.9', '57.9']);
    expect(w.posted).toEqual([
      { stockItem: true, amount: '30' },
      { stockItem: false, amount: '20' },
    ]);
  });

  it('fills the defaults: partner text and address, due date by the partner, VAT period by the tax point', () => {
    expect(w.fields).toMatchObject({
      partnerDetail: 'Odberateľ s.r.o.\nHlavná 1, Bratislava',
      partnerAddress: 'Hlavná 1, Bratislava',
      dateValidTo: '2025-04-09',
      vatPeriod: '2025-02',
      currency: 'EUR',
      periodId: 'period-2025',
      tags: [],
    });
    expect(w.state).toBe('issued');
    expect(w.change).toBe('created');
    const noPartner = decideSalesInvoice(input, refs({ partner: null }), { id: 'i', companyId: 'c' });
    expect(noPartner.fields.dateValidTo).toBe('2025-03-24');
    expect(noPartner.fields.partnerDetail).toBeNull();
  });

  it('derives what depends on the record number once it is known', () => {
    const n = numberedInvoice(w, 'OF2025/00042');
    expect(n.fields.recordNumber).toBe('OF2025/00042');
    expect(n.fields.symbolVariable).toBe('202500042');
    expect(n.event).toMatchObject({ invoiceId: 'inv-1', recordNumber: 'OF2025/00042', sumTotal: '57.9' });
    expect(n.entryLines.map((e) => [e.debitAccount, e.creditAccount, e.amount])).toEqual([
      ['311', '604', '30'],
      ['311', '602', '20'],
      ['311', '343', '7.9'],
    ]);
    const given = decideSalesInvoice({ ...input, symbolVariable: '777' }, refs(), {
      id: 'i',
      companyId: 'c',
    });
    expect(numberedInvoice(given, 'OF2025/00043').fields.symbolVariable).toBe('777');
  });

  it('is paid at once with a zero total; an update keeps the row ids it is sent back', () => {
    const zero = decideSalesInvoice(
      { ...input, rows: [{ name: 'Zadarmo', quantity: '1', price: '0' }] },
      refs({ catalog: [{ item: null, unitId: null }], rowCodes: [{ code: v23, paragraph: null }] }),
      { id: 'i', companyId: 'c' },
    );
    expect(zero.state).toBe('paid');
    const update = decideSalesInvoice(
      { ...input, rows: [{ ...input.rows[0], id: 'row-kept' }, input.rows[1]] },
      refs(),
      { id: 'inv-1', companyId: 'co-1' },
      {
        id: 'inv-1',
        mode: 'creation',
        warehouseRecordNo: 'VY2025/0003',
        rows: [{ id: 'row-kept', price: '10', priceBrutto: '12.3', grossEntered: false }],
      },
    );
    expect(update.rows[0].id).toBe('row-kept');
    expect(update.fields.warehouseRecordNo).toBe('VY2025/0003');
    expect(update.change).toBe('updated');
  });
});

describe('may a sales invoice change (DESIGN §6 "States")', () => {
  it('only while nothing is paid and it is not cancelled', () => {
    const inv = { sumTotal: '57.9', cancelled: false };
    expect(changeRefusal(inv, [], '2025-03-20')).toBeNull();
    expect(changeRefusal({ sumTotal: '0', cancelled: false }, [], '2025-03-20')).toBeNull();
    expect(changeRefusal(inv, [{ amount: '10', date: '2025-03-15' }], '2025-03-20')).toBe('partiallyPaid');
    expect(changeRefusal(inv, [{ amount: '57.9', date: '2025-04-15' }], '2025-03-20')).toBe('paid');
    expect(changeRefusal({ ...inv, cancelled: true }, [], '2025-03-20')).toBe('cancelled');
  });
});
