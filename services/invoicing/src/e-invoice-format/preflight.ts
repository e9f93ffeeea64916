/**
 * Pre-flight rules of an e-invoice (issue #21; DESIGN §6a): the EN 16931 (CEN/TS 16931-3-2 UBL rules
 * 1.3.x), Peppol BIS Billing 3.0.21 and Slovak CIUS v1.4 rules that documents of this backend can break,
 * under their official ids, checked on the semantic model before anything is frozen. Pure.
 *
 * A finding names the rule id, the business term and the field a user changes to fix it (`path`: the
 * API field, e.g. `partner.street`, `company.vatNumber`, `partnerNumber3`). Rules the mapping cannot break
 * (syntax, code lists, BT-7, BT-110, BT-119, exemption reasons) are guaranteed by construction and not
 * listed. Slovak CIUS ids are those of its published Schematron draft (SK-01 … SK-14); SK-08 is applied as
 * "buyer VAT identifier (BT-48), or its legal registration id (BT-47) when it has no VAT number"
 * (docs/decisions.md). Inbound documents get the EN 16931 and Peppol rules only (`sk: false`).
 */
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type Dec, dec } from '@bm/money';
import type { EInvoice, ELine, VatCategory } from './model.js';

/**
 * A line's net amount as PEPPOL-EN16931-R120 (Peppol BIS Billing 3.0) computes it: quantity × (BT-146 ÷
 * BT-149, a base quantity of 0 or none counting as 1) + Σ line charges − Σ line allowances (each sum to
 * 2 decimals). The rule allows 0.02 either way.
 */
export function lineNetAmount(l: ELine): Dec {
  const base = l.baseQuantity && !dec(l.baseQuantity).isZero() ? dec(l.baseQuantity) : dec(1);
  const parts = l.lineAllowanceCharges ?? [];
  const total = (charge: boolean) =>
    parts
      .filter((a) => a.charge === charge)
      .reduce((t, a) => t.plus(dec(a.amount)), dec(0))
      .toDecimalPlaces(2);
  return dec(l.quantity).mul(dec(l.netPrice).div(base)).plus(total(true)).minus(total(false));
}

export interface Finding {
  /** Official rule id, e.g. `BR-AE-02`, `PEPPOL-EN16931-R010`, `SK-05`. */
  rule: string;
  /** The field to fix. */
  path: string;
  message: string;
}

export interface PreflightOptions {
  /** Apply the Slovak CIUS rules (documents this company issues). */
  sk: boolean;
  /** Field names of the data the document was built from (outbound) or of the document (inbound). */
  fields?: Partial<Record<FieldKey, string>>;
}

type FieldKey =
  | 'sellerEndpoint'
  | 'buyerEndpoint'
  | 'sellerName'
  | 'buyerName'
  | 'sellerCountry'
  | 'buyerCountry'
  | 'sellerVat'
  | 'buyerVat'
  | 'sellerLegalId'
  | 'sellerStreet'
  | 'sellerCity'
  | 'sellerPostal'
  | 'buyerStreet'
  | 'buyerCity'
  | 'buyerPostal'
  | 'dueDate'
  | 'lines';

/** Where the outbound document's data come from (the fields a user edits). */
export const OUTBOUND_FIELDS: Record<FieldKey, string> = {
  sellerEndpoint: 'company.peppolId',
  buyerEndpoint: 'partner.peppolId',
  sellerName: 'company.name',
  buyerName: 'partnerDetail',
  sellerCountry: 'company.country',
  buyerCountry: 'partnerCountry',
  sellerVat: 'company.vatNumber',
  buyerVat: 'partnerNumber3',
  sellerLegalId: 'company.companyNumber',
  sellerStreet: 'company.street',
  sellerCity: 'company.city',
  sellerPostal: 'company.postalCode',
  buyerStreet: 'partner.street',
  buyerCity: 'partner.city',
  buyerPostal: 'partner.postalCode',
  dueDate: 'dateValidTo',
  lines: 'rows',
};

/** Member-state prefixes of VAT identifiers (ISO 3166-1 alpha-2, Greece `EL`), and others that exist. */
const VAT_PREFIX = /^[A-Z]{2}/;

const sumOf = (xs: string[]): Dec => xs.reduce((s, x) => s.plus(dec(x)), dec(0));

