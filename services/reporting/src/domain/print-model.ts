/**
 * What a printout shows, independent of where it came from (DESIGN §7). Amounts and quantities are
 * decimal strings; dates `YYYY-MM-DD`.
 */

/** A supplier or customer block. */
export interface Party {
  name: string;
  address: string | null;
  companyNumber: string | null;
  vatNumber: string | null;
  country: string | null;
  /** DIČ (issue #21: printed in both parties' blocks). */
  taxNumber?: string | null;
  /** The commercial-register line of Obchodný zákonník §3a (the supplier's). */
  registration?: string | null;
}

export interface InvoicePrint {
  recordNumber: string;
  dateCreated: string;
  /** Delivery date = tax point; the issue date when none was given. */
  dateDelivery: string;
  dateValidTo: string | null;
  currency: string;
  supplier: Party;
  customer: Party;
  deliveryAddress: string | null;
  symbolVariable: string | null;
  symbolConstant: string | null;
  symbolSpecific: string | null;
  iban: string | null;
  bic: string | null;
  paymentType: string | null;
  deliveryType: string | null;
  orderRecordNo: string | null;
  warehouseRecordNo: string | null;
  commentAboveItems: string | null;
  commentBelowItems: string | null;
  /** Legal text of the VAT paragraph (e.g. the exemption of an intra-Community supply). */
  vatParagraph: string | null;
  rows: {
    code: string | null;
    name: string | null;
    quantity: string;
    unit: string | null;
    price: string;
    vatRate: string;
    base: string;
    vat: string;
    total: string;
  }[];
  vatSummary: { rate: string; base: string; vat: string }[];
  sumBase: string;
  sumVat: string;
  sumTotal: string;
  /** Unpaid amount, what the QR code asks for. */
  balance: string;
  state: string;
}

export interface IssueCardPrint {
  recordNumber: string;
  dateOperation: string;
  dateCreated: string;
  warehouse: string;
  supplier: Party;
  customer: Party;
  partnerAddress: string | null;
  itemsComment: string | null;
  rows: {
    code: string | null;
    name: string | null;
    quantity: string;
    unit: string | null;
    costPrice: string;
    amount: string;
    sellPrice: string;
  }[];
  totalCost: string;
}
