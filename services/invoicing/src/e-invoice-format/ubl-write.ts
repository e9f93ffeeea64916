/**
 * Writes an EN 16931 e-invoice as a Peppol BIS Billing 3.0 UBL 2.1 `Invoice` or `CreditNote` (issue #21).
 * Pure. The XML is built with fast-xml-parser's builder from an ordered object tree (element order of
 * the UBL 2.1 XSD sequences), never by string concatenation; the result is UTF-8 with an XML declaration.
 */
import { XMLBuilder } from 'fast-xml-parser';
import {
  type EAllowanceCharge,
  type EInvoice,
  type EParty,
  PEPPOL_CUSTOMIZATION_ID,
  PEPPOL_PROFILE_ID,
  type VatCategory,
} from './model.js';

export const UBL_NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

type Node = Record<string, unknown>;
/** Drops keys whose value is null or undefined (optional elements left out). */
const el = (entries: [string, unknown][]): Node => {
  const out: Node = {};
  for (const [k, v] of entries) if (v !== null && v !== undefined) out[k] = v;
  return out;
};
const amount = (currency: string, v: string) => ({ '#text': v, '@_currencyID': currency });
const taxScheme = { 'cac:TaxScheme': { 'cbc:ID': 'VAT' } };

function taxCategory(
  category: VatCategory,
  rate: string,
  reason?: { code: string | null; text: string | null },
) {
  return el([
    ['cbc:ID', category],
    // Category O carries no rate (BR-O-05); every other category does (BR-S-05 …).
    ['cbc:Percent', category === 'O' ? null : rate],
    ['cbc:TaxExemptionReasonCode', reason?.code ?? null],
    ['cbc:TaxExemptionReason', reason?.text ?? null],
    ['cac:TaxScheme', { 'cbc:ID': 'VAT' }],
  ]);
}

function party(p: EParty, seller: boolean): Node {
  const taxSchemes: Node[] = [];
  if (p.vatId) taxSchemes.push({ 'cbc:CompanyID': p.vatId, ...taxScheme });
  // BT-32: the seller's tax registration (DIČ) under a scheme other than VAT.
  if (seller && p.taxNumber)
    taxSchemes.push({ 'cbc:CompanyID': p.taxNumber, 'cac:TaxScheme': { 'cbc:ID': 'TAX' } });
  const contact =
    seller && (p.email || p.phone)
      ? el([
          ['cbc:Telephone', p.phone],
          ['cbc:ElectronicMail', p.email],
        ])
      : !seller && p.email
        ? { 'cbc:ElectronicMail': p.email }
        : null;
  return el([
    ['cbc:EndpointID', p.endpoint ? { '#text': p.endpoint.id, '@_schemeID': p.endpoint.scheme } : null],
    ['cac:PartyName', { 'cbc:Name': p.name }],
    [
      'cac:PostalAddress',
      el([
        ['cbc:StreetName', p.street],
        ['cbc:CityName', p.city],
        ['cbc:PostalZone', p.postalCode],
        ['cac:Country', p.country ? { 'cbc:IdentificationCode': p.country } : null],
      ]),
    ],
    ['cac:PartyTaxScheme', taxSchemes.length ? taxSchemes : null],
    [
      'cac:PartyLegalEntity',
      el([
        ['cbc:RegistrationName', p.name],
        ['cbc:CompanyID', p.legalId],
        ['cbc:CompanyLegalForm', seller ? p.legalInfo : null],
      ]),
    ],
    ['cac:Contact', contact],
  ]);
}

function allowanceCharge(a: EAllowanceCharge, currency: string): Node {
  return el([
    ['cbc:ChargeIndicator', a.charge ? 'true' : 'false'],
    ['cbc:AllowanceChargeReasonCode', a.reasonCode],
    ['cbc:AllowanceChargeReason', a.reason],
    ['cbc:Amount', amount(currency, a.amount)],
    ['cac:TaxCategory', taxCategory(a.category, a.rate)],
  ]);
}

