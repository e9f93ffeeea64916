/**
 * Every pre-flight rule (issue #21) with a failing and a passing case: a valid Slovak domestic invoice
 * passes all rules; each case breaks exactly what its rule checks and expects that rule (and no other
 * rule id) in the findings. No database: the model is built by the pure mapping.
 */
import { describe, expect, it } from 'vitest';
import { eInvoiceFromSalesInvoice } from './from-sales-invoice.js';
import type { EInvoice } from './model.js';
import { preflight } from './preflight.js';
import { sampleSource } from './sample-source.fixture.js';
import type { EInvoiceSource } from './source.js';

const source = sampleSource;

/** A source whose only row and summary use VAT code `code` at 0 %. */
const atZero = (code: string, paragraph: string | null = null) => {
  const s = source();
  s.invoice.rows[0] = { ...s.invoice.rows[0], vatId: code, vatRate: '0', vatParagraphId: paragraph };
  s.invoice.vatSummary = [{ vatID: code, rate: '0', base: '100', vat: '0' }];
  Object.assign(s.invoice, { sumVat: '0', sumTotal: '100' });
  return s;
};

const rules = (inv: EInvoice, sk = true) => [...new Set(preflight(inv, { sk }).map((f) => f.rule))].sort();
const build = (edit: (s: EInvoiceSource) => void) => {
  const s = source();
  edit(s);
  return eInvoiceFromSalesInvoice(s);
};

