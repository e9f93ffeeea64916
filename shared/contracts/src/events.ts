/**
 * The event catalogue (DESIGN §1 "Events", issue #14): every event subject a service publishes, with its
 * producer, payload schema and schema version. The outbox relay stamps the version on every event, the
 * AsyncAPI document is generated from this list, and a test checks that every subject the services
 * publish is in it.
 *
 * Versioning rule (docs/decisions.md "Event versions"): an event's `Event-Version` header carries the
 * major version of its payload schema. Adding an optional field, or a new enum value that subscribers may
 * ignore, keeps the version. Removing or renaming a field, changing its type, unit or meaning, or making
 * it required raises the version, and the producer then publishes the new version on `<subject>.v<N>`
 * beside the old subject for at least the stream's retention (30 days) before the old one stops.
 */
import { EInvoiceStatusChangedEvent } from './invoicing/e-invoice-delivery.contract.js';
import { EInvoiceIssuedEvent } from './invoicing/e-invoices.contract.js';
import { EInvoiceReceivedEvent, InboxEventSubjects } from './invoicing/inbox.contract.js';
import {
  BankStatementImportedEvent,
  InvoiceEvent,
  InvoiceEventSubjects,
  InvoicePaidEvent,
} from './invoicing/invoice-events.contract.js';
import type { z } from './primitives.js';
import {
  EventSubjects,
  StockIssuedEvent,
  StockReceivedEvent,
  StockRevaluedEvent,
} from './warehouse/stock.contract.js';
import { CardReversedEvent, StornoEventSubjects } from './warehouse/storno.contract.js';

/** Header with the major version of an event's payload schema (a decimal integer, `1` today). */
export const EVENT_VERSION_HEADER = 'Event-Version';

/** Headers of a dead letter (issue #12): where the event came from and why it was given up. */
export const DeadLetterHeaders = {
  subject: 'Dead-Letter-Subject',
  streamSequence: 'Dead-Letter-Stream-Sequence',
  consumer: 'Dead-Letter-Consumer',
  reason: 'Dead-Letter-Reason',
  deliveries: 'Dead-Letter-Deliveries',
} as const;

/** The dead-letter subject of a consuming service: `events.<service>.dead-letter`. */
export const deadLetterSubject = (service: string) => `events.${service}.dead-letter`;

export interface EventContract {
  /** The NATS subject, `events.<producer>.<event>`, in the JetStream stream `EVENTS`. */
  readonly subject: string;
  /** The service that publishes it (through its transactional outbox). */
  readonly producer: 'warehouse' | 'invoicing';
  /** Major version of the payload schema, sent as {@link EVENT_VERSION_HEADER}. */
  readonly version: number;
  readonly payload: z.ZodType;
  /** One sentence: when the event is published. */
  readonly summary: string;
}

/** Every event the services publish (dead letters aside: see {@link CONSUMING_SERVICES}). */
export const EVENT_CONTRACTS: readonly EventContract[] = Object.freeze([
  {
    subject: EventSubjects.stockIssued,
    producer: 'warehouse',
    version: 1,
    payload: StockIssuedEvent,
    summary:
      'An issue card was stored (created or copied): its rows with the cost price each was issued at (DESIGN §5).',
  },
  {
    subject: EventSubjects.stockReceived,
    producer: 'warehouse',
    version: 1,
    payload: StockReceivedEvent,
    summary: 'A receipt card was stored: its rows with their cost prices (DESIGN §5).',
  },
  {
    subject: EventSubjects.stockRevalued,
    producer: 'warehouse',
    version: 1,
    payload: StockRevaluedEvent,
    summary:
      'A back-dated receipt or issue changed the cost of this stored issue card (DESIGN §5 "Repost"); one per revalued card.',
  },
  {
    subject: StornoEventSubjects.cardReversed,
    producer: 'warehouse',
    version: 1,
    payload: CardReversedEvent,
    summary:
      'A stock card was reversed (storno, issue #38): the reversal card with its rows; revalued later cards get stock-revalued too.',
  },
  {
    subject: InvoiceEventSubjects.salesInvoiceCreated,
    producer: 'invoicing',
    version: 1,
    payload: InvoiceEvent,
    summary: 'A sales invoice was created (state `issued`; a zero total is `paid` at once).',
  },
  {
    subject: InvoiceEventSubjects.salesInvoiceUpdated,
    producer: 'invoicing',
    version: 1,
    payload: InvoiceEvent,
    summary: 'A sales invoice was replaced by PUT (its record number stays).',
  },
  {
    subject: InvoiceEventSubjects.purchaseInvoiceCreated,
    producer: 'invoicing',
    version: 1,
    payload: InvoiceEvent,
    summary: 'A purchase invoice was stored.',
  },
  {
    subject: InvoiceEventSubjects.eInvoiceIssued,
    producer: 'invoicing',
    version: 1,
    payload: EInvoiceIssuedEvent,
    summary:
      'A sales invoice was issued as an e-invoice (issue #21): its frozen UBL bytes (base64), SHA-256 and both Peppol endpoint ids, for an access-point connector; again with the next `attempt` after a resend (issue #23).',
  },
  {
    subject: InvoiceEventSubjects.eInvoiceStatusChanged,
    producer: 'invoicing',
    version: 1,
    payload: EInvoiceStatusChangedEvent,
    summary:
      'The delivery status of an issued e-invoice changed (issue #23): issued, queued, sent, delivered, rejected or failed, with the Message Level Status code and reasons.',
  },
  {
    subject: InvoiceEventSubjects.bankStatementImported,
    producer: 'invoicing',
    version: 1,
    payload: BankStatementImportedEvent,
    summary:
      'A bank statement (camt.053) was imported and its new entries paired or left unpaired (issue #45).',
  },
  {
    subject: InvoiceEventSubjects.invoicePaid,
    producer: 'invoicing',
    version: 1,
    payload: InvoicePaidEvent,
    summary:
      "An invoice's payments changed by the bank (issue #45): paired with an entry (also partly), or a pairing removed or reversed (amount negated).",
  },
  {
    subject: InboxEventSubjects.eInvoiceReceived,
    producer: 'invoicing',
    version: 1,
    payload: EInvoiceReceivedEvent,
    summary:
      'A received e-invoice was stored in the inbox (status `received`), or its status changed (`booked`, `needs-attention`, `duplicate`) (issue #35).',
  },
]);

/** Services that consume events, so publish dead letters to {@link deadLetterSubject}. */
export const CONSUMING_SERVICES = ['invoicing'] as const;

/** The schema version of the events on `subject` (undefined for a subject not in the catalogue). */
export function eventVersionOf(subject: string): number | undefined {
  return EVENT_CONTRACTS.find((e) => e.subject === subject)?.version;
}