/** The UBL tree of `inv` (element order per the UBL 2.1 Invoice / CreditNote XSD). */
export function ublTree(inv: EInvoice): Node {
  const cur = inv.currency;
  const credit = inv.documentType === 'CreditNote';
  const lineTag = credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const qtyTag = credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  const payment = inv.payment
    ? el([
        ['cbc:PaymentMeansCode', { '#text': inv.payment.meansCode, '@_name': 'SEPA credit transfer' }],
        // A CreditNote has no document-level DueDate: its due date goes here (BT-9).
        ['cbc:PaymentDueDate', credit ? inv.dueDate : null],
        ['cbc:PaymentID', inv.payment.paymentId],
        [
          'cac:PayeeFinancialAccount',
          el([
            ['cbc:ID', inv.payment.iban],
            ['cbc:Name', inv.payment.accountName],
            ['cac:FinancialInstitutionBranch', inv.payment.bic ? { 'cbc:ID': inv.payment.bic } : null],
          ]),
        ],
      ])
    : null;
  const header: [string, unknown][] = [
    ['@_xmlns', UBL_NS[inv.documentType]],
    ['@_xmlns:cac', UBL_NS.cac],
    ['@_xmlns:cbc', UBL_NS.cbc],
    ['cbc:CustomizationID', PEPPOL_CUSTOMIZATION_ID],
    ['cbc:ProfileID', PEPPOL_PROFILE_ID],
    ['cbc:ID', inv.id],
    ['cbc:IssueDate', inv.issueDate],
  ];
  if (credit) {
    header.push(
      ['cbc:TaxPointDate', inv.taxPointDate],
      ['cbc:CreditNoteTypeCode', inv.typeCode],
      ['cbc:Note', inv.note],
    );
  } else {
    header.push(
      ['cbc:DueDate', inv.dueDate],
      ['cbc:InvoiceTypeCode', inv.typeCode],
      ['cbc:Note', inv.note],
      ['cbc:TaxPointDate', inv.taxPointDate],
    );
  }
  header.push(
    ['cbc:DocumentCurrencyCode', cur],
    ['cbc:BuyerReference', inv.buyerReference],
    ['cac:OrderReference', inv.orderReference ? { 'cbc:ID': inv.orderReference } : null],
    [
      'cac:BillingReference',
      inv.precedingInvoice
        ? {
            'cac:InvoiceDocumentReference': el([
              ['cbc:ID', inv.precedingInvoice.id],
              ['cbc:IssueDate', inv.precedingInvoice.issueDate],
            ]),
          }
        : null,
    ],
    ['cac:AccountingSupplierParty', { 'cac:Party': party(inv.seller, true) }],
    ['cac:AccountingCustomerParty', { 'cac:Party': party(inv.buyer, false) }],
    [
      'cac:Delivery',
      inv.delivery
        ? el([
            ['cbc:ActualDeliveryDate', inv.delivery.date],
            [
              'cac:DeliveryLocation',
              inv.delivery.country
                ? { 'cac:Address': { 'cac:Country': { 'cbc:IdentificationCode': inv.delivery.country } } }
                : null,
            ],
          ])
        : null,
    ],
    ['cac:PaymentMeans', payment],
    [
      'cac:AllowanceCharge',
      inv.allowanceCharges.length ? inv.allowanceCharges.map((a) => allowanceCharge(a, cur)) : null,
    ],
    [
      'cac:TaxTotal',
      {
        'cbc:TaxAmount': amount(cur, inv.totals.taxTotal),
        'cac:TaxSubtotal': inv.vatBreakdown.map((b) => ({
          'cbc:TaxableAmount': amount(cur, b.taxable),
          'cbc:TaxAmount': amount(cur, b.tax),
          'cac:TaxCategory': taxCategory(b.category, b.rate, {
            code: b.exemptionCode,
            text: b.exemptionReason,
          }),
        })),
      },
    ],
    [
      'cac:LegalMonetaryTotal',
      el([
        ['cbc:LineExtensionAmount', amount(cur, inv.totals.lineTotal)],
        ['cbc:TaxExclusiveAmount', amount(cur, inv.totals.taxExclusive)],
        ['cbc:TaxInclusiveAmount', amount(cur, inv.totals.taxInclusive)],
        [
          'cbc:AllowanceTotalAmount',
          inv.allowanceCharges.some((a) => !a.charge) ? amount(cur, inv.totals.allowanceTotal) : null,
        ],
        [
          'cbc:ChargeTotalAmount',
          inv.allowanceCharges.some((a) => a.charge) ? amount(cur, inv.totals.chargeTotal) : null,
        ],
        ['cbc:PayableAmount', amount(cur, inv.totals.payable)],
      ]),
    ],
    [
      lineTag,
      inv.lines.map((l) => ({
        'cbc:ID': l.id,
        [qtyTag]: { '#text': l.quantity, '@_unitCode': l.unitCode },
        'cbc:LineExtensionAmount': amount(cur, l.netAmount),
        'cac:Item': el([
          ['cbc:Name', l.name],
          ['cac:SellersItemIdentification', l.sellerItemId ? { 'cbc:ID': l.sellerItemId } : null],
          ['cac:ClassifiedTaxCategory', taxCategory(l.category, l.rate)],
        ]),
        'cac:Price': { 'cbc:PriceAmount': amount(cur, l.netPrice) },
      })),
    ],
  );
  return { '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, [inv.documentType]: el(header) };
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  processEntities: true,
});

/** The UBL document of `inv` as UTF-8 bytes. */
export function writeUbl(inv: EInvoice): Buffer {
  return Buffer.from(builder.build(ublTree(inv)) as string, 'utf8');
}
