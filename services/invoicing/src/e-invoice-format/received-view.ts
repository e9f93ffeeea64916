/**
 * A received e-invoice as its readable printout shows it (issue #35): the EN 16931 model read from the
 * archived bytes, flattened for the reporting service. Pure; figures as the document states them.
 */
import type { ReceivedEInvoiceView } from '@bm/contracts';
import type { EParty, ReceivedEInvoice } from './model.js';
import { formatEndpoint } from './peppol-endpoint.js';

const party = (p: EParty): ReceivedEInvoiceView['seller'] => ({
  name: p.name,
  street: p.street,
  city: p.city,
  postalCode: p.postalCode,
  country: p.country,
  companyNumber: p.legalId,
  taxNumber: p.taxNumber,
  vatNumber: p.vatId,
  endpoint: formatEndpoint(p.endpoint),
  legalInfo: p.legalInfo,
});

/** The view of `doc`, with the archive's digest and how it was received. */
export function receivedView(
  doc: ReceivedEInvoice,
  archive: { sha256: string; receivedAt: string; channel: string },
): ReceivedEInvoiceView {
  return {
    documentType: doc.documentType,
    invoiceNumber: doc.id,
    issueDate: doc.issueDate,
    taxPointDate: doc.taxPointDate,
    deliveryDate: doc.delivery?.date ?? null,
    dueDate: doc.dueDate,
    currency: doc.currency,
    buyerReference: doc.buyerReference,
    orderReference: doc.orderReference,
    precedingInvoice: doc.precedingInvoice,
    note: doc.note,
    seller: party(doc.seller),
    buyer: party(doc.buyer),
    lines: doc.lines.map((l) => ({
      id: l.id,
      name: l.name,
      sellerItemId: l.sellerItemId,
      quantity: l.quantity,
      unitCode: l.unitCode,
      netPrice: l.netPrice,
      baseQuantity: l.baseQuantity ?? null,
      netAmount: l.netAmount,
      category: l.category,
      rate: l.rate,
      allowanceCharges: l.lineAllowanceCharges ?? [],
    })),
    allowanceCharges: doc.allowanceCharges.map((a) => ({
      charge: a.charge,
      amount: a.amount,
      reason: a.reason,
      category: a.category,
      rate: a.rate,
    })),
    vatBreakdown: doc.vatBreakdown.map((v) => ({
      category: v.category,
      rate: v.rate,
      taxable: v.taxable,
      tax: v.tax,
      exemptionReason: v.exemptionReason ?? v.exemptionCode,
    })),
    totals: doc.totals,
    payment: doc.payment,
    ...archive,
  };
}
