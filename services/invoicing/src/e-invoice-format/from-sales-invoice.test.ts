/**
 * The mapping's regrouping rules without a database (issue #21): a VAT code whose rows are partly goods
 * (K) and partly services (AE) splits by its rows' bases; an exempt category's reason is the paragraph of
 * its own rows, not of another category's.
 */
import { fmt, sum } from '@bm/money';
import { describe, expect, it } from 'vitest';
import { eInvoiceFromSalesInvoice } from './from-sales-invoice.js';
import { sampleSource } from './sample-source.fixture.js';
import type { EInvoiceSource, SourceRow } from './source.js';

const row = (over: Partial<SourceRow>): SourceRow => ({
  quantity: '1',
  price: '100',
  code: null,
  name: 'Položka',
  vatId: 'ic',
  vatRate: '0',
  vatParagraphId: null,
  sumBase: '100',
  unitCode: null,
  ...over,
});

/** The sample invoice sold to a German business, with `rows`, their summary and the codes they use. */
const source = (rows: SourceRow[], vatSummary: EInvoiceSource['invoice']['vatSummary']): EInvoiceSource => {
  const s = sampleSource();
  Object.assign(s.invoice, {
    partnerDetail: 'Müller GmbH',
    partnerCountry: 'DE',
    partnerNumber3: 'DE123456789',
    sumBase: fmt(sum(vatSummary.map((v) => v.base))),
    sumVat: fmt(sum(vatSummary.map((v) => v.vat))),
    sumTotal: fmt(sum(vatSummary.flatMap((v) => [v.base, v.vat]))),
    vatSummary,
    rows,
  });
  s.buyer = null;
  s.vatCodes = {
    ic: {
      kind: 'intraCommunity',
      paragraphs: { g: { code: 'IC-GOODS', text: '§ 43' }, s: { code: 'IC-SERVICES', text: '§ 15' } },
    },
    os: { kind: 'exempt', paragraphs: { e: { code: 'EXEMPT', text: 'Oslobodené podľa § 37' } } },
    s23: { kind: 'standard', paragraphs: { r: { code: 'RATE', text: 'Sadzba § 27' } } },
  };
  return s;
};

describe('eInvoiceFromSalesInvoice regrouping', () => {
  it('one intra-community code with goods and services rows: K and AE lines, each with its rows’ base', () => {
    const inv = eInvoiceFromSalesInvoice(
      source(
        [
          row({ vatParagraphId: 'g', sumBase: '300', quantity: '3' }),
          row({ vatParagraphId: 's', sumBase: '80', price: '80' }),
        ],
        [{ vatID: 'ic', rate: '0', base: '380', vat: '0' }],
      ),
    );
    expect(inv.vatBreakdown.map((v) => [v.category, v.taxable, v.tax, v.exemptionCode])).toEqual([
      ['K', '300.00', '0.00', 'VATEX-EU-IC'],
      ['AE', '80.00', '0.00', 'VATEX-EU-AE'],
    ]);
    expect(inv.totals.taxExclusive).toBe('380.00');
    expect(inv.allowanceCharges).toEqual([]);
  });

  it('the exempt reason comes from the exempt rows’ paragraph', () => {
    const inv = eInvoiceFromSalesInvoice(
      source(
        [
          row({ vatId: 's23', vatRate: '23', vatParagraphId: 'r' }),
          row({ vatId: 'os', vatParagraphId: 'e', sumBase: '50', price: '50' }),
        ],
        [
          { vatID: 's23', rate: '23', base: '100', vat: '23' },
          { vatID: 'os', rate: '0', base: '50', vat: '0' },
        ],
      ),
    );
    expect(inv.vatBreakdown.map((v) => [v.category, v.exemptionReason])).toEqual([
      ['S', null],
      ['E', 'Oslobodené podľa § 37'],
    ]);
  });
});
