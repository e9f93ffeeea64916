import { describe, expect, it } from 'vitest';
import { inboxSummary, problemsOf, sameInvoiceAgain } from './inbox.js';
import { readUbl } from './ubl-read.js';

describe('inbox rules (issue #35)', () => {
  it('names each pre-flight rule and field of a refusal, else the error code', () => {
    expect(
      problemsOf({
        code: 'EInvoiceNotValid',
        message: 'the e-invoice breaks 2 rule(s)',
        errors: [
          { path: 'BG-25', message: '[BR-CO-10] Sum of line net amounts 10.00 must equal BT-106 11.00' },
          { path: 'BT-55', message: 'unknown country' },
        ],
      }),
    ).toEqual([
      { rule: 'BR-CO-10', field: 'BG-25', message: 'Sum of line net amounts 10.00 must equal BT-106 11.00' },
      { rule: 'EInvoiceNotValid', field: 'BT-55', message: 'unknown country' },
    ]);
    expect(problemsOf({ code: 'PeriodClosed', message: 'period 2026 is closed' })).toEqual([
      { rule: 'PeriodClosed', field: null, message: 'period 2026 is closed' },
    ]);
  });

  it('tells a re-sent invoice (same date, currency, amount due) from another one under the same number', () => {
    const doc = { ...inboxSummaryOf(), issueDate: '2026-11-02', currency: 'EUR', total: '68.12' };
    expect(sameInvoiceAgain(doc, { dateCreated: '2026-11-02', currency: 'EUR', sumTotal: '68.12' })).toBe(
      true,
    );
    expect(sameInvoiceAgain(doc, { dateCreated: '2026-11-02', currency: 'EUR', sumTotal: '68.13' })).toBe(
      false,
    );
    expect(sameInvoiceAgain(doc, { dateCreated: '2026-11-03', currency: 'EUR', sumTotal: '68.12' })).toBe(
      false,
    );
    expect(
      sameInvoiceAgain(
        { ...doc, total: null },
        { dateCreated: '2026-11-02', currency: 'EUR', sumTotal: '68.12' },
      ),
    ).toBe(false);
  });

  it('reads the summary of a document, and nulls for none', () => {
    expect(inboxSummary(null)).toEqual(inboxSummaryOf());
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:ID>FA-7</cbc:ID><cbc:IssueDate>2026-11-02</cbc:IssueDate><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Dodávateľ s.r.o.</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
<cac:AccountingCustomerParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Odberateľ</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">10</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">10</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">12.3</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">12.3</cbc:PayableAmount></cac:LegalMonetaryTotal>
</Invoice>`;
    expect(inboxSummary(readUbl(Buffer.from(xml)))).toEqual({
      senderName: 'Dodávateľ s.r.o.',
      invoiceNumber: 'FA-7',
      issueDate: '2026-11-02',
      documentType: 'Invoice',
      total: '12.30',
      currency: 'EUR',
    });
  });
});

function inboxSummaryOf() {
  return inboxSummary(null);
}
