/**
 * Reads and writes of the inbox of received e-invoices (issue #35; table `received_e_invoice`). No
 * messaging here. Every status change enqueues `events.invoicing.e-invoice-received` in its transaction.
 */
import {
  type EInvoiceReceivedEvent,
  InboxEventSubjects,
  type ReceiveChannel,
  type ReceivedEInvoiceRecord,
  type ReceivedEInvoiceStatus,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type EntityManager, enqueueEvent } from '@bm/service-kit';
import type { InboxProblem, InboxSummary } from '../e-invoice-format/index.js';
import { OutboxEntity, ReceivedEInvoiceEntity } from '../schema/entities.js';

export type InboxRow = InstanceType<typeof ReceivedEInvoiceEntity.class>;

/** A new record: where the bytes came from, the bytes and their digest, and what could be read of them. */
export interface NewReceived extends InboxSummary {
  channel: ReceiveChannel;
  providerDocumentId: string | null;
  bytes: Buffer;
  sha256: string;
  senderId: string | null;
  receiverId: string | null;
}

/** The record as the API shows it (without the bytes). */
export function recordOf(r: InboxRow): ReceivedEInvoiceRecord {
  return {
    id: r.id,
    receivedAt: new Date(r.receivedAt).toISOString(),
    channel: r.channel as ReceiveChannel,
    providerDocumentId: r.providerDocumentId ?? null,
    sha256: r.sha256,
    senderParticipantId: r.senderId ?? null,
    receiverParticipantId: r.receiverId ?? null,
    senderName: r.senderName ?? null,
    invoiceNumber: r.invoiceNumber ?? null,
    issueDate: r.issueDate ?? null,
    documentType: (r.documentType as ReceivedEInvoiceRecord['documentType']) ?? null,
    total: r.total ?? null,
    currency: r.currency ?? null,
    status: r.status as ReceivedEInvoiceStatus,
    purchaseInvoiceId: r.purchaseInvoiceId ?? null,
    problems: r.problems ?? [],
  };
}

function receivedEvent(
  companyId: string,
  r: Pick<
    InboxRow,
    'id' | 'status' | 'channel' | 'senderId' | 'senderName' | 'invoiceNumber' | 'purchaseInvoiceId'
  >,
): EInvoiceReceivedEvent {
  return {
    eventId: crypto.randomUUID(),
    companyId,
    id: r.id,
    status: r.status as ReceivedEInvoiceStatus,
    channel: r.channel as ReceiveChannel,
    senderParticipantId: r.senderId ?? null,
    senderName: r.senderName ?? null,
    invoiceNumber: r.invoiceNumber ?? null,
    purchaseInvoiceId: r.purchaseInvoiceId ?? null,
  };
}

/** Enqueues `events.invoicing.e-invoice-received` of record `row` in transaction `tx` (if there is one). */
function enqueueReceived(
  tx: EntityManager,
  companyId: string,
  row: Parameters<typeof receivedEvent>[1] | null,
): void {
  if (row)
    enqueueEvent(
      tx,
      OutboxEntity,
      companyId,
      InboxEventSubjects.eInvoiceReceived,
      receivedEvent(companyId, row),
    );
}

/**
 * The record this company has of these bytes, or null. Issue #43: by the bytes alone — a provider's
 * document id may be the sender's own number, so the same id with other bytes is another document.
 */
export function findExisting(em: EntityManager, d: { sha256: string }): Promise<InboxRow | null> {
  return em.findOne(ReceivedEInvoiceEntity, { sha256: d.sha256 }, { disableIdentityMap: true });
}

/**
 * Stores a received document as `received`, in a transaction of its own that commits before anything
 * else happens to it. Two stores of one document (two connector replicas, a retry) race on the unique
 * keys: the loser gets the winner's record. Resolves to the record and whether this call stored it.
 */
export async function storeReceived(
  em: EntityManager,
  companyId: string,
  d: NewReceived,
  now: Date,
): Promise<{ row: InboxRow; stored: boolean }> {
  const before = await findExisting(em, d);
  if (before) return { row: before, stored: false };
  const id = crypto.randomUUID();
  const inserted = await em.fork().transactional(async (tx) => {
    const [r] = await tx.execute<{ id: string }[]>(
      `insert into "invoicing"."received_e_invoice" ("id", "company_id", "received_at", "channel", "provider_document_id", "bytes", "sha256", "sender_id", "receiver_id", "sender_name", "invoice_number", "issue_date", "document_type", "total", "currency", "status", "purchase_invoice_id", "problems", "updated_at")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'received', null, '[]'::jsonb, ?) on conflict do nothing returning "id"`,
      [
        id,
        companyId,
        now,
        d.channel,
        d.providerDocumentId,
        d.bytes,
        d.sha256,
        d.senderId,
        d.receiverId,
        d.senderName?.slice(0, 255) ?? null,
        d.invoiceNumber,
        d.issueDate,
        d.documentType,
        d.total,
        d.currency,
        now,
      ],
    );
    if (!r) return false;
    enqueueEvent(
      tx,
      OutboxEntity,
      companyId,
      InboxEventSubjects.eInvoiceReceived,
      receivedEvent(companyId, { id, status: 'received', channel: d.channel, ...nullsOf(d) }),
    );
    return true;
  });
  const row = inserted
    ? await em.findOne(ReceivedEInvoiceEntity, { id }, { disableIdentityMap: true })
    : await findExisting(em, d);
  if (!row) throw new Error('the received document vanished after it was stored');
  return { row, stored: inserted };
}

