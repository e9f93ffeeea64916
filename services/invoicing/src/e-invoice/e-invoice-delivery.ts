/**
 * E-invoice delivery (issue #23): status reports of the access-point connector, the history, resend, and
 * the connector's look-ups. Linear: lock the issued document (store), decide with the pure state machine
 * (`e-invoice-format/delivery.ts`), store the change with its history row and event (store).
 */
import type { EInvoiceDelivery, EInvoiceIssuedEvent, EInvoiceStatusChange } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, notFound } from '@bm/errors';
import type { Ctx } from '@bm/service-kit';
import {
  deliveryDto,
  deliveryOf,
  enqueueIssuedAgain,
  findArchived,
  heldDeliveries,
  historyOf,
  lockIssued,
  recordNumberOf,
  salesInvoiceExists,
  saveDelivery,
} from '../e-invoice-archive/index.js';
import { applyReport, releaseHeld, resend, type StatusReport } from '../e-invoice-format/index.js';
import type { EInvoiceDeps } from './sales-e-invoice.js';

const notIssued = () =>
  new AppError(ErrorKind.not_found, ErrorCode.NotFound, 'the sales invoice has no issued e-invoice');

/**
 * `invoicing.e-invoices.report-status`: applies one report of the connector (idempotent and ordered).
 * Returns whether it changed anything and the delivery as it stands.
 * @throws 404 when the invoice has no issued e-invoice; 400 when the MLS code contradicts the status
 */
export async function reportStatus(
  deps: EInvoiceDeps,
  ctx: Ctx,
  invoiceId: string,
  report: StatusReport & { at?: string },
): Promise<{ changed: boolean; eInvoice: EInvoiceDelivery }> {
  const at = report.at ? new Date(report.at) : new Date();
  const result = await ctx.em.transactional(async (tx) => {
    const row = await lockIssued(tx, invoiceId);
    if (!row) throw notIssued();
    const next = applyReport(deliveryOf(row), report, at);
    if (next) await saveDelivery(tx, row, next, at);
    return { changed: !!next, eInvoice: deliveryDto(row) };
  });
  if (result.changed) deps.kickOutbox();
  return result;
}

/**
 * `POST /1.6/sales/invoices/{id}/e-invoice/resend`: the same bytes as the next attempt after `failed`;
 * `events.invoicing.e-invoice-issued` is published again with that attempt.
 * @throws 404 (no such invoice, or not issued); 409 InvalidState unless the delivery `failed`
 */
export async function resendEInvoice(
  deps: EInvoiceDeps,
  ctx: Ctx,
  invoiceId: string,
): Promise<EInvoiceDelivery> {
  const eInvoice = await ctx.em.transactional(async (tx) => {
    const row = await lockIssued(tx, invoiceId);
    if (!row) throw notFound('Sales invoice with an issued e-invoice');
    const next = resend(deliveryOf(row));
    await saveDelivery(tx, row, next, new Date(), await issuedEventOf(tx, row, next.attempt));
    return deliveryDto(row);
  });
  deps.kickOutbox();
  return eInvoice;
}

/** The `events.invoicing.e-invoice-issued` of `attempt` of the issued document `row` (its frozen bytes). */
async function issuedEventOf(
  tx: Ctx['em'],
  row: NonNullable<Awaited<ReturnType<typeof lockIssued>>>,
  attempt: number,
): Promise<EInvoiceIssuedEvent> {
  return {
    eventId: crypto.randomUUID(),
    companyId: row.companyId,
    invoiceId: row.documentId,
    recordNumber: await recordNumberOf(tx, row.documentId),
    documentType: row.documentType as EInvoiceIssuedEvent['documentType'],
    senderId: row.senderId ?? '',
    receiverId: row.receiverId ?? '',
    sha256: row.sha256,
    issuedAt: new Date(row.createdAt).toISOString(),
    document: Buffer.from(row.bytes ?? []).toString('base64'),
    attempt,
  };
}

/**
 * `invoicing.e-invoices.release-held` (issue #43): the company's credentials work again. Each e-invoice
 * `failed` for `AUTH` goes back to `issued` in its attempt (`releaseHeld`) and its issued event is
 * published again; with `includeQueued`, so is the issued event of each `issued` or `queued` one (status
 * unchanged: the connector's retry under the same key is collapsed by the provider). One transaction per
 * e-invoice, each under its row lock.
 */
export async function releaseHeldEInvoices(
  deps: EInvoiceDeps,
  ctx: Ctx,
  q: { includeQueued: boolean; limit: number },
): Promise<{ released: number; requeued: number }> {
  const ids = await heldDeliveries(ctx.em, ctx.companyId!, q.includeQueued, q.limit);
  let released = 0;
  let requeued = 0;
  for (const invoiceId of ids) {
    const done = await ctx.em.transactional(async (tx) => {
      const row = await lockIssued(tx, invoiceId);
      if (!row) return null;
      const current = deliveryOf(row);
      const next = releaseHeld(current);
      if (next) {
        await saveDelivery(tx, row, next, new Date(), await issuedEventOf(tx, row, next.attempt));
        return 'released' as const;
      }
      if (!q.includeQueued || (current.status !== 'issued' && current.status !== 'queued')) return null;
      enqueueIssuedAgain(tx, row.companyId, await issuedEventOf(tx, row, current.attempt));
      return 'requeued' as const;
    });
    if (done === 'released') released++;
    if (done === 'requeued') requeued++;
  }
  if (released + requeued) deps.kickOutbox();
  return { released, requeued };
}

/** `GET /1.6/sales/invoices/{id}/e-invoice/history`: every change, oldest first; empty before issue. @throws 404 */
export async function eInvoiceHistory(
  ctx: Ctx,
  invoiceId: string,
): Promise<{ items: EInvoiceStatusChange[] }> {
  const issued = await findArchived(ctx.em, 'issued', invoiceId);
  if (!issued) {
    if (!(await salesInvoiceExists(ctx.em, invoiceId))) throw notFound('Sales invoice');
    return { items: [] };
  }
  return { items: await historyOf(ctx.em, invoiceId) };
}
