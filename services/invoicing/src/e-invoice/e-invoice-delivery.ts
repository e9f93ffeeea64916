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
  findArchived,
  historyOf,
  lockIssued,
  recordNumberOf,
  salesInvoiceExists,
  saveDelivery,
} from '../e-invoice-archive/index.js';
import { applyReport, resend, type StatusReport } from '../e-invoice-format/index.js';
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
    const now = new Date();
    const event: EInvoiceIssuedEvent = {
      eventId: crypto.randomUUID(),
      companyId: row.companyId,
      invoiceId,
      recordNumber: await recordNumberOf(tx, invoiceId),
      documentType: row.documentType as EInvoiceIssuedEvent['documentType'],
      senderId: row.senderId ?? '',
      receiverId: row.receiverId ?? '',
      sha256: row.sha256,
      issuedAt: new Date(row.createdAt).toISOString(),
      document: Buffer.from(row.bytes).toString('base64'),
      attempt: next.attempt,
    };
    await saveDelivery(tx, row, next, now, event);
    return deliveryDto(row);
  });
  deps.kickOutbox();
  return eInvoice;
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
