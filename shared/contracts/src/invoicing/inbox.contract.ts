/**
 * The inbox of received e-invoices (issue #35; DESIGN §6a "Received means kept"): every document an
 * access point delivers to a company of this deployment is stored first (bytes as delivered, SHA-256,
 * channel, provider document id), then booked as a purchase invoice; one that cannot be booked waits as
 * `needs-attention` with its problems, never refused back and never lost.
 *
 * Statuses: `received` (stored, booking not finished: a transient failure, retried by the channel),
 * `booked` (a purchase invoice exists, `purchaseInvoiceId`), `needs-attention` (the booking rules refused
 * it: `problems` say why; `POST …/book` tries again), `duplicate` (the supplier sent the same invoice
 * number again with other bytes but the same issue date, currency and amount due: kept in the archive,
 * pointing at the purchase invoice booked from the first one).
 */
import { defineContract } from '../contract.js';
import { Guid, Page, PageQuery, z } from '../primitives.js';
import { PurchaseInvoice } from './purchase-invoices.contract.js';

export const ReceivedEInvoiceStatus = z.enum(['received', 'booked', 'needs-attention', 'duplicate']);
export type ReceivedEInvoiceStatus = z.infer<typeof ReceivedEInvoiceStatus>;
/** The channel a document came through: an access-point transport, or `upload` (a person, `POST /1.6/purchase/e-invoices`). */
export const ReceiveChannel = z.enum(['sapi', 'phoss', 'folder', 'loopback', 'upload']);
export type ReceiveChannel = z.infer<typeof ReceiveChannel>;

/** Why a document could not be booked: the rule id (EN 16931, Peppol, our code), the field (BT id or path), the text. */
export const InboxProblem = z.object({ rule: z.string(), field: z.string().nullable(), message: z.string() });
export type InboxProblem = z.infer<typeof InboxProblem>;

/**
 * One received document as the inbox lists it. What could be read of the bytes (sender name, BT-1, issue
 * date, amount due BT-115, currency BT-5) is null for a document that is not a readable UBL invoice.
 * `total` is a decimal string with 2 decimals in `currency`.
 */
export const ReceivedEInvoiceRecord = z.object({
  id: Guid(),
  receivedAt: z.string(),
  channel: ReceiveChannel,
  providerDocumentId: z.string().nullable(),
  sha256: z.string(),
  senderParticipantId: z.string().nullable(),
  receiverParticipantId: z.string().nullable(),
  senderName: z.string().nullable(),
  /** BT-1, the supplier's invoice number. */
  invoiceNumber: z.string().nullable(),
  issueDate: z.string().nullable(),
  documentType: z.enum(['Invoice', 'CreditNote']).nullable(),
  total: z.string().nullable(),
  currency: z.string().nullable(),
  status: ReceivedEInvoiceStatus,
  purchaseInvoiceId: Guid().nullable(),
  problems: z.array(InboxProblem),
});
export type ReceivedEInvoiceRecord = z.infer<typeof ReceivedEInvoiceRecord>;

/**
 * `invoicing.received-e-invoices.store` (from the access-point connector, Company-Id of the receiving
 * company): stores the document before anything else, then books it. Replies once the record is
 * committed: `stored: false` when this company had the document already — the same bytes (SHA-256):
 * a provider's document id may repeat across senders (issue #43), so the same id with other bytes is
 * another document, stored. The connector acknowledges the document to its provider only after this
 * reply. A transient failure while booking (a service down, a bug) leaves the record `received` and
 * answers 503, so the channel delivers it again and the booking is retried on the stored record; after
 * 5 such tries the record is `needs-attention` with the error (and the reply is the record). A `problem`
 * found on the way (a checksum mismatch) keeps the record `needs-attention` without booking it.
 */
export const storeReceivedEInvoice = defineContract({
  subject: 'invoicing.received-e-invoices.store',
  request: z.object({
    /** The bytes as delivered, base64. */
    document: z.string().min(1),
    channel: ReceiveChannel.exclude(['upload']),
    providerDocumentId: z.string().max(200).nullable().default(null),
    senderParticipantId: z.string().max(200).nullable().default(null),
    receiverParticipantId: z.string().max(200).nullable().default(null),
    problem: z
      .object({ rule: z.string().min(1).max(60), message: z.string().max(2000) })
      .nullable()
      .default(null),
  }),
  reply: ReceivedEInvoiceRecord.extend({ stored: z.boolean() }),
});

/** `GET /1.6/purchase/e-invoices?status=&page=&pageSize=`: newest first. */
export const listReceivedEInvoices = defineContract({
  subject: 'invoicing.received-e-invoices.list',
  request: PageQuery.extend({ status: ReceivedEInvoiceStatus.optional() }),
  reply: Page(ReceivedEInvoiceRecord),
});

/** `GET /1.6/purchase/e-invoices/{id}`: the record and its bytes (base64). Errors: 404. */
export const getReceivedEInvoice = defineContract({
  subject: 'invoicing.received-e-invoices.get',
  request: z.object({ id: Guid() }),
  reply: ReceivedEInvoiceRecord.extend({ document: z.string() }),
});

