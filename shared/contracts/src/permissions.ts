/**
 * Who may send and receive which NATS subjects (issue #12 "Least privilege inside"): one NATS user per
 * process, with allow-lists the server enforces. Only the gateway publishes requests to the services'
 * subjects in general; a service publishes requests only to the read-only look-ups (and the period close)
 * of another service that it really calls, listed here from the contracts themselves; each service
 * subscribes to its own subjects and publishes only its own events (`events.<service>.>`, including its
 * dead letters `events.<service>.dead-letter`); JetStream and object-store access is per stream and
 * bucket. Replies travel through `allow_responses`.
 *
 * The table is data: `natsAuthorization` in `@bm/testing/nats-auth` turns it into nats-server
 * configuration, and docs/operations.md describes it.
 */

import {
  listAccessPointSettings,
  loadAccessPointSettings,
  reportAccessPointContact,
  storeAccessPointSettings,
} from './access-point/settings.contract.js';
import type { Contract } from './contract.js';
import {
  findCompanyByPeppolId,
  pendingEInvoiceTransmissions,
  releaseHeldEInvoices,
  reportEInvoiceStatus,
} from './invoicing/e-invoice-delivery.contract.js';
import { receivePurchaseEInvoice } from './invoicing/e-invoices.contract.js';
import { getReceivedEInvoiceView, storeReceivedEInvoice } from './invoicing/inbox.contract.js';
import { InvoiceEventSubjects } from './invoicing/invoice-events.contract.js';
import { getSalesInvoice } from './invoicing/invoices.contract.js';
import { getCompanyProfile, getSalesInvoiceCopySource, resolvePeriod } from './invoicing/lookups.contract.js';
import {
  bankAccounts,
  deliveryTypes,
  partners,
  paymentTypes,
  vatCodes,
} from './invoicing/master-data.contract.js';
import { reports, resolveReport } from './reporting/reports.contract.js';
import { getIssueCard } from './warehouse/issue-cards.contract.js';
import {
  closeWarehousePeriod,
  countCardsOutsidePeriod,
  resolveCatalog,
  resolveWarehouse,
  warehouses,
} from './warehouse/master-data.contract.js';

/** The processes that connect to NATS; `admin` is for operators and tests, never for a service. */
/**
 * `integration` is the identity of subscribers outside the product (issue #14, the consumer example):
 * it may read the events and keep durable consumers on them, nothing else.
 */
/**
 * `access-point` is the Peppol access-point connector (issue #21): it hands received e-invoices to
 * invoicing and follows the issued ones, nothing else.
 */
export type NatsUserName =
  | 'gateway'
  | 'warehouse'
  | 'invoicing'
  | 'reporting'
  | 'integration'
  | 'access-point'
  | 'admin';
export const SERVICE_PROCESSES = ['gateway', 'warehouse', 'invoicing', 'reporting'] as const;

export interface SubjectPermissions {
  publish: string[];
  subscribe: string[];
}

/** The stream all events go to (DESIGN §1 "Events"). */
export const EVENTS_STREAM_NAME = 'EVENTS';
/** Object-store buckets: large request/reply payloads, and rendered printouts. */
export const MESSAGES_BUCKET = 'messages';
export const PRINTOUTS_BUCKET = 'printouts';
/** Payloads of events too large for one message (issue #12), read by every subscriber. */
export const EVENTS_BUCKET = 'events';
/** Issue #43: the key-value bucket of the connector's mailbox leases (one replica drains a mailbox). */
export const LEASE_BUCKET = 'access_point_leases';

/**
 * Read access to a stream: its info, single messages, and consumers (create, read, ack) — no purge,
 * no deletes, no publishing into it.
 */