describe('pre-flight rules', () => {
  it('a complete Slovak domestic invoice passes every rule', () => {
    expect(preflight(eInvoiceFromSalesInvoice(source()), { sk: true })).toEqual([]);
  });

  const noSellerVat = (s: EInvoiceSource) => {
    s.seller.vatNumber = null;
    s.seller.taxNumber = '2020123456';
  };
  const cases: [string, () => EInvoice, string[]][] = [
    [
      'PEPPOL-EN16931-R020',
      () => build((s) => Object.assign(s.seller, { taxNumber: null, vatNumber: null, country: 'AT' })),
      ['BR-S-02', 'PEPPOL-EN16931-R020', 'SK-04'],
    ],
    [
      'PEPPOL-EN16931-R010',
      () => build((s) => Object.assign(s.invoice, { partnerNumber3: null, partnerCountry: 'CZ' })),
      ['PEPPOL-EN16931-R010'],
    ],
    [
      'BR-06',
      () =>
        build((s) => {
          s.seller.name = ' ';
        }),
      ['BR-06'],
    ],
    [
      'BR-07',
      () =>
        build((s) => {
          s.invoice.partnerDetail = null;
          s.buyer!.name = '';
        }),
      ['BR-07'],
    ],
    [
      'BR-11',
      () =>
        build((s) => {
          s.invoice.partnerCountry = null;
          s.buyer!.taxNumber = null;
        }),
      ['BR-11'],
    ],
    [
      'BR-CO-09',
      () =>
        build((s) => {
          s.invoice.partnerNumber3 = '2021987654';
        }),
      ['BR-CO-09'],
    ],
    ['BR-S-02', () => build(noSellerVat), ['BR-S-02', 'SK-04']],
    [
      'BR-Z-02',
      () => {
        const s = atZero('z');
        noSellerVat(s);
        return eInvoiceFromSalesInvoice(s);
      },
      ['BR-Z-02', 'SK-04'],
    ],
    [
      'BR-E-02',
      () => {
        const s = atZero('os');
        noSellerVat(s);
        return eInvoiceFromSalesInvoice(s);
      },
      ['BR-E-02', 'SK-04'],
    ],
    [
      'BR-G-02',
      () => {
        const s = atZero('ex');
        noSellerVat(s);
        return eInvoiceFromSalesInvoice(s);
      },
      ['BR-G-02', 'SK-04'],
    ],
    [
      'BR-IC-02',
      () => {
        const s = atZero('ic', 'g');
        s.invoice.partnerNumber3 = null;
        s.buyer!.peppolId = '0088:5790000435951';
        return eInvoiceFromSalesInvoice(s);
      },
      ['BR-IC-02'],
    ],
    [
      'BR-AE-02',
      () => {
        const s = atZero('ic', 's');
        noSellerVat(s);
        return eInvoiceFromSalesInvoice(s);
      },
      ['BR-AE-02', 'SK-04'],
    ],
    [
      'BR-IC-12',
      () => {
        const inv = eInvoiceFromSalesInvoice(atZero('ic', 'g'));
        inv.delivery = { date: inv.delivery!.date, country: null };
        return inv;
      },
      ['BR-IC-12'],
    ],
    [
      'BR-IC-11',
      () => {
        const inv = eInvoiceFromSalesInvoice(atZero('ic', 'g'));
        inv.delivery = { date: null, country: 'SK' };
        return inv;
      },
      ['BR-IC-11'],
    ],
    [
      'BR-16',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.lines = [];
        inv.totals.lineTotal = '0.00';
        inv.totals.taxExclusive = '0.00';
        inv.totals.taxInclusive = '23.00';
        inv.totals.payable = '23.00';
        return inv;
      },
      ['BR-16'],
    ],
    [
      'BR-CO-10',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.totals.lineTotal = '100.01';
        inv.totals.taxExclusive = '100.01';
        inv.totals.taxInclusive = '123.01';
        inv.totals.payable = '123.01';
        return inv;
      },
      ['BR-CO-10'],
    ],
    [
      'BR-CO-13',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.totals.taxExclusive = '99.00';
        inv.totals.taxInclusive = '122.00';
        inv.totals.payable = '122.00';
        return inv;
      },
      ['BR-CO-13'],
    ],
    [
      'BR-CO-14',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.totals.taxTotal = '24.00';
        inv.totals.taxInclusive = '124.00';
        inv.totals.payable = '124.00';
        return inv;
      },
      ['BR-CO-14'],
    ],
    [
      'BR-CO-15',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.totals.taxInclusive = '124.00';
        inv.totals.payable = '124.00';
        return inv;
      },
      ['BR-CO-15'],
    ],
    [
      'BR-CO-16',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.totals.payable = '124.00';
        return inv;
      },
      ['BR-CO-16'],
    ],
    [
      'BR-CO-17',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.vatBreakdown[0].tax = '25.00';
        inv.totals.taxTotal = '25.00';
        inv.totals.taxInclusive = '125.00';
        inv.totals.payable = '125.00';
        return inv;
      },
      ['BR-CO-17'],
    ],
    [
      'PEPPOL-EN16931-R120',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.lines[0].netPrice = '50.02';
        return inv;
      },
      ['PEPPOL-EN16931-R120'],
    ],
    [
      'BR-27',
      () => {
        const inv = eInvoiceFromSalesInvoice(source());
        inv.lines[0].netPrice = '-50';
        inv.lines[0].quantity = '-2';
        return inv;
      },
      ['BR-27'],
    ],
    [
      'SK-02',
      () =>
        build((s) => {
          s.invoice.dateValidTo = null;
        }),
      ['SK-02'],
    ],
    [
      'SK-03',
      () =>
        build((s) => {
          s.seller.companyNumber = null;
        }),
      ['SK-03'],
    ],
    [
      'SK-05',
      () =>
        build((s) => {
          s.seller.street = null;
        }),
      ['SK-05'],
    ],
    [
      'SK-06',
      () =>
        build((s) => {
          s.seller.city = null;
        }),
      ['SK-06'],
    ],
    [
      'SK-07',
      () =>
        build((s) => {
          s.seller.postalCode = null;
        }),
      ['SK-07'],
    ],
    [
      'SK-08',
      () =>
        build((s) => {
          s.invoice.partnerNumber3 = null;
          s.buyer!.companyNumber = null;
        }),
      ['SK-08'],
    ],
    [
      'SK-09',
      () =>
        build((s) => {
          s.buyer!.street = null;
        }),
      ['SK-09'],
    ],
    [
      'SK-10',
      () =>
        build((s) => {
          s.buyer!.city = null;
        }),
      ['SK-10'],
    ],
    [
      'SK-11',
      () =>
        build((s) => {
          s.buyer!.postalCode = null;
        }),
      ['SK-11'],
    ],
  ];

  it.each(cases)('%s fails when broken', (_rule, make, expected) => {
    expect(rules(make())).toEqual([...expected].sort());
  });

  it('the Slovak CIUS rules apply only to documents issued here (sk: false for received ones)', () => {
    const inv = build((s) => (s.seller.street = null));
    expect(rules(inv, false)).toEqual([]);
  });

  it('SK-08 is for a buyer in Slovakia: an export to a Swiss customer with no VAT or registration id passes every rule', () => {
    const s = atZero('ex');
    s.invoice.partnerCountry = 'CH';
    s.invoice.partnerNumber3 = null;
    s.buyer = {
      ...s.buyer!,
      companyNumber: null,
      taxNumber: null,
      street: 'Bahnhofstrasse 1',
      city: 'Zürich',
      postalCode: '8001',
      peppolId: '0088:5790000435951',
    };
    const inv = eInvoiceFromSalesInvoice(s);
    expect(inv.buyer.country).toBe('CH');
    expect(inv.vatBreakdown.map((v) => v.category)).toEqual(['G']);
    expect(preflight(inv, { sk: true })).toEqual([]);
  });

  it('findings name the field to fix and start with the rule id', () => {
    const [f] = preflight(
      build((s) => (s.buyer!.street = null)),
      { sk: true },
    );
    expect(f).toEqual({
      rule: 'SK-09',
      path: 'partner.street',
      message: '[SK-09] Buyer street (BT-50) is mandatory',
    });
  });
});
