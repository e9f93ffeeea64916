/**
 * Issued e-invoices out (issue #23): each `events.invoicing.e-invoice-issued` is submitted once per
 * attempt. The transmission id is derived from the invoice id and the attempt, and before submitting the
 * connector asks the transport whether it has that transmission already, so a redelivered event or a
 * connector restarted between submit and acknowledgement never sends twice. Every change is reported to
 * invoicing (`invoicing.e-invoices.report-status`, idempotent and ordered there).
 */
import { type DeliveryReason, type EInvoiceIssuedEvent, reportEInvoiceStatus } from '@bm/contracts';
import { AppError, ErrorCode } from '@bm/errors';
import { type NatsConnection, request } from '@bm/messaging';
import { transmissionId } from '../domain/peppol.js';
import type { Outbound, Outcome, Transport } from '../transports/transport.js';

type Reported = 'queued' | 'sent' | 'delivered' | 'rejected' | 'failed';

/** Reports one status of one transmission; resolves to invoicing's view of the e-invoice. */
export function report(
  nc: NatsConnection,
  t: { companyId: string; invoiceId: string; attempt: number; transmissionId: string },
  status: Reported,
  extra: { mls?: 'AP' | 'AB' | 'RE'; reasons?: DeliveryReason[] } = {},
) {
  return request(
    nc,
    reportEInvoiceStatus,
    {
      invoiceId: t.invoiceId,
      attempt: t.attempt,
      status,
      transmissionId: t.transmissionId,
      mls: extra.mls ?? null,
      reasons: extra.reasons ?? [],
      at: new Date().toISOString(),
    },
    { companyId: t.companyId, requestId: crypto.randomUUID() },
  );
}

/** Reports an outcome: `sent` first when the document went through the network, then a final status. */
export async function reportOutcome(
  nc: NatsConnection,
  t: { companyId: string; invoiceId: string; attempt: number; transmissionId: string },
  outcome: Outcome,
): Promise<void> {
  if (outcome.status === 'pending') return;
  const wentOut =
    outcome.status === 'sent' ||
    outcome.status === 'delivered' ||
    (outcome.status === 'rejected' && outcome.sent);
  // The access point's own id of the document (SAPI-SK's providerDocumentId) replaces the derived one.
  const sent =
    outcome.status === 'sent' && outcome.transmissionId
      ? { ...t, transmissionId: outcome.transmissionId }
      : t;
  if (wentOut) await report(nc, sent, 'sent');
  if (outcome.status === 'delivered') await report(nc, t, 'delivered', { mls: outcome.mls });
  else if (outcome.status === 'rejected')
    await report(nc, t, 'rejected', { mls: outcome.sent ? 'RE' : undefined, reasons: outcome.reasons });
  else if (outcome.status === 'failed') await report(nc, t, 'failed', { reasons: outcome.reasons });
}

/** The outbound document of an issued event. */
export function outboundOf(event: EInvoiceIssuedEvent): Outbound {
  return {
    companyId: event.companyId,
    invoiceId: event.invoiceId,
    attempt: event.attempt ?? 1,
    transmissionId: transmissionId(event.invoiceId, event.attempt ?? 1),
    senderId: event.senderId,
    receiverId: event.receiverId,
    documentType: event.documentType,
    document: Buffer.from(event.document, 'base64'),
    issuedAt: event.issuedAt,
  };
}

/**
 * Delivers one issued e-invoice: `queued`, then (unless the transport has this transmission already)
 * submit, then the outcome. Nothing happens for an attempt invoicing has moved past or finished.
 * Throws on a transient failure (the event is delivered again).
 */
export async function deliver(
  nc: NatsConnection,
  transport: Transport,
  event: EInvoiceIssuedEvent,
): Promise<void> {
  const doc = outboundOf(event);
  const queued = await report(nc, doc, 'queued').catch((e) => {
    // An invoice invoicing does not know (another installation's event in a shared stream): not ours.
    if (e instanceof AppError && e.code === ErrorCode.NotFound) return null;
    throw e;
  });
  if (!queued) return;
  const current = queued.eInvoice;
  if (current.attempt !== doc.attempt || ['delivered', 'rejected', 'failed'].includes(current.status)) return;
  const known = await transport.follow(doc);
  const outcome = known === 'unknown' ? await transport.submit(doc) : known;
  await reportOutcome(nc, doc, outcome);
}

/**
 * Gives up on a transmission the transport could not take after every retry: `failed` with the reason,
 * coded `TRANSPORT`, or `AUTH` when the company's credentials were refused (issue #43: released by
 * itself once they work again).
 */
export async function giveUp(
  nc: NatsConnection,
  event: EInvoiceIssuedEvent,
  reason: string,
  code = 'TRANSPORT',
): Promise<void> {
  const doc = outboundOf(event);
  await report(nc, doc, 'failed', { reasons: [{ code, message: reason }] });
}
