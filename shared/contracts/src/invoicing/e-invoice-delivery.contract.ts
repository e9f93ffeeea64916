/**
 * E-invoice delivery (issue #23): the state of an issued e-invoice on its way through the Peppol network,
 * as the access-point connector reports it, and the lookups the connector needs. Statuses: `draft`, then
 * `issued` (frozen), `queued` (taken by the connector), `sent` (the access point took it into the
 * network), and one of `delivered` (Message Level Status `AP` or `AB`), `rejected` (MLS `RE`, or the
 * access point refused it) or `failed` (the transport gave up; `resend` starts a new attempt).
 */
import { defineContract } from '../contract.js';
import { Guid, z } from '../primitives.js';

export const EInvoiceDeliveryStatus = z.enum([
  'draft',
  'issued',
  'queued',
  'sent',
  'delivered',
  'rejected',
  'failed',
]);
export type EInvoiceDeliveryStatus = z.infer<typeof EInvoiceDeliveryStatus>;
/** Peppol Message Level Status response codes (`AP` approved, `AB` accepted without delivery confirmation, `RE` rejected). */
export const MlsCode = z.enum(['AP', 'AB', 'RE']);
/** A reason of a rejection or failure: an MLS reason code (`SV`, `BV`, `BW`, `FD`) or a transport code, and its text. */
export const DeliveryReason = z.object({ code: z.string().min(1).max(40), message: z.string().max(4000) });
export type DeliveryReason = z.infer<typeof DeliveryReason>;

/** The e-invoice of a sales invoice with its delivery (the invoice's `eInvoice`, issue #23). */
export const EInvoiceDelivery = z.object({
  status: EInvoiceDeliveryStatus,
  issuedAt: z.string().nullable(),
  sha256: z.string().nullable(),
  /** The access point's transmission id (the SBDH instance id) of the current attempt. */
  transmissionId: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  mls: MlsCode.nullable(),
  reasons: z.array(DeliveryReason),
  /** 1 for the first transmission, +1 for each resend; 0 before issue. */
  attempt: z.number().int().min(0),
});
export type EInvoiceDelivery = z.infer<typeof EInvoiceDelivery>;

/** One change of an e-invoice's delivery status, as listed by the history. */
export const EInvoiceStatusChange = z.object({
  status: EInvoiceDeliveryStatus,
  at: z.string(),
  attempt: z.number().int().min(1),
  transmissionId: z.string().nullable(),
  mls: MlsCode.nullable(),
  reasons: z.array(DeliveryReason),
});
export type EInvoiceStatusChange = z.infer<typeof EInvoiceStatusChange>;

/** A status the connector reports (never `draft` or `issued`, which only invoicing sets). */
export const ReportedStatus = z.enum(['queued', 'sent', 'delivered', 'rejected', 'failed']);
/**
 * `invoicing.e-invoices.report-status` (from the access-point connector): one status of one attempt.
 * Idempotent and ordered: a report for an earlier attempt, or not later than the current status of this
 * attempt (`queued` < `sent` < `delivered`/`rejected`/`failed`), changes nothing (`changed: false`).
 * Errors: 404 for an invoice without an issued e-invoice.
 */
export const reportEInvoiceStatus = defineContract({
  subject: 'invoicing.e-invoices.report-status',
  request: z.object({
    invoiceId: Guid(),
    attempt: z.number().int().min(1),
    status: ReportedStatus,
    transmissionId: z.string().min(1).max(100),
    mls: MlsCode.nullable().optional(),
    reasons: z.array(DeliveryReason).max(50).optional(),
    /** When it happened (ISO 8601); default now. */
    at: z.string().datetime({ offset: true }).optional(),
  }),
  reply: z.object({ changed: z.boolean(), eInvoice: EInvoiceDelivery }),
});

/** `GET /1.6/sales/invoices/{id}/e-invoice/history`: every change, oldest first. 404 for an unknown invoice. */
export const getEInvoiceHistory = defineContract({
  subject: 'invoicing.sales-invoices.e-invoice-history',
  request: z.object({ id: Guid() }),
  reply: z.object({ items: z.array(EInvoiceStatusChange) }),
});

/**
 * `POST /1.6/sales/invoices/{id}/e-invoice/resend`: after `failed`, the same bytes again as a new attempt
 * (status `issued`, `events.invoicing.e-invoice-issued` again). 404; 409 InvalidState in any other status.
 */
export const resendSalesEInvoice = defineContract({
  subject: 'invoicing.sales-invoices.resend-e-invoice',
  request: z.object({ id: Guid() }),
  reply: EInvoiceDelivery,
});

/**
 * `invoicing.e-invoices.release-held` (connector only, Company-Id): the company's access-point credentials
 * work again (issue #43), so every e-invoice they held back goes out, once each. An e-invoice `failed`
 * with the reason `AUTH` is taken back to `issued` in the same attempt (the same `Idempotency-Key`, so a
 * copy the provider took before is collapsed) and `events.invoicing.e-invoice-issued` is published again;
 * with `includeQueued`, the issued event of every `issued` or `queued` one is published again too (its
 * status unchanged), so one waiting out a long back-off goes now. Reply: how many of each.
 */
export const releaseHeldEInvoices = defineContract({
  subject: 'invoicing.e-invoices.release-held',
  request: z.object({
    includeQueued: z.boolean().default(false),
    limit: z.number().int().min(1).max(10_000).default(1000),
  }),
  reply: z.object({ released: z.number().int(), requeued: z.number().int() }),
});

/** One transmission the connector has not seen to its end (after a restart it follows these again). */
export const PendingTransmission = z.object({
  companyId: Guid(),
  invoiceId: Guid(),
  attempt: z.number().int().min(1),
  status: EInvoiceDeliveryStatus,
  transmissionId: z.string().nullable(),
  senderId: z.string().nullable(),
  receiverId: z.string().nullable(),
});
/**
 * `invoicing.e-invoices.pending` (connector only, every company): issued, queued or sent e-invoices whose
 * status changed within the last `withinHours` (default a week: a Message Level Status that has not come
 * by then will not; such a document stays `sent`), oldest change first.
 */
export const pendingEInvoiceTransmissions = defineContract({
  subject: 'invoicing.e-invoices.pending',
  request: z.object({
    limit: z.number().int().min(1).max(1000).default(500),
    withinHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(168),
  }),
  reply: z.object({ items: z.array(PendingTransmission) }),
});

/**
 * `invoicing.companies.by-peppol-id` (connector only): the company whose `peppolId` is `peppolId`
 * (`scheme:identifier`, compared case-insensitively), or null.
 */
export const findCompanyByPeppolId = defineContract({
  subject: 'invoicing.companies.by-peppol-id',
  request: z.object({ peppolId: z.string().min(3).max(200) }),
  reply: z.object({ companyId: Guid().nullable() }),
});

/** `events.invoicing.e-invoice-status-changed` (issue #23): each change of a delivery status. */
export const EInvoiceStatusChangedEvent = EInvoiceStatusChange.extend({
  eventId: Guid(),
  companyId: Guid(),
  invoiceId: Guid(),
  recordNumber: z.string(),
});
export type EInvoiceStatusChangedEvent = z.infer<typeof EInvoiceStatusChangedEvent>;
