/**
 * The inbox of received e-invoices (issue #35; DESIGN §6a "Received means kept"):
 *
 * - `store`: what an access point delivered is stored first (its own committed transaction: bytes as
 *   delivered, SHA-256, channel, provider document id, what can be read of it), then booked through the
 *   receiving path of issue #21. A refusal of the booking rules leaves the record `needs-attention` with
 *   its problems (or `duplicate`, see `e-invoice-format/inbox.ts`); it is never refused back to the
 *   network. A transient failure (a service down, a bug) leaves it `received` and answers 503, so the
 *   channel delivers it again and the booking is retried on the stored record; after
 *   {@link MAX_BOOKING_TRIES} such failures it is `needs-attention` (`BookingFailed`) with the error
 *   (issue #43). A problem the connector found (a checksum mismatch) keeps it `needs-attention` unbooked.
 * - `book`: a person's retry after fixing master data.
 * - `list`, `get`: the inbox and the bytes.
 */
import type {
  PurchaseInvoice,
  ReceivedEInvoiceRecord,
  ReceivedEInvoiceView,
  storeReceivedEInvoice,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, notFound } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import type { z } from 'zod';
import {
  countFailedBooking,
  findReceived,
  type InboxRow,
  listReceived,
  markOutcome,
  recordOf,
  sha256Hex,
  storeReceived,
} from '../e-invoice-archive/index.js';
import type { ReceivedEInvoice } from '../e-invoice-format/index.js';
import {
  formatEndpoint,
  type InboxProblem,
  inboxSummary,
  problemsOf,
  readUbl,
  receivedView,
  sameInvoiceAgain,
} from '../e-invoice-format/index.js';
import type { InvoicingDeps } from '../references/index.js';
import { companyProfile } from '../references/index.js';
import { archivedBytes, bookedOriginal } from './inbox.reads.js';
import { receivePurchaseEInvoice } from './receive-purchase-e-invoice.js';

type StoreInput = z.infer<(typeof storeReceivedEInvoice)['request']>;

/** The UBL of `bytes`, or null when it is not a readable UBL invoice (kept all the same). */
function readOrNull(bytes: Buffer): ReceivedEInvoice | null {
  try {
    return readUbl(bytes);
  } catch {
    return null;
  }
}

/** Kinds of a booking failure that say nothing about the document: retried, up to {@link MAX_BOOKING_TRIES}. */
const TRANSIENT: readonly string[] = [ErrorKind.unavailable, ErrorKind.timeout, ErrorKind.internal];
/** Failed bookings of a stored document (not refusals) before it is `needs-attention` with the error (issue #43). */
export const MAX_BOOKING_TRIES = 5;

type Booking =
  | { ok: true; invoice: PurchaseInvoice | null }
  | { ok: false; error: AppError; problems: InboxProblem[] };

/**
 * Books stored record `row` once. Resolves to the purchase invoice, or to the refusal that made the record
 * `needs-attention` / `duplicate`. @throws 503 ServiceUnavailable on a transient failure (record stays `received`).
 */
async function book(deps: InvoicingDeps, ctx: Ctx, row: InboxRow, auto = true): Promise<Booking> {
  const bytes = Buffer.from(row.bytes);
  const profile = await companyProfile(ctx.em);
  try {
    const invoice = await receivePurchaseEInvoice(deps, ctx, bytes.toString('base64'), {
      recordId: row.id,
      // Booked on the day it was received (DESIGN §6a), whenever the booking succeeds.
      receivedOn: todayIn(ctx.timeZone ?? profile.timeZone, new Date(row.receivedAt)),
    });
    return { ok: true, invoice };
  } catch (e) {
    if (!(e instanceof AppError) || TRANSIENT.includes(e.kind)) {
      // Issue #43: retried, but not for ever: after MAX_BOOKING_TRIES it waits for a person, visibly.
      const tries = auto ? await countFailedBooking(ctx.em, row.id) : 0;
      if (auto && tries >= MAX_BOOKING_TRIES) {
        const problems: InboxProblem[] = [
          {
            rule: 'BookingFailed',
            field: null,
            message:
              `booking failed ${tries}× with an error that is not a refusal of the document: ${(e as Error).message}`.slice(
                0,
                2000,
              ),
          },
        ];
        await markOutcome(
          ctx.em,
          ctx.companyId!,
          row.id,
          { status: 'needs-attention', problems },
          new Date(),
        );
        deps.kickOutbox();
        return {
          ok: false,
          error: new AppError(ErrorKind.unprocessable, ErrorCode.EInvoiceNotValid, problems[0].message),
          problems,
        };
      }
      throw new AppError(
        ErrorKind.unavailable,
        ErrorCode.ServiceUnavailable,
        `the document is stored (inbox ${row.id}); booking it failed for now${auto ? ` (try ${tries} of ${MAX_BOOKING_TRIES})` : ''} and is retried: ${(e as Error).message}`,
        { retryAfterSeconds: 30, cause: e },
      );
    }
    // Booked meanwhile by another replica of this request: nothing to change.
    if (e.code === ErrorCode.InvalidState) return { ok: true, invoice: null };
    const now = new Date();
    const doc = readOrNull(bytes);
    if (e.code === ErrorCode.DuplicateRecordNumber && doc) {
      const booked = await bookedOriginal(ctx.em, doc);
      const original = booked && { ...booked, same: sameInvoiceAgain(inboxSummary(doc), booked) };
      const problems: InboxProblem[] = [
        {
          rule: ErrorCode.DuplicateRecordNumber,
          field: 'BT-1',
          message: original
            ? `invoice ${doc.id} of this supplier was booked before as purchase invoice ${original.recordNumber}${original.same ? ' (same issue date, currency and amount due: a re-sent copy)' : ' with other figures'}`
            : e.message,
        },
      ];
      if (original?.same) {
        await markOutcome(
          ctx.em,
          ctx.companyId!,
          row.id,
          { status: 'duplicate', purchaseInvoiceId: original.id, problems },
          now,
        );
        deps.kickOutbox();
        return { ok: false, error: e, problems };
      }
      await markOutcome(ctx.em, ctx.companyId!, row.id, { status: 'needs-attention', problems }, now);
      deps.kickOutbox();
      return { ok: false, error: e, problems };
    }
    const problems = problemsOf(e);
    await markOutcome(ctx.em, ctx.companyId!, row.id, { status: 'needs-attention', problems }, now);
    deps.kickOutbox();
    return { ok: false, error: e, problems };
  }
}

