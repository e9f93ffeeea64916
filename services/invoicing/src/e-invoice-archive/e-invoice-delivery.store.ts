/**
 * Reads and writes of e-invoice delivery (issue #23): the delivery columns of the issued document in
 * `e_invoice_document`, the history in `e_invoice_status_change`, their event through the outbox, and
 * the connector's cross-company look-ups (raw SQL: they run without a company). ORM code only.
 */
import {
  type EInvoiceDelivery,
  type EInvoiceIssuedEvent,
  type EInvoiceStatusChange,
  type EInvoiceStatusChangedEvent,
  InvoiceEventSubjects,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type EntityManager, enqueueEvent } from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import type { DeliveryState, Mls } from '../e-invoice-format/index.js';
import {
  EInvoiceDocumentEntity,
  EInvoiceStatusChangeEntity,
  OutboxEntity,
  SalesInvoiceEntity,
} from '../schema/entities.js';

/** A row of the e-invoice archive (the same type e-invoice.store.ts names). */
type ArchiveRow = InstanceType<typeof EInvoiceDocumentEntity.class>;

/** The delivery state stored on an issued document. */
export function deliveryOf(row: ArchiveRow): DeliveryState {
  return {
    status: (row.deliveryStatus ?? 'issued') as DeliveryState['status'],
    attempt: row.attempt || 1,
    transmissionId: row.transmissionId ?? null,
    mls: (row.mls ?? null) as Mls | null,
    reasons: row.reasons ?? [],
    deliveredAt: row.deliveredAt ? new Date(row.deliveredAt) : null,
  };
}

/** The invoice's `eInvoice` (issue #23): `draft` without an issued document. */
export function deliveryDto(row: ArchiveRow | null): EInvoiceDelivery {
  if (!row)
    return {
      status: 'draft',
      issuedAt: null,
      sha256: null,
      transmissionId: null,
      deliveredAt: null,
      mls: null,
      reasons: [],
      attempt: 0,
    };
  const d = deliveryOf(row);
  return {
    status: d.status,
    issuedAt: new Date(row.createdAt).toISOString(),
    sha256: row.sha256,
    transmissionId: d.transmissionId,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    mls: d.mls,
    reasons: d.reasons,
    attempt: d.attempt,
  };
}

