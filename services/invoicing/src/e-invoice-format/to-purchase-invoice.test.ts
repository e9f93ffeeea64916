/**
 * Received documents as purchase invoices, without a database (issue #21): signs of a CreditNote and its
 * allowances, the rate to the company currency from BT-111 / BT-110, who the buyer is, the new supplier.
 */
import { describe, expect, it } from 'vitest';
import { eInvoiceFromSalesInvoice } from './from-sales-invoice.js';
import type { ReceivedEInvoice } from './model.js';
import { sampleSource } from './sample-source.fixture.js';
import { isForCompany, purchaseFromEInvoice, supplierPartnerData } from './to-purchase-invoice.js';

const company = {
  vatNumber: 'SK2021987654',
  companyNumber: '36789012',
  taxNumber: '2021987654',
  country: 'SK',
  peppolId: null,
  currency: 'EUR',
};
/** The sample invoice (2 × 50.00 at 23 %) as the buyer receives it. */
const received = (over: Partial<ReceivedEInvoice> = {}): ReceivedEInvoice => ({
  ...eInvoiceFromSalesInvoice(sampleSource()),
  taxCurrency: null,
  taxTotalInTaxCurrency: null,
  ...over,
});

describe('purchaseFromEInvoice', () => {
  it('takes where to pay from the payment means (issue #45): the IBAN of BT-84, the variable symbol of BT-83', () => {
    const pay = (paymentId: string | null, iban = 'SK31 1200 0000 1987 4263 7541') =>
      purchaseFromEInvoice(
        received({ payment: { meansCode: '58', paymentId, iban, bic: null, accountName: null } }),
        company,
        '2026-11-25',
      );
    expect(pay('2026000123')).toMatchObject({
      iban: 'SK3112000000198742637541',
      symbolVariable: '2026000123',
      symbolSpecific: null,
      symbolConstant: null,
    });
    expect(pay('/VS77/SS12/KS0308')).toMatchObject({
      symbolVariable: '77',
      symbolSpecific: '12',
      symbolConstant: '0308',
    });
    expect(pay('Invoice INV-2026-7')).toMatchObject({ symbolVariable: null });
    expect(pay(null, 'not an iban')).toMatchObject({ iban: null, symbolVariable: null });
  });

  it('an Invoice books its lines, totals and VAT as stated, on the day of receipt', () => {
    const p = purchaseFromEInvoice(received(), company, '2026-11-25');
    expect(p.rows).toEqual([
      { name: 'Káva', code: 'K', itemsAmount: '2', price: '50', sum: '100', localSum: '100', vatRate: '23' },
    ]);
    expect([p.sum, p.sumVat, p.sumTotal, p.localSum, p.dateAccounting, p.vatPeriod]).toEqual([
      '100',
      '23',
      '123',
      '100',
      '2026-11-25',
      '2026-11',
    ]);
    expect(p.vatSummary).toEqual([{ category: 'S', rate: '23', base: '100', vat: '23' }]);
  });

  it('a CreditNote books negative; its allowance is a row whose quantity × price is its sum', () => {
    const doc = received({ documentType: 'CreditNote', typeCode: '381' });
    doc.allowanceCharges = [
      { charge: false, amount: '5.00', reason: 'Zľava', reasonCode: '95', category: 'S', rate: '23' },
    ];
    const p = purchaseFromEInvoice(doc, company, '2026-11-25');
    expect(p.rows.map((r) => [r.name, r.itemsAmount, r.price, r.sum])).toEqual([
      ['Káva', '-2', '50', '-100'],
      ['Zľava', '1', '5', '5'],
    ]);
    expect(p.sum).toBe('-100');
  });

  it('another currency: local sums by the rate its VAT in EUR implies (BT-111 / BT-110)', () => {
    const doc = received({ currency: 'CZK', taxCurrency: 'EUR', taxTotalInTaxCurrency: '0.92' });
    // 23.00 CZK of VAT stated as 0.92 EUR: rate 0.04, so 100 CZK → 4.00 EUR.
    expect(purchaseFromEInvoice(doc, company, '2026-11-25').rows[0].localSum).toBe('4');
  });
});

describe('the buyer and the new supplier', () => {
  it('the buyer is this company by VAT number, IČO, DIČ or endpoint, and not otherwise', () => {
    const buyer = received().buyer;
    expect(isForCompany(buyer, company)).toBe(true);
    expect(isForCompany({ ...buyer, vatId: null, legalId: null, endpoint: null }, company)).toBe(true); // DIČ
    expect(isForCompany({ ...buyer, vatId: null, legalId: null, taxNumber: null }, company)).toBe(true); // 0245:DIČ
    expect(
      isForCompany(
        { ...buyer, vatId: 'SK2022222222', legalId: '1', taxNumber: null, endpoint: null },
        company,
      ),
    ).toBe(false);
  });

  it('a new supplier: code from its VAT id, VAT number normalised, address composed', () => {
    const seller = { ...received().seller, vatId: 'sk 2020123456' };
    expect(supplierPartnerData(seller)).toMatchObject({
      code: 'EF-SK2020123456',
      vatNumber: 'SK2020123456',
      address: 'Hlavná 12, 81101 Bratislava',
      peppolId: '0245:2020123456',
    });
  });
});