/**
 * `POST /1.6/purchase/e-invoices/{id}/book`: books a `needs-attention` (or still `received`) document
 * again, after master data were fixed. 201 with the purchase invoice; 422 EInvoiceNotValid (or the
 * booking's own code) with the problems in `errors`, the record staying `needs-attention`; 409
 * InvalidState for one already `booked` or `duplicate`; 404.
 */
export const bookReceivedEInvoice = defineContract({
  subject: 'invoicing.received-e-invoices.book',
  request: z.object({ id: Guid() }),
  reply: PurchaseInvoice,
});

/** The inbox's event subject (issue #35). */
export const InboxEventSubjects = { eInvoiceReceived: 'events.invoicing.e-invoice-received' } as const;

/** `events.invoicing.e-invoice-received` (issue #35): a document was stored in the inbox, or its status changed. */
export const EInvoiceReceivedEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  /** The inbox record. */
  id: Guid(),
  status: ReceivedEInvoiceStatus,
  channel: ReceiveChannel,
  senderParticipantId: z.string().nullable(),
  senderName: z.string().nullable(),
  /** BT-1. */
  invoiceNumber: z.string().nullable(),
  purchaseInvoiceId: Guid().nullable(),
});
export type EInvoiceReceivedEvent = z.infer<typeof EInvoiceReceivedEvent>;

/** A party of a received document as its printout shows it (EN 16931 BG-4 / BG-7). */
const ViewParty = z.object({
  name: z.string(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
  /** BT-30 / BT-47 (IČO), BT-32 (DIČ), BT-31 / BT-48 (IČ DPH), BT-34 / BT-49, BT-33. */
  companyNumber: z.string().nullable(),
  taxNumber: z.string().nullable(),
  vatNumber: z.string().nullable(),
  endpoint: z.string().nullable(),
  legalInfo: z.string().nullable(),
});

/**
 * What a received e-invoice says, read from its archived bytes (issue #35), for its readable printout.
 * Amounts are decimal strings as the document states them (in `currency`); dates `YYYY-MM-DD`.
 */
export const ReceivedEInvoiceView = z.object({
  documentType: z.enum(['Invoice', 'CreditNote']),
  invoiceNumber: z.string(),
  issueDate: z.string(),
  taxPointDate: z.string().nullable(),
  deliveryDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  currency: z.string(),
  buyerReference: z.string().nullable(),
  orderReference: z.string().nullable(),
  precedingInvoice: z.object({ id: z.string(), issueDate: z.string().nullable() }).nullable(),
  note: z.string().nullable(),
  seller: ViewParty,
  buyer: ViewParty,
  lines: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      sellerItemId: z.string().nullable(),
      quantity: z.string(),
      unitCode: z.string(),
      netPrice: z.string(),
      baseQuantity: z.string().nullable(),
      netAmount: z.string(),
      category: z.string(),
      rate: z.string(),
      allowanceCharges: z.array(z.object({ charge: z.boolean(), amount: z.string(), reason: z.string() })),
    }),
  ),
  allowanceCharges: z.array(
    z.object({
      charge: z.boolean(),
      amount: z.string(),
      reason: z.string(),
      category: z.string(),
      rate: z.string(),
    }),
  ),
  vatBreakdown: z.array(
    z.object({
      category: z.string(),
      rate: z.string(),
      taxable: z.string(),
      tax: z.string(),
      exemptionReason: z.string().nullable(),
    }),
  ),
  totals: z.object({
    lineTotal: z.string(),
    allowanceTotal: z.string(),
    chargeTotal: z.string(),
    taxExclusive: z.string(),
    taxTotal: z.string(),
    taxInclusive: z.string(),
    prepaid: z.string(),
    rounding: z.string(),
    payable: z.string(),
  }),
  payment: z
    .object({
      meansCode: z.string(),
      paymentId: z.string().nullable(),
      iban: z.string(),
      bic: z.string().nullable(),
      accountName: z.string().nullable(),
    })
    .nullable(),
  /** The legal document: its SHA-256, when and how it was received. */
  sha256: z.string(),
  receivedAt: z.string(),
  channel: z.string(),
});
export type ReceivedEInvoiceView = z.infer<typeof ReceivedEInvoiceView>;

/**
 * `invoicing.received-e-invoices.view` (reporting): a received document read from its archived bytes, by
 * its inbox record `id` or by the `purchaseInvoiceId` it was booked as. Errors: 404 (no such record, or a
 * purchase invoice entered by hand); 422 EInvoiceNotValid when the bytes are not a readable UBL invoice.
 */
export const getReceivedEInvoiceView = defineContract({
  subject: 'invoicing.received-e-invoices.view',
  request: z.object({ id: Guid().optional(), purchaseInvoiceId: Guid().optional() }),
  reply: ReceivedEInvoiceView,
});
