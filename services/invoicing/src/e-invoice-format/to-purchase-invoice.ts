/**
 * A received e-invoice as a purchase invoice in record mode (issue #21; DESIGN §6a): the figures as the
 * document states them, nothing recalculated. Pure.
 *
 * - Rows: one per line (name, quantity, net price, VAT rate, net amount; a CreditNote's with the sign
 *   turned, so a credit note books negative), then one per document-level allowance (negative) and charge.
 * - Totals: `sum` = BT-109, `sumVat` = BT-110, `sumTotal` = BT-112; input VAT per category and rate as
 *   the VAT breakdown (BG-23) states it.
 * - Company currency: a document in another currency is converted with the rate its VAT in the company
 *   currency implies (BT-111 / BT-110, the Slovak VAT law states VAT in EUR); without that the local sums
 *   equal the document's (docs/decisions.md).
 * - Dates: BT-2 → dateCreated, BT-9 → dateValidTo, BT-7 (else the actual delivery date) → dateDelivery,
 *   the day of receipt → dateAccounting and the VAT period (input VAT is claimed when received).
 */

import { type Dec, dec, fmt, round2, round4 } from '@bm/money';
import { isValidIBAN } from 'ibantools';
import { readSymbols } from '../bank-format/index.js';
import { composeAddress } from '../references/index.js';
import { normalizeVatNumber } from '../vat/index.js';
import type { EParty, ReceivedEInvoice } from './model.js';
import { endpointOf, formatEndpoint } from './peppol-endpoint.js';

export interface ReceivingCompany {
  vatNumber: string | null;
  companyNumber: string | null;
  taxNumber: string | null;
  country: string;
  peppolId: string | null;
  currency: string;
}

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, '').toUpperCase();

/**
 * True when the document's buyer is this company: same VAT number, IČO, DIČ or endpoint id
 * (EInvoiceNotForThisCompany otherwise).
 */
export function isForCompany(buyer: EParty, c: ReceivingCompany): boolean {
  const own = formatEndpoint(endpointOf(c));
  const endpoint = buyer.endpoint ? `${buyer.endpoint.scheme}:${buyer.endpoint.id}` : null;
  return (
    (!!buyer.vatId && norm(buyer.vatId) === norm(c.vatNumber)) ||
    (!!buyer.legalId && norm(buyer.legalId) === norm(c.companyNumber)) ||
    (!!buyer.taxNumber && norm(buyer.taxNumber) === norm(c.taxNumber)) ||
    (!!c.peppolId && !!endpoint && norm(endpoint) === norm(c.peppolId)) ||
    (!!endpoint && norm(endpoint) === norm(own))
  );
}

/** The supplier's key for duplicate detection: VAT id, else legal id, else endpoint. */
export function supplierKey(seller: EParty): string {
  return (
    norm(seller.vatId) ||
    norm(seller.legalId) ||
    norm(seller.endpoint ? `${seller.endpoint.scheme}:${seller.endpoint.id}` : null) ||
    norm(seller.name)
  ).slice(0, 60);
}

/** A new partner made from a received document's seller (columns' lengths respected). */
export interface SupplierPartnerData {
  code: string;
  name: string;
  address: string | null;
  country: string | null;
  companyNumber: string | null;
  /** Normalised like every partner's (jsvat, DESIGN §6); null when the document's is malformed or absent. */
  vatNumber: string | null;
  street: string | null;
  city: string | null;
  postalCode: string | null;
  taxNumber: string | null;
  email: string | null;
  peppolId: string | null;
}

/** The partner a received document's seller becomes: code `EF-<VAT id, else IČO, else endpoint>`. */
export function supplierPartnerData(seller: EParty): SupplierPartnerData {
  const vat = normalizeVatNumber(seller.vatId, seller.country);
  const key = supplierKey(seller)
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 20);
  const code = `EF-${key || 'UNKNOWN'}`;
  return {
    code,
    name: seller.name.slice(0, 255) || code,
    address: composeAddress(seller.street, seller.postalCode, seller.city),
    country: seller.country?.slice(0, 2) ?? null,
    companyNumber: seller.legalId?.slice(0, 30) ?? null,
    vatNumber: vat.ok ? (vat.value?.slice(0, 20) ?? null) : null,
    street: seller.street?.slice(0, 255) ?? null,
    city: seller.city?.slice(0, 100) ?? null,
    postalCode: seller.postalCode?.slice(0, 20) ?? null,
    taxNumber: seller.taxNumber?.slice(0, 20) ?? null,
    email: seller.email?.slice(0, 255) ?? null,
    peppolId: formatEndpoint(seller.endpoint),
  };
}

export interface PurchaseRowData {
  name: string;
  code: string | null;
  itemsAmount: string;
  price: string;
  sum: string;
  localSum: string;
  vatRate: string | null;
}

