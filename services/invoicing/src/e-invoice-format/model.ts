/**
 * The EN 16931 semantic model of one e-invoice, as far as this backend writes and reads it (issue #21;
 * DESIGN §6a). Pure data: the UBL writer ({@link ./ubl-write.ts}) and reader ({@link ./ubl-read.ts})
 * translate it to and from Peppol BIS Billing 3.0 UBL 2.1; the pre-flight rules ({@link ./preflight.ts})
 * check it. Field comments give the business term (BT) or group (BG) of EN 16931-1.
 *
 * Units: amounts are decimal strings with 2 decimals in the document currency; quantities and prices
 * decimal strings (prices may carry more than 4 decimals, BT-146); rates in percent; dates `YYYY-MM-DD`.
 */

/** VAT category codes (UNCL5305 subset of EN 16931): standard, zero, exempt, reverse charge, intra-community, export, outside scope. */
export type VatCategory = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O';

/** A Peppol endpoint (BT-34, BT-49): EAS scheme and identifier. */
export interface Endpoint {
  scheme: string;
  id: string;
}

/** Seller (BG-4) or buyer (BG-7). */
export interface EParty {
  /** BT-27 / BT-44. */
  name: string;
  /** BT-34 / BT-49. */
  endpoint: Endpoint | null;
  /** BT-31 / BT-48: VAT identifier with country prefix. */
  vatId: string | null;
  /** BT-32: seller tax registration (the Slovak DIČ); for the buyer kept for matching only. */
  taxNumber: string | null;
  /** BT-30 / BT-47: legal registration id (IČO). */
  legalId: string | null;
  /** BT-33: seller additional legal information (the commercial-register line). */
  legalInfo: string | null;
  /** BT-35 / BT-50, BT-37 / BT-52, BT-38 / BT-53, BT-40 / BT-55. */
  street: string | null;
  city: string | null;
  postalCode: string | null;
  country: string | null;
  /** BT-42/BT-43 (seller contact); BT-58 (buyer e-mail). */
  email: string | null;
  phone: string | null;
}

/** An invoice line (BG-25). */
export interface ELine {
  /** BT-126. */
  id: string;
  /** BT-129 (negative for a returned quantity). */
  quantity: string;
  /** BT-130: UN/ECE Rec 20/21 code. */
  unitCode: string;
  /** BT-131: net amount, 2 decimals. */
  netAmount: string;
  /** BT-146: item net price (≥ 0), as many decimals as R120 needs. */
  netPrice: string;
  /** BT-149: the quantity BT-146 is the price of (received documents; 1 when absent, as R120 reads it). */
  baseQuantity?: string;
  /** BG-27 / BG-28: line allowances and charges (received documents; ours carry none). */
  lineAllowanceCharges?: { charge: boolean; amount: string; reason: string }[];
  /** BT-153 item name, BT-155 seller's item id. */
  name: string;
  sellerItemId: string | null;
  /** BT-151, BT-152. */
  category: VatCategory;
  rate: string;
}

/** A document-level allowance (BG-20) or charge (BG-21). */
export interface EAllowanceCharge {
  charge: boolean;
  /** BT-92 / BT-99: positive, 2 decimals. */
  amount: string;
  /** BT-97 / BT-104 reason text and BT-98 / BT-105 reason code (UNCL5189 / UNCL7161). */
  reason: string;
  reasonCode: string | null;
  /** BT-95 / BT-102, BT-96 / BT-103. */
  category: VatCategory;
  rate: string;
}

/** One VAT breakdown line (BG-23). */
export interface EVatBreakdown {
  category: VatCategory;
  rate: string;
  /** BT-116, BT-117. */
  taxable: string;
  tax: string;
  /** BT-120 text and BT-121 code (VATEX). */
  exemptionReason: string | null;
  exemptionCode: string | null;
}

/** Document totals (BG-22). */
export interface ETotals {
  /** BT-106 Σ line net amounts, BT-107 Σ allowances, BT-108 Σ charges. */
  lineTotal: string;
  allowanceTotal: string;
  chargeTotal: string;
  /** BT-109, BT-110, BT-112, BT-115. */
  taxExclusive: string;
  taxTotal: string;
  taxInclusive: string;
  payable: string;
  /** BT-113 paid amount and BT-114 rounding amount (received documents; ours carry neither: 0). */
  prepaid: string;
  rounding: string;
}

/** The whole document. */
export interface EInvoice {
  /** `Invoice` with BT-3 380, or `CreditNote` with 381. */
  documentType: 'Invoice' | 'CreditNote';
  typeCode: '380' | '381';
  /** BT-1, BT-2, BT-9, BT-7. */
  id: string;
  issueDate: string;
  dueDate: string | null;
  taxPointDate: string | null;
  /** BT-5. */
  currency: string;
  /** BT-10 buyer reference, BT-13 purchase order reference. */
  buyerReference: string | null;
  orderReference: string | null;
  /** BT-25, BT-26. */
  precedingInvoice: { id: string; issueDate: string | null } | null;
  /** BT-22. */
  note: string | null;
  seller: EParty;
  buyer: EParty;
  /** BT-72 actual delivery date, BT-80 deliver-to country. */
  delivery: { date: string | null; country: string | null } | null;
  /** BG-16: means code 58 (SEPA credit transfer), BT-83 payment id (variable symbol), BT-84 IBAN, BT-86 BIC. */
  payment: {
    meansCode: string;
    paymentId: string | null;
    iban: string;
    bic: string | null;
    accountName: string | null;
  } | null;
  lines: ELine[];
  allowanceCharges: EAllowanceCharge[];
  vatBreakdown: EVatBreakdown[];
  totals: ETotals;
}

/** A received document: the model plus the VAT accounting currency (BT-6) and the VAT total in it (BT-111). */
export interface ReceivedEInvoice extends EInvoice {
  /** BT-24: which specification the document follows (Peppol BIS Billing 3.0, or plain EN 16931, …). */
  customizationId?: string | null;
  taxCurrency: string | null;
  taxTotalInTaxCurrency: string | null;
}

/** Peppol BIS Billing 3.0 specification identifier (BT-24) and business process (BT-23). */
export const PEPPOL_CUSTOMIZATION_ID =
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PEPPOL_PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
/** The Peppol document type and process ids of a BIS Billing 3.0 Invoice / CreditNote (for an access point). */
export const PEPPOL_PROCESS_ID = PEPPOL_PROFILE_ID;

/**
 * True when a received document declares Peppol BIS Billing 3.0 (BT-24): the Peppol rules (`PEPPOL-*`)
 * apply to it, as the Peppol validator applies them. A plain EN 16931 document (`urn:cen.eu:en16931:2017`)
 * is checked against EN 16931 alone, as its official validator does (issue #35: never stricter).
 */
export const isPeppolBis = (customizationId: string | null | undefined): boolean =>
  !!customizationId && customizationId.includes('urn:fdc:peppol.eu:2017:poacc:billing:3.0');