/** The issued document of invoice `invoiceId`, row-locked for a status change; null when not issued. */
export function lockIssued(tx: EntityManager, invoiceId: string): Promise<ArchiveRow | null> {
  return tx.findOne(
    EInvoiceDocumentEntity,
    { direction: 'issued', documentId: invoiceId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
}

/** The record number of a sales invoice (for the events); '' when unknown. */
export async function recordNumberOf(tx: EntityManager, invoiceId: string): Promise<string> {
  const inv = await tx.findOne(SalesInvoiceEntity, { id: invoiceId }, { fields: ['recordNumber'] as any });
  return inv?.recordNumber ?? '';
}

/**
 * Stores `next` on the locked document `row`, appends it to the history and enqueues
 * `events.invoicing.e-invoice-status-changed` (and, for a new attempt, `issuedEvent`) in the caller's
 * transaction.
 */
export async function saveDelivery(
  tx: EntityManager,
  row: ArchiveRow,
  next: DeliveryState,
  at: Date,
  issuedEvent?: EInvoiceIssuedEvent,
): Promise<void> {
  tx.assign(row, {
    deliveryStatus: next.status,
    attempt: next.attempt,
    transmissionId: next.transmissionId,
    mls: next.mls,
    reasons: next.reasons,
    deliveredAt: next.deliveredAt,
    statusAt: at,
  });
  await appendChange(tx, row.companyId, row.documentId, next, at, issuedEvent);
}

/** Appends a history row and enqueues its status event (and `issuedEvent` when given). */
export async function appendChange(
  tx: EntityManager,
  companyId: string,
  invoiceId: string,
  state: DeliveryState,
  at: Date,
  issuedEvent?: EInvoiceIssuedEvent,
): Promise<void> {
  const [{ seq }] = await tx.execute<{ seq: number }[]>(
    `select coalesce(max("seq"), 0) + 1 as "seq" from "invoicing"."e_invoice_status_change"
      where "company_id" = ? and "invoice_id" = ?`,
    [companyId, invoiceId],
  );
  tx.create(EInvoiceStatusChangeEntity, {
    id: crypto.randomUUID(),
    companyId,
    invoiceId,
    seq: Number(seq),
    attempt: state.attempt,
    status: state.status,
    transmissionId: state.transmissionId,
    mls: state.mls,
    reasons: state.reasons,
    at,
  });
  const event: EInvoiceStatusChangedEvent = {
    eventId: crypto.randomUUID(),
    companyId,
    invoiceId,
    recordNumber: issuedEvent?.recordNumber ?? (await recordNumberOf(tx, invoiceId)),
    ...changeDto({ ...state, at }),
  };
  if (issuedEvent)
    enqueueEvent(tx, OutboxEntity, companyId, InvoiceEventSubjects.eInvoiceIssued, issuedEvent);
  enqueueEvent(tx, OutboxEntity, companyId, InvoiceEventSubjects.eInvoiceStatusChanged, event);
}

const changeDto = (c: DeliveryState & { at: Date }): EInvoiceStatusChange => ({
  status: c.status,
  at: c.at.toISOString(),
  attempt: c.attempt,
  transmissionId: c.transmissionId,
  mls: c.mls,
  reasons: c.reasons,
});

/**
 * The invoices of company `companyId` whose issued e-invoice is held back by refused credentials (issue
 * #43): `failed` with the reason `AUTH`, and with `includeQueued` every `issued` or `queued` one; oldest
 * first, at most `limit` (the reason is matched in the query, so other failures never crowd them out).
 */
export async function heldDeliveries(
  em: EntityManager,
  companyId: string,
  includeQueued: boolean,
  limit: number,
): Promise<string[]> {
  const rows = await em.execute<{ document_id: string }[]>(
    `select "document_id" from "invoicing"."e_invoice_document"
      where "company_id" = ? and "direction" = 'issued'
        and (("delivery_status" = 'failed' and "reasons" @> '[{"code":"AUTH"}]'::jsonb)
             or (? and "delivery_status" in ('issued', 'queued')))
      order by "created_at" limit ?`,
    [companyId, includeQueued, limit],
  );
  return rows.map((r) => r.document_id);
}

/** Enqueues an issued e-invoice's issued event again (its status unchanged) in transaction `tx`. */
export function enqueueIssuedAgain(tx: EntityManager, companyId: string, event: EInvoiceIssuedEvent): void {
  enqueueEvent(tx, OutboxEntity, companyId, InvoiceEventSubjects.eInvoiceIssued, event);
}

/** Whether sales invoice `invoiceId` exists (for the current company). */
export async function salesInvoiceExists(em: EntityManager, invoiceId: string): Promise<boolean> {
  return (await em.count(SalesInvoiceEntity, { id: invoiceId })) > 0;
}

/** Every status change of invoice `invoiceId`, oldest first. */
export async function historyOf(em: EntityManager, invoiceId: string): Promise<EInvoiceStatusChange[]> {
  const rows = await em.find(EInvoiceStatusChangeEntity, { invoiceId }, { orderBy: { seq: 'asc' } });
  return rows.map((r) =>
    changeDto({
      status: r.status as DeliveryState['status'],
      attempt: r.attempt,
      transmissionId: r.transmissionId ?? null,
      mls: (r.mls ?? null) as Mls | null,
      reasons: r.reasons ?? [],
      deliveredAt: null,
      at: new Date(r.at),
    }),
  );
}

/**
 * Issued e-invoices of every company not yet at a final status whose status changed within the last
 * `withinHours`, oldest change first (the connector's follow list).
 */
export async function pendingTransmissions(em: EntityManager, limit: number, withinHours = 168) {
  const rows = await em.execute<Record<string, any>[]>(
    `select "company_id", "document_id", "attempt", "delivery_status", "transmission_id", "sender_id", "receiver_id"
       from "invoicing"."e_invoice_document"
      where "direction" = 'issued' and "delivery_status" in ('issued', 'queued', 'sent')
        and coalesce("status_at", "created_at") > now() - make_interval(hours => ?)
      order by coalesce("status_at", "created_at") limit ?`,
    [withinHours, limit],
  );
  return rows.map((r) => ({
    companyId: r.company_id as string,
    invoiceId: r.document_id as string,
    attempt: Math.max(1, Number(r.attempt)),
    status: r.delivery_status as DeliveryState['status'],
    transmissionId: (r.transmission_id as string | null) ?? null,
    senderId: (r.sender_id as string | null) ?? null,
    receiverId: (r.receiver_id as string | null) ?? null,
  }));
}

/** The company whose `peppolId` is `peppolId` (case-insensitive), or null; across companies. */
export async function companyByPeppolId(em: EntityManager, peppolId: string): Promise<string | null> {
  const [row] = await em.execute<{ company_id: string }[]>(
    `select "company_id" from "invoicing"."company_profile" where lower("peppol_id") = lower(?) limit 1`,
    [peppolId.trim()],
  );
  return row?.company_id ?? null;
}

/**
 * Refuses a `peppolId` another company has (issue #23: received documents are routed by it).
 * @throws 409 PeppolIdTaken naming `peppolId`
 */
export async function assertPeppolIdFree(
  em: EntityManager,
  peppolId: string | null | undefined,
  companyId: string,
): Promise<void> {
  if (!peppolId) return;
  const owner = await companyByPeppolId(em, peppolId);
  if (owner && owner !== companyId)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.PeppolIdTaken,
      `the Peppol participant ${peppolId} belongs to another company`,
      { errors: [{ path: 'peppolId', message: 'used by another company' }] },
    );
}