export interface PurchaseFromEInvoice {
  externalRecordNumber: string;
  dateCreated: string;
  dateValidTo: string | null;
  dateDelivery: string | null;
  dateAccounting: string;
  vatPeriod: string;
  currency1: string;
  rows: PurchaseRowData[];
  sum: string;
  localSum: string;
  sumVat: string;
  sumTotal: string;
  vatSummary: { category: string; rate: string; base: string; vat: string }[];
  /** Each row's VAT category (UNCL5305, BT-151 / BT-95), in the order of `rows`. */
  categories: string[];
  /** Issue #45: where to pay it (BT-84) and the symbols read from the payment id (BT-83). */
  iban: string | null;
  symbolVariable: string | null;
  symbolSpecific: string | null;
  symbolConstant: string | null;
}

/** Maps `inv`, received on `receivedOn` (the company's today), to a purchase invoice's data. */
export function purchaseFromEInvoice(
  inv: ReceivedEInvoice,
  company: ReceivingCompany,
  receivedOn: string,
): PurchaseFromEInvoice {
  const sign = dec(inv.documentType === 'CreditNote' ? -1 : 1);
  const signed = (v: string) => fmt(dec(v).mul(sign));
  const rows: Omit<PurchaseRowData, 'localSum'>[] = [
    ...inv.lines.map((l) => ({
      name: l.name.slice(0, 255),
      code: l.sellerItemId?.slice(0, 30) ?? null,
      itemsAmount: signed(l.quantity),
      // The price of one unit: BT-146 per its base quantity BT-149 (the stated line amount is the row's sum).
      price: fmt(
        l.baseQuantity && !dec(l.baseQuantity).isZero()
          ? round4(dec(l.netPrice).div(dec(l.baseQuantity)))
          : l.netPrice,
      ),
      sum: signed(l.netAmount),
      vatRate: l.category === 'O' ? null : fmt(l.rate),
    })),
    ...inv.allowanceCharges.map((a) => ({
      name: a.reason.slice(0, 255),
      code: null,
      itemsAmount: fmt(dec(a.charge ? 1 : -1).mul(sign)),
      price: fmt(a.amount),
      sum: fmt(
        dec(a.amount)
          .mul(a.charge ? 1 : -1)
          .mul(sign),
      ),
      vatRate: a.category === 'O' ? null : fmt(a.rate),
    })),
  ];
  // Rate to the company currency: BT-111 / BT-110 when the document states its VAT in that currency.
  let rate: Dec = dec(1);
  if (
    inv.currency !== company.currency &&
    inv.taxCurrency === company.currency &&
    inv.taxTotalInTaxCurrency &&
    !dec(inv.totals.taxTotal).isZero()
  )
    rate = dec(inv.taxTotalInTaxCurrency).div(dec(inv.totals.taxTotal)).abs();
  const local = rows.map((r) => round2(dec(r.sum).mul(rate)));
  return {
    externalRecordNumber: inv.id.slice(0, 50),
    ...paymentOf(inv),
    dateCreated: inv.issueDate,
    dateValidTo: inv.dueDate,
    dateDelivery: inv.taxPointDate ?? inv.delivery?.date ?? null,
    dateAccounting: receivedOn,
    vatPeriod: receivedOn.slice(0, 7),
    currency1: inv.currency,
    rows: rows.map((r, i) => ({ ...r, localSum: fmt(local[i]) })),
    categories: [...inv.lines.map((l) => l.category), ...inv.allowanceCharges.map((a) => a.category)],
    sum: signed(inv.totals.taxExclusive),
    localSum: fmt(local.reduce((s, x) => s.plus(x), dec(0))),
    sumVat: signed(inv.totals.taxTotal),
    sumTotal: signed(inv.totals.taxInclusive),
    vatSummary: inv.vatBreakdown.map((v) => ({
      category: v.category,
      rate: fmt(v.rate),
      base: signed(v.taxable),
      vat: signed(v.tax),
    })),
  };
}

/**
 * Where and how to pay a received invoice (issue #45): the IBAN of BT-84 (payment means 30/58, an IBAN by
 * its form), the symbols of BT-83: a variable symbol of up to 10 digits as it stands, else the `/VS…`
 * form or `VS…` in its text (bank-format/symbols.ts).
 */
function paymentOf(inv: ReceivedEInvoice) {
  const p = inv.payment;
  const iban = p?.iban?.replace(/\s+/g, '').toUpperCase() ?? null;
  const id = p?.paymentId?.trim() ?? null;
  const symbols =
    id && /^\d{1,10}$/.test(id)
      ? { symbolVariable: id, symbolSpecific: null, symbolConstant: null }
      : readSymbols(id, null, id ? [id] : []);
  return { iban: iban && isValidIBAN(iban) ? iban : null, ...symbols };
}
