/**
 * E-invoices (issue #21; DESIGN §6a): a sales invoice's UBL document (draft and issue), received
 * documents booked as purchase invoices, their archived bytes, and the event an access-point connector
 * follows. Documents travel as base64 of their bytes, so nothing re-encodes them on the way.
 */
import { defineContract } from '../contract.js';
import { Guid, z } from '../primitives.js';
import { EInvoiceDeliveryStatus } from './e-invoice-delivery.contract.js';
import { PurchaseInvoice } from './purchase-invoices.contract.js';

/**
 * A sales invoice's e-invoice (issue #21; DESIGN §6a): the UBL 2.1 document (Peppol BIS Billing 3.0) as
 * base64 of its UTF-8 bytes; `draft` is built anew on every read, `issued` is the frozen bytes.
 */
export const SalesEInvoice = z.object({
  /** `draft`, or once issued its delivery status (issue #23). */
  status: EInvoiceDeliveryStatus,
  /** The XML bytes, base64. */
  document: z.string(),
  sha256: z.string(),
  issuedAt: z.string().nullable(),
  /** `Invoice` (380) or `CreditNote` (381, a negative total). */
  documentType: z.enum(['Invoice', 'CreditNote']),
});
export type SalesEInvoice = z.infer<typeof SalesEInvoice>;
/** `GET /1.6/sales/invoices/{id}/e-invoice`: the draft (422 EInvoiceNotValid when it cannot be one) or the frozen bytes. */
export const getSalesEInvoice = defineContract({
  subject: 'invoicing.sales-invoices.e-invoice',
  request: z.object({ id: Guid() }),
  reply: SalesEInvoice,
});
/**
 * `POST /1.6/sales/invoices/{id}/e-invoice`: runs the pre-flight rules, freezes the bytes and publishes
 * `events.invoicing.e-invoice-issued`; a repeated call answers the frozen bytes (`created: false`).
 * Errors: 404; 422 EInvoiceNotValid with `errors: [{path: rule id and field, message}]`.
 */
export const issueSalesEInvoice = defineContract({
  subject: 'invoicing.sales-invoices.issue-e-invoice',
  request: z.object({ id: Guid() }),
  reply: SalesEInvoice.extend({ created: z.boolean() }),
});

/**
 * `POST /1.6/purchase/e-invoices` and the access-point connector's request: a received UBL 2.1 Invoice
 * or CreditNote (base64 of the bytes as received) booked as a purchase invoice in record mode.
 * Errors: 400 BadRequest (not well-formed, DTD or entities, not UBL); 409 DuplicateRecordNumber (same
 * supplier and BT-1); 422 EInvoiceNotForThisCompany, EInvoiceNotValid, PeriodNotFound, PeriodClosed.
 */
export const receivePurchaseEInvoice = defineContract({
  subject: 'invoicing.purchase-e-invoices.receive',
  request: z.object({ document: z.string().min(1) }),
  reply: PurchaseInvoice,
});
/** The archived bytes of a purchase invoice booked from an e-invoice (404 for one entered by hand). */
export const getPurchaseEInvoice = defineContract({
  subject: 'invoicing.purchase-invoices.e-invoice',
  request: z.object({ id: Guid() }),
  reply: z.object({ document: z.string(), sha256: z.string(), receivedAt: z.string() }),
});

/**
 * `events.invoicing.e-invoice-issued` (issue #21): for an access-point connector. `document` is the
 * frozen UBL (base64); a large one travels through the object store (header `Payload-Object`).
 */
export const EInvoiceIssuedEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  invoiceId: Guid(),
  recordNumber: z.string(),
  documentType: z.enum(['Invoice', 'CreditNote']),
  /** Sender and receiver endpoint ids `scheme:identifier` (BT-34, BT-49). */
  senderId: z.string(),
  receiverId: z.string(),
  sha256: z.string(),
  issuedAt: z.string(),
  document: z.string(),
  /** The transmission attempt (issue #23): 1, then +1 for each resend of the same bytes. */
  attempt: z.number().int().min(1).default(1),
});
export type EInvoiceIssuedEvent = z.infer<typeof EInvoiceIssuedEvent>;