const nullsOf = (d: NewReceived) => ({
  senderId: d.senderId,
  senderName: d.senderName,
  invoiceNumber: d.invoiceNumber,
  purchaseInvoiceId: null,
});

/** The record `id` of this company, or null. */
export function findReceived(em: EntityManager, id: string): Promise<InboxRow | null> {
  return em.findOne(ReceivedEInvoiceEntity, { id }, { disableIdentityMap: true });
}

/** A page of records, newest first (then by id, so pages are stable), optionally of one status. */
export async function listReceived(
  em: EntityManager,
  status: ReceivedEInvoiceStatus | undefined,
  page: number,
  pageSize: number,
): Promise<{ rows: InboxRow[]; total: number }> {
  const where = status ? { status } : {};
  const [rows, total] = await em.findAndCount(ReceivedEInvoiceEntity, where, {
    orderBy: { receivedAt: 'desc', id: 'asc' },
    limit: pageSize,
    offset: (page - 1) * pageSize,
    exclude: ['bytes'] as any,
    disableIdentityMap: true,
  });
  return { rows, total };
}

/**
 * Inside the booking's transaction: the record `id` becomes `booked` with its purchase invoice.
 * @throws 409 InvalidState when it is booked already (another replica won), so this booking is undone
 */
export async function markBookedInTx(
  tx: EntityManager,
  companyId: string,
  id: string,
  purchaseInvoiceId: string,
  now: Date,
): Promise<void> {
  const n = await tx.nativeUpdate(
    ReceivedEInvoiceEntity,
    { id, status: { $in: ['received', 'needs-attention'] } },
    { status: 'booked', purchaseInvoiceId, problems: [], updatedAt: now },
  );
  if (!n)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      'this received e-invoice is booked already',
      {
        errors: [{ path: 'id', message: 'booked already' }],
      },
    );
  const row = await tx.findOne(
    ReceivedEInvoiceEntity,
    { id },
    {
      disableIdentityMap: true,
      fields: [
        'id',
        'status',
        'channel',
        'senderId',
        'senderName',
        'invoiceNumber',
        'purchaseInvoiceId',
      ] as any,
    },
  );
  enqueueReceived(tx, companyId, row);
}

/** The inbox record an upload of these bytes will be booked on: the one received earlier, else a new id. */
export async function uploadRecordId(tx: EntityManager, d: { sha256: string }): Promise<string> {
  return (await findExisting(tx, d))?.id ?? crypto.randomUUID();
}

/**
 * Inside an upload's booking transaction (`POST /1.6/purchase/e-invoices`): the record of the same bytes
 * received earlier moved to `booked`, else the upload's own record `id` (`uploadRecordId`), `booked`.
 */
export async function recordUploadInTx(
  tx: EntityManager,
  companyId: string,
  d: NewReceived,
  id: string,
  purchaseInvoiceId: string,
  now: Date,
): Promise<void> {
  if (await findReceived(tx, id)) return markBookedInTx(tx, companyId, id, purchaseInvoiceId, now);
  tx.create(ReceivedEInvoiceEntity, {
    id,
    companyId,
    receivedAt: now,
    ...d,
    senderName: d.senderName?.slice(0, 255) ?? null,
    status: 'booked',
    purchaseInvoiceId,
    problems: [],
    updatedAt: now,
  });
  enqueueEvent(
    tx,
    OutboxEntity,
    companyId,
    InboxEventSubjects.eInvoiceReceived,
    receivedEvent(companyId, { id, status: 'booked', channel: d.channel, ...nullsOf(d), purchaseInvoiceId }),
  );
}

/** Sets a record's outcome that is not a booking (`needs-attention` with its problems, or `duplicate`). */
export async function markOutcome(
  em: EntityManager,
  companyId: string,
  id: string,
  outcome:
    | { status: 'needs-attention'; problems: InboxProblem[] }
    | { status: 'duplicate'; purchaseInvoiceId: string; problems: InboxProblem[] },
  now: Date,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const n = await tx.nativeUpdate(
      ReceivedEInvoiceEntity,
      { id, status: { $in: ['received', 'needs-attention'] } },
      {
        status: outcome.status,
        problems: outcome.problems,
        purchaseInvoiceId: outcome.status === 'duplicate' ? outcome.purchaseInvoiceId : null,
        updatedAt: now,
      },
    );
    if (!n) return;
    const row = await tx.findOne(
      ReceivedEInvoiceEntity,
      { id },
      { disableIdentityMap: true, exclude: ['bytes'] as any },
    );
    enqueueReceived(tx, companyId, row);
  });
}
