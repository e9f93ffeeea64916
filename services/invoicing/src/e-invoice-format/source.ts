/**
 * What a sales invoice's e-invoice is built from (issue #21): the invoice, the seller's profile, the
 * partner, its VAT codes, bank account and the invoice a credit note corrects, as plain data. Decimals are
 * strings as stored (amounts 2 decimals, quantities and prices 4, rates in percent); dates `YYYY-MM-DD`.
 */
import type { VatKind } from '../vat/index.js';

/** What the mapping needs of one VAT code, keyed by its id. */
export interface VatCodeInfo {
  kind: VatKind;
  /** Paragraph codes and texts of the code, by paragraph id. */
  paragraphs: Record<string, { code: string; text: string }>;
}

export interface SourceRow {
  quantity: string;
  price: string;
  code: string | null;
  name: string | null;
  vatId: string;
  vatRate: string;
  vatParagraphId: string | null;
  sumBase: string;
  /** UN/ECE Rec 20/21 unit code of the row's unit, null when the unit has none (→ C62). */
  unitCode: string | null;
}

export interface SourceInvoice {
  recordNumber: string;
  dateCreated: string;
  dateDelivery: string | null;
  dateValidTo: string | null;
  currency: string;
  mode: 'record' | 'creation';
  bonusPercent: string | null;
  orderRecordNo: string | null;
  symbolVariable: string | null;
  /** Invoice-level VAT number of the creditor (else the company's). */
  vatNumber: string | null;
  partnerDetail: string | null;
  partnerCountry: string | null;
  partnerNumber3: string | null;
  commentAboveItems: string | null;
  sumBase: string;
  sumVat: string;
  sumTotal: string;
  vatSummary: { vatID: string; rate: string; base: string; vat: string }[];
  rows: SourceRow[];
}

export interface SourceSeller {
  name: string;
  companyNumber: string | null;
  taxNumber: string | null;
  vatNumber: string | null;
  street: string | null;
  city: string | null;
  postalCode: string | null;
  country: string;
  registration: string | null;
  email: string | null;
  phone: string | null;
  peppolId: string | null;
}

export interface SourceBuyer {
  name: string | null;
  companyNumber: string | null;
  taxNumber: string | null;
  street: string | null;
  city: string | null;
  postalCode: string | null;
  email: string | null;
  peppolId: string | null;
}

export interface EInvoiceSource {
  invoice: SourceInvoice;
  seller: SourceSeller;
  /** The partner record, when the invoice names one. */
  buyer: SourceBuyer | null;
  vatCodes: Record<string, VatCodeInfo>;
  bankAccount: { iban: string; bic: string | null; name: string | null } | null;
  /** The invoice a credit note corrects (BT-25, BT-26). */
  corrected: { recordNumber: string; dateCreated: string } | null;
}