/** Runs the rules; an empty list means the document may be issued (or booked). */
export function preflight(inv: EInvoice, opts: PreflightOptions): Finding[] {
  const f = { ...OUTBOUND_FIELDS, ...opts.fields };
  const out: Finding[] = [];
  const fail = (rule: string, key: FieldKey, message: string) =>
    out.push({ rule, path: f[key], message: `[${rule}] ${message}` });
  const categories = new Set([
    ...inv.lines.map((l) => l.category),
    ...inv.allowanceCharges.map((a) => a.category),
  ]);
  const s = inv.seller;
  const b = inv.buyer;

  // Peppol BIS 3.0: both parties need an electronic address.
  if (!s.endpoint)
    fail(
      'PEPPOL-EN16931-R020',
      'sellerEndpoint',
      'Seller electronic address (BT-34) must be provided: set the company peppolId, or its DIČ (taxNumber) or IČ DPH',
    );
  if (!b.endpoint)
    fail(
      'PEPPOL-EN16931-R010',
      'buyerEndpoint',
      'Buyer electronic address (BT-49) must be provided: the buyer needs a peppolId or a VAT number (a consumer cannot receive a Peppol e-invoice; print the invoice instead)',
    );

  // EN 16931 core.
  if (!s.name.trim()) fail('BR-06', 'sellerName', 'Seller name (BT-27) must be provided');
  if (!b.name.trim()) fail('BR-07', 'buyerName', 'Buyer name (BT-44) must be provided');
  if (!s.country) fail('BR-09', 'sellerCountry', 'Seller country code (BT-40) must be provided');
  if (!b.country) fail('BR-11', 'buyerCountry', 'Buyer country code (BT-55) must be provided');
  if (!inv.lines.length) fail('BR-16', 'lines', 'An invoice must have at least one line (BG-25)');
  if (s.vatId && !VAT_PREFIX.test(s.vatId))
    fail(
      'BR-CO-09',
      'sellerVat',
      `Seller VAT identifier (BT-31) ${s.vatId} must start with a country prefix`,
    );
  if (b.vatId && !VAT_PREFIX.test(b.vatId))
    fail('BR-CO-09', 'buyerVat', `Buyer VAT identifier (BT-48) ${b.vatId} must start with a country prefix`);

  // Seller VAT identifier for every category that is not outside the scope (BR-S-02 … BR-G-02).
  const needsSellerVat: [VatCategory, string][] = [
    ['S', 'BR-S-02'],
    ['Z', 'BR-Z-02'],
    ['E', 'BR-E-02'],
    ['AE', 'BR-AE-02'],
    ['K', 'BR-IC-02'],
    ['G', 'BR-G-02'],
  ];
  if (!s.vatId)
    for (const [cat, rule] of needsSellerVat)
      if (categories.has(cat))
        fail(rule, 'sellerVat', `VAT category ${cat} needs the Seller VAT identifier (BT-31)`);
  if (categories.has('AE') && !b.vatId && !b.legalId)
    fail('BR-AE-02', 'buyerVat', 'Reverse charge (AE) needs the Buyer VAT identifier (BT-48)');
  if (categories.has('K') && !b.vatId)
    fail('BR-IC-02', 'buyerVat', 'An intra-community supply (K) needs the Buyer VAT identifier (BT-48)');
  if (categories.has('K') && !inv.delivery?.country)
    fail(
      'BR-IC-12',
      'buyerCountry',
      'An intra-community supply (K) needs the Deliver to country code (BT-80)',
    );
  if (categories.has('K') && !inv.delivery?.date)
    fail('BR-IC-11', 'lines', 'An intra-community supply (K) needs the Actual delivery date (BT-72)');

  // Arithmetic (BR-CO-10, -13, -14, -15, -16) and PEPPOL-EN16931-R120 per line.
  const t = inv.totals;
  const lineSum = sumOf(inv.lines.map((l) => l.netAmount));
  if (!lineSum.eq(dec(t.lineTotal)))
    fail(
      'BR-CO-10',
      'lines',
      `Sum of line net amounts ${lineSum.toFixed(2)} must equal BT-106 ${t.lineTotal}`,
    );
  const allowances = sumOf(inv.allowanceCharges.filter((a) => !a.charge).map((a) => a.amount));
  const charges = sumOf(inv.allowanceCharges.filter((a) => a.charge).map((a) => a.amount));
  if (!dec(t.lineTotal).minus(allowances).plus(charges).eq(dec(t.taxExclusive)))
    fail('BR-CO-13', 'lines', `BT-109 ${t.taxExclusive} must equal BT-106 − BT-107 + BT-108`);
  const breakdownTax = sumOf(inv.vatBreakdown.map((v) => v.tax));
  if (!breakdownTax.eq(dec(t.taxTotal)))
    fail(
      'BR-CO-14',
      'lines',
      `BT-110 ${t.taxTotal} must equal the sum of the VAT category tax amounts ${breakdownTax.toFixed(2)}`,
    );
  if (!dec(t.taxExclusive).plus(dec(t.taxTotal)).eq(dec(t.taxInclusive)))
    fail('BR-CO-15', 'lines', `BT-112 ${t.taxInclusive} must equal BT-109 + BT-110`);
  if (!dec(t.taxInclusive).minus(dec(t.prepaid)).plus(dec(t.rounding)).eq(dec(t.payable)))
    fail('BR-CO-16', 'lines', `BT-115 ${t.payable} must equal BT-112 − BT-113 + BT-114`);
  for (const v of inv.vatBreakdown) {
    if (v.category === 'O') continue;
    const expected = dec(v.taxable).abs().mul(dec(v.rate)).div(100).toDecimalPlaces(2);
    if (dec(v.tax).abs().minus(expected).abs().gte(1))
      fail(
        'BR-CO-17',
        'lines',
        `VAT of category ${v.category} ${v.rate} % (${v.tax}) must be its taxable amount × rate`,
      );
  }
  inv.lines.forEach((l, i) => {
    const computed = lineNetAmount(l);
    if (computed.minus(dec(l.netAmount)).abs().gt(dec('0.02')))
      fail(
        'PEPPOL-EN16931-R120',
        'lines',
        `Line ${i + 1}: net amount ${l.netAmount} must equal quantity × (net price ÷ base quantity) + line charges − line allowances (${computed.toFixed(4)})`,
      );
    if (dec(l.netPrice).isNegative())
      fail('BR-27', 'lines', `Line ${i + 1}: the item net price (BT-146) must not be negative`);
  });

  if (!opts.sk) return out;
  // Slovak CIUS v1.4 (Finančná správa, February 2026), zákon č. 222/2004 Z. z. § 74 ods. 1.
  if (!inv.dueDate && !dec(t.payable).isZero())
    fail('SK-02', 'dueDate', 'Payment due date (BT-9) is mandatory');
  if (!s.legalId)
    fail('SK-03', 'sellerLegalId', 'Seller legal registration identifier, IČO (BT-30), is mandatory');
  if (!s.vatId) fail('SK-04', 'sellerVat', 'Seller VAT identifier, IČ DPH (BT-31), is mandatory');
  if (!s.street) fail('SK-05', 'sellerStreet', 'Seller street (BT-35) is mandatory');
  if (!s.city) fail('SK-06', 'sellerCity', 'Seller city (BT-37) is mandatory');
  if (!s.postalCode) fail('SK-07', 'sellerPostal', 'Seller postal code (BT-38) is mandatory');
  // SK-08 identifies a buyer in Slovakia (§ 74 ods. 1 písm. b: its IČ DPH where it has one, else its IČO).
  // A buyer abroad (an export to a Swiss customer, category G) may have neither: the Slovak CIUS is the
  // domestic mandate, and EN 16931 asks for BT-48 only where its category needs it (BR-AE-02, BR-IC-02).
  if (!b.vatId && !b.legalId && (b.country ?? 'SK') === 'SK')
    fail(
      'SK-08',
      'buyerVat',
      'Buyer VAT identifier (BT-48), or for a buyer without one its IČO (BT-47), is mandatory',
    );
  if (!b.street) fail('SK-09', 'buyerStreet', 'Buyer street (BT-50) is mandatory');
  if (!b.city) fail('SK-10', 'buyerCity', 'Buyer city (BT-52) is mandatory');
  if (!b.postalCode) fail('SK-11', 'buyerPostal', 'Buyer postal code (BT-53) is mandatory');
  return out;
}

/** 422 EInvoiceNotValid naming each failed rule and its field. */
export function notValid(findings: Finding[]): AppError {
  return new AppError(
    ErrorKind.unprocessable,
    ErrorCode.EInvoiceNotValid,
    `the e-invoice breaks ${findings.length} rule(s): ${[...new Set(findings.map((f) => f.rule))].join(', ')}`,
    { errors: findings.map((f) => ({ path: f.path, message: f.message })) },
  );
}