function streamReadAccess(stream: string): string[] {
  return [
    `$JS.API.STREAM.INFO.${stream}`,
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$JS.API.CONSUMER.*.${stream}`,
    `$JS.API.CONSUMER.*.${stream}.>`,
    `$JS.API.CONSUMER.*.*.${stream}.>`,
    `$JS.ACK.${stream}.>`,
    `$JS.FC.${stream}.>`,
  ];
}

/** Full access to one stream: read access plus create, update, purge and deleting messages. */
function streamAccess(stream: string): string[] {
  return [
    ...streamReadAccess(stream),
    `$JS.API.STREAM.CREATE.${stream}`,
    `$JS.API.STREAM.UPDATE.${stream}`,
    `$JS.API.STREAM.PURGE.${stream}`,
    `$JS.API.STREAM.MSG.DELETE.${stream}`,
  ];
}

/** Access to an object-store bucket: its stream `OBJ_<bucket>` and its subjects `$O.<bucket>.>`. */
const bucketAccess = (bucket: string): string[] => [...streamAccess(`OBJ_${bucket}`), `$O.${bucket}.>`];

/** Access to a key-value bucket: its stream `KV_<bucket>` and its subjects `$KV.<bucket>.>`. */
const kvAccess = (bucket: string): string[] => [...streamAccess(`KV_${bucket}`), `$KV.${bucket}.>`];

/** Subjects every JetStream client asks about (account info, stream names; no data). */
const JS_COMMON = ['$JS.API.INFO', '$JS.API.STREAM.NAMES', '$JS.API.STREAM.LIST'];

const subjects = (...contracts: Contract[]) => contracts.map((c) => c.subject);

/** A service's own side: its request subjects and the NATS micro-service discovery subjects. */
const serves = (service: string) => [`${service}.>`, '$SRV.>'];

/** The permissions of each process (see the module comment). */
export const NATS_PERMISSIONS: Record<NatsUserName, SubjectPermissions> = {
  gateway: {
    publish: [
      'warehouse.>',
      'invoicing.>',
      'reporting.>',
      'access-point.>',
      '$SRV.PING.>',
      '$SRV.PING',
      ...JS_COMMON,
      ...bucketAccess(MESSAGES_BUCKET),
      ...bucketAccess(PRINTOUTS_BUCKET),
    ],
    subscribe: ['_INBOX.>'],
  },
  warehouse: {
    publish: [
      'events.warehouse.>',
      ...subjects(partners.get, resolvePeriod, getSalesInvoiceCopySource, reports.get, resolveReport),
      ...JS_COMMON,
      ...streamAccess(EVENTS_STREAM_NAME),
      ...bucketAccess(MESSAGES_BUCKET),
      ...bucketAccess(EVENTS_BUCKET),
    ],
    subscribe: [...serves('warehouse'), '_INBOX.>'],
  },
  invoicing: {
    publish: [
      'events.invoicing.>',
      ...subjects(
        countCardsOutsidePeriod,
        closeWarehousePeriod,
        resolveWarehouse,
        resolveCatalog,
        reports.get,
      ),
      ...JS_COMMON,
      ...streamAccess(EVENTS_STREAM_NAME),
      ...bucketAccess(MESSAGES_BUCKET),
      ...bucketAccess(EVENTS_BUCKET),
    ],
    subscribe: [...serves('invoicing'), '_INBOX.>'],
  },
  reporting: {
    publish: [
      ...subjects(
        getCompanyProfile,
        getSalesInvoice,
        partners.get,
        bankAccounts.get,
        paymentTypes.get,
        deliveryTypes.get,
        vatCodes.get,
        resolveCatalog,
        getIssueCard,
        warehouses.get,
        getReceivedEInvoiceView,
      ),
      ...JS_COMMON,
      ...bucketAccess(MESSAGES_BUCKET),
      ...bucketAccess(PRINTOUTS_BUCKET),
    ],
    subscribe: [...serves('reporting'), '_INBOX.>'],
  },
  integration: {
    publish: [
      ...JS_COMMON,
      ...streamReadAccess(EVENTS_STREAM_NAME),
      // Large events' payloads (header `Payload-Object`).
      ...streamReadAccess(`OBJ_${EVENTS_BUCKET}`),
    ],
    subscribe: ['_INBOX.>'],
  },
  'access-point': {
    publish: [
      ...subjects(
        receivePurchaseEInvoice,
        storeReceivedEInvoice,
        reportEInvoiceStatus,
        pendingEInvoiceTransmissions,
        releaseHeldEInvoices,
        findCompanyByPeppolId,
        loadAccessPointSettings,
        storeAccessPointSettings,
        reportAccessPointContact,
        listAccessPointSettings,
      ),
      ...JS_COMMON,
      `$JS.API.STREAM.INFO.${EVENTS_STREAM_NAME}`,
      // Consumers of EVENTS only with the filter e-invoice-issued (the filter is in the subject, which the
      // server checks against the consumer's configuration), then their info, next and deletion.
      `$JS.API.CONSUMER.CREATE.${EVENTS_STREAM_NAME}.*.${InvoiceEventSubjects.eInvoiceIssued}`,
      `$JS.API.CONSUMER.INFO.${EVENTS_STREAM_NAME}.*`,
      `$JS.API.CONSUMER.MSG.NEXT.${EVENTS_STREAM_NAME}.*`,
      `$JS.API.CONSUMER.DELETE.${EVENTS_STREAM_NAME}.*`,
      `$JS.ACK.${EVENTS_STREAM_NAME}.>`,
      `$JS.FC.${EVENTS_STREAM_NAME}.>`,
      // Large issued documents travel in the events bucket (header `Payload-Object`).
      ...streamReadAccess(`OBJ_${EVENTS_BUCKET}`),
      // A received document larger than one message goes through the messages bucket.
      ...bucketAccess(MESSAGES_BUCKET),
      // Issue #43: its mailbox leases.
      ...kvAccess(LEASE_BUCKET),
    ],
    // Its own look-ups (the gateway asks which companies it has registered), and service discovery.
    subscribe: [...serves('access-point'), '_INBOX.>'],
  },
  admin: { publish: ['>'], subscribe: ['>'] },
};
