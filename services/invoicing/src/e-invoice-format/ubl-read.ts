/**
 * Reads a received UBL 2.1 `Invoice` or `CreditNote` into the EN 16931 model (issue #21; DESIGN §6a
 * "Received e-invoices"). Pure.
 *
 * Hostile input: a document with a DTD (`<!DOCTYPE`, hence any entity declaration: billion laughs,
 * external entities) is refused before parsing; the parser itself expands no entities and reads no DTD.
 * Not well-formed XML, another root than Invoice/CreditNote in the UBL namespaces, or a missing BT-1,
 * BT-2 or BT-5 are refused too. Every refusal is an {@link UblReadError} with the problem in words.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type {
  EAllowanceCharge,
  ELine,
  EParty,
  EVatBreakdown,
  ReceivedEInvoice,
  VatCategory,
} from './model.js';
import { UBL_NS } from './ubl-write.js';

export class UblReadError extends Error {}

type X = Record<string, any>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) =>
    [
      'InvoiceLine',
      'CreditNoteLine',
      'AllowanceCharge',
      'TaxSubtotal',
      'TaxTotal',
      'PartyTaxScheme',
      'PaymentMeans',
      'Note',
      'BillingReference',
    ].includes(name),
});

/** Text of an element that may carry attributes. */
const txt = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') {
    const t = (v as X)['#text'];
    return t === undefined || t === null ? null : String(t).trim() || null;
  }
  return String(v).trim() || null;
};
const num = (v: unknown, what: string): string => {
  const t = txt(v);
  if (t === null || !/^-?\d+(\.\d+)?$/.test(t))
    throw new UblReadError(`${what} is not a number: ${t ?? '(missing)'}`);
  return t;
};

function party(p: X | undefined): EParty {
  const addr = p?.PostalAddress ?? {};
  const schemes: X[] = p?.PartyTaxScheme ?? [];
  const vat = schemes.find((s) => txt(s?.TaxScheme?.ID)?.toUpperCase() === 'VAT');
  const other = schemes.find((s) => txt(s?.TaxScheme?.ID)?.toUpperCase() !== 'VAT');
  const endpoint = p?.EndpointID;
  return {
    name: txt(p?.PartyLegalEntity?.RegistrationName) ?? txt(p?.PartyName?.Name) ?? '',
    endpoint:
      txt(endpoint) && typeof endpoint === 'object' && endpoint['@_schemeID']
        ? { scheme: String(endpoint['@_schemeID']), id: txt(endpoint)! }
        : null,
    vatId: txt(vat?.CompanyID),
    taxNumber: txt(other?.CompanyID),
    legalId: txt(p?.PartyLegalEntity?.CompanyID),
    legalInfo: txt(p?.PartyLegalEntity?.CompanyLegalForm),
    street: txt(addr.StreetName),
    city: txt(addr.CityName),
    postalCode: txt(addr.PostalZone),
    country: txt(addr.Country?.IdentificationCode),
    email: txt(p?.Contact?.ElectronicMail),
    phone: txt(p?.Contact?.Telephone),
  };
}

const category = (c: X | undefined): { category: VatCategory; rate: string } => ({
  category: (txt(c?.ID) ?? 'S') as VatCategory,
  rate: txt(c?.Percent) ?? '0',
});

/**
 * Parses `bytes`. @throws UblReadError when the bytes are not a well-formed UBL Invoice or CreditNote
 * (with a DTD, not UTF-8 XML, another root or namespace, required terms missing).
 */