/** `invoicing.received-e-invoices.store`: see the module comment and the contract. */
export async function storeAndBook(
  deps: InvoicingDeps,
  ctx: Ctx,
  input: StoreInput,
): Promise<ReceivedEInvoiceRecord & { stored: boolean }> {
  const bytes = Buffer.from(input.document, 'base64');
  const doc = readOrNull(bytes);
  const { row, stored } = await storeReceived(
    ctx.em,
    ctx.companyId!,
    {
      ...inboxSummary(doc),
      channel: input.channel,
      providerDocumentId: input.providerDocumentId,
      bytes,
      sha256: sha256Hex(bytes),
      senderId: input.senderParticipantId ?? (doc ? formatEndpoint(doc.seller.endpoint) : null),
      receiverId: input.receiverParticipantId ?? (doc ? formatEndpoint(doc.buyer.endpoint) : null),
    },
    new Date(),
  );
  if (stored) deps.kickOutbox();
  if (row.status === 'received' && input.problem)
    // Issue #43: a problem found on the way (a checksum mismatch): kept for a person, not booked.
    await markOutcome(
      ctx.em,
      ctx.companyId!,
      row.id,
      { status: 'needs-attention', problems: [{ ...input.problem, field: null }] },
      new Date(),
    ).then(() => deps.kickOutbox());
  else if (row.status === 'received') await book(deps, ctx, row);
  const now = await findReceived(ctx.em, row.id);
  return { ...recordOf(now ?? row), stored };
}

/**
 * `POST /1.6/purchase/e-invoices/{id}/book`: books a `needs-attention` or `received` record again.
 * @throws 404; 409 InvalidState (booked or duplicate already); 422 with the problems (the record stays
 * `needs-attention`); 503 on a transient failure
 */
export async function bookAgain(deps: InvoicingDeps, ctx: Ctx, id: string): Promise<PurchaseInvoice> {
  const row = await findReceived(ctx.em, id);
  if (!row) throw notFound('Received e-invoice');
  if (row.status === 'booked' || row.status === 'duplicate')
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      `this received e-invoice is ${row.status} already`,
      {
        errors: [{ path: 'status', message: row.status }],
        extensions: { purchaseInvoiceId: row.purchaseInvoiceId },
      },
    );
  const r = await book(deps, ctx, row, false);
  if (r.ok && r.invoice) return r.invoice;
  if (r.ok)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      'this received e-invoice is booked already',
    );
  throw new AppError(
    ErrorKind.unprocessable,
    r.error.kind === ErrorKind.unprocessable ? r.error.code : ErrorCode.EInvoiceNotValid,
    `the document cannot be booked: ${r.problems.map((p) => p.rule).join(', ')}`,
    { errors: r.problems.map((p) => ({ path: p.field ?? p.rule, message: `[${p.rule}] ${p.message}` })) },
  );
}

/** `GET /1.6/purchase/e-invoices`: a page of the inbox, newest first. */
export async function listInbox(
  ctx: Ctx,
  q: { status?: ReceivedEInvoiceRecord['status']; page?: number; pageSize?: number },
) {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 50;
  const { rows, total } = await listReceived(ctx.em, q.status, page, pageSize);
  return { page, pageSize, totalCount: total, items: rows.map(recordOf) };
}

/** `GET /1.6/purchase/e-invoices/{id}`: the record and its bytes (base64). @throws 404 */
export async function getInboxRecord(ctx: Ctx, id: string) {
  const row = await findReceived(ctx.em, id);
  if (!row) throw notFound('Received e-invoice');
  return { ...recordOf(row), document: Buffer.from(row.bytes).toString('base64') };
}

/**
 * `invoicing.received-e-invoices.view`: a received document read from its archived bytes, by inbox record
 * or by the purchase invoice it was booked as. @throws 404; 422 EInvoiceNotValid (not a readable UBL invoice)
 */
export async function viewReceived(
  ctx: Ctx,
  q: { id?: string; purchaseInvoiceId?: string },
): Promise<ReceivedEInvoiceView> {
  const archived = await archivedBytes(ctx.em, q);
  if (!archived) throw notFound('Record');
  const doc = readOrNull(archived.bytes);
  if (!doc)
    throw new AppError(
      ErrorKind.unprocessable,
      ErrorCode.EInvoiceNotValid,
      'the received document is not a readable UBL invoice: only its XML can be shown',
      {
        errors: [{ path: 'recordID', message: 'not a readable UBL 2.1 Invoice or CreditNote' }],
      },
    );
  return receivedView(doc, {
    sha256: archived.sha256,
    receivedAt: archived.receivedAt,
    channel: archived.channel,
  });
}