export function readUbl(bytes: Uint8Array): ReceivedEInvoice {
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UblReadError('the document is not UTF-8 text');
  }
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml))
    throw new UblReadError('a document type declaration (DTD) or entity declaration is not accepted');
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new UblReadError(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  let tree: X;
  try {
    tree = parser.parse(xml);
  } catch (e) {
    throw new UblReadError(`not well-formed XML: ${(e as Error).message}`);
  }
  const type = tree.Invoice ? 'Invoice' : tree.CreditNote ? 'CreditNote' : null;
  if (!type) throw new UblReadError('the root element must be a UBL 2.1 Invoice or CreditNote');
  const doc: X = tree[type];
  if (!xml.includes(`"${UBL_NS[type]}"`))
    throw new UblReadError(`the ${type} must be in the UBL 2.1 namespace ${UBL_NS[type]}`);
  const id = txt(doc.ID);
  const issueDate = txt(doc.IssueDate);
  const currency = txt(doc.DocumentCurrencyCode);
  if (!id) throw new UblReadError('the invoice number (BT-1, cbc:ID) is missing');
  if (!issueDate || !/^\d{4}-\d{2}-\d{2}$/.test(issueDate))
    throw new UblReadError('the issue date (BT-2, cbc:IssueDate) is missing or not YYYY-MM-DD');
  if (!currency) throw new UblReadError('the currency (BT-5, cbc:DocumentCurrencyCode) is missing');
  const credit = type === 'CreditNote';
  const lines: ELine[] = ((credit ? doc.CreditNoteLine : doc.InvoiceLine) ?? []).map((l: X, i: number) => {
    const qty = credit ? l.CreditedQuantity : l.InvoicedQuantity;
    const c = category(l.Item?.ClassifiedTaxCategory);
    return {
      id: txt(l.ID) ?? String(i + 1),
      quantity: num(qty, `line ${i + 1} quantity`),
      unitCode: (typeof qty === 'object' && qty?.['@_unitCode']) || 'C62',
      netAmount: num(l.LineExtensionAmount, `line ${i + 1} net amount`),
      netPrice: num(l.Price?.PriceAmount, `line ${i + 1} price`),
      baseQuantity: txt(l.Price?.BaseQuantity) ?? undefined,
      lineAllowanceCharges: (l.AllowanceCharge ?? []).map((a: X, j: number) => ({
        charge: txt(a.ChargeIndicator) === 'true',
        amount: num(a.Amount, `line ${i + 1} allowance/charge ${j + 1} amount`),
        reason:
          txt(a.AllowanceChargeReason) ??
          txt(a.AllowanceChargeReasonCode) ??
          (txt(a.ChargeIndicator) === 'true' ? 'Charge' : 'Allowance'),
      })),
      name: txt(l.Item?.Name) ?? `Line ${i + 1}`,
      sellerItemId: txt(l.Item?.SellersItemIdentification?.ID),
      ...c,
    };
  });
  const allowanceCharges: EAllowanceCharge[] = (doc.AllowanceCharge ?? []).map((a: X, i: number) => ({
    charge: txt(a.ChargeIndicator) === 'true',
    amount: num(a.Amount, `allowance/charge ${i + 1} amount`),
    reason:
      txt(a.AllowanceChargeReason) ??
      txt(a.AllowanceChargeReasonCode) ??
      (txt(a.ChargeIndicator) === 'true' ? 'Charge' : 'Allowance'),
    reasonCode: txt(a.AllowanceChargeReasonCode),
    ...category(a.TaxCategory),
  }));
  const taxTotals: X[] = doc.TaxTotal ?? [];
  const main = taxTotals.find((t) => t.TaxSubtotal) ?? taxTotals[0];
  const inTaxCurrency = taxTotals.find((t) => t !== main);
  const vatBreakdown: EVatBreakdown[] = (main?.TaxSubtotal ?? []).map((s: X, i: number) => ({
    ...category(s.TaxCategory),
    taxable: num(s.TaxableAmount, `VAT breakdown ${i + 1} taxable amount`),
    tax: num(s.TaxAmount, `VAT breakdown ${i + 1} tax amount`),
    exemptionReason: txt(s.TaxCategory?.TaxExemptionReason),
    exemptionCode: txt(s.TaxCategory?.TaxExemptionReasonCode),
  }));
  const m: X = doc.LegalMonetaryTotal ?? {};
  const billing = (doc.BillingReference ?? [])[0]?.InvoiceDocumentReference;
  const means = (doc.PaymentMeans ?? [])[0];
  return {
    documentType: type,
    typeCode: credit ? '381' : '380',
    id,
    issueDate,
    dueDate: txt(doc.DueDate) ?? txt(means?.PaymentDueDate),
    taxPointDate: txt(doc.TaxPointDate),
    currency,
    buyerReference: txt(doc.BuyerReference),
    orderReference: txt(doc.OrderReference?.ID),
    precedingInvoice: billing ? { id: txt(billing.ID) ?? '', issueDate: txt(billing.IssueDate) } : null,
    note: txt((doc.Note ?? [])[0]),
    seller: party(doc.AccountingSupplierParty?.Party),
    buyer: party(doc.AccountingCustomerParty?.Party),
    delivery: doc.Delivery
      ? {
          date: txt(doc.Delivery.ActualDeliveryDate),
          country: txt(doc.Delivery.DeliveryLocation?.Address?.Country?.IdentificationCode),
        }
      : null,
    payment: means
      ? {
          meansCode: txt(means.PaymentMeansCode) ?? '',
          paymentId: txt(means.PaymentID),
          iban: txt(means.PayeeFinancialAccount?.ID) ?? '',
          bic: txt(means.PayeeFinancialAccount?.FinancialInstitutionBranch?.ID),
          accountName: txt(means.PayeeFinancialAccount?.Name),
        }
      : null,
    lines,
    allowanceCharges,
    vatBreakdown,
    totals: {
      lineTotal: num(m.LineExtensionAmount, 'BT-106'),
      allowanceTotal: txt(m.AllowanceTotalAmount) ?? '0.00',
      chargeTotal: txt(m.ChargeTotalAmount) ?? '0.00',
      taxExclusive: num(m.TaxExclusiveAmount, 'BT-109'),
      taxTotal: txt(main?.TaxAmount) ?? '0.00',
      taxInclusive: num(m.TaxInclusiveAmount, 'BT-112'),
      payable: num(m.PayableAmount, 'BT-115'),
      prepaid: txt(m.PrepaidAmount) ?? '0.00',
      rounding: txt(m.PayableRoundingAmount) ?? '0.00',
    },
    customizationId: txt(doc.CustomizationID),
    taxCurrency: txt(doc.TaxCurrencyCode),
    taxTotalInTaxCurrency: inTaxCurrency ? txt(inTaxCurrency.TaxAmount) : null,
  };
}
