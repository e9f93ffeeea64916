/**
 * The update-sales-invoice command (INTERFACE §4.3 PUT; DESIGN §6 "States"), one forward pass: read the
 * invoice and refuse what may not change, resolve the new data's references (NATS, before any
 * transaction), decide (pure, keeping the row ids sent back and each row's price basis), then in one
 * transaction under the invoice's row lock check again, share-lock the period, and write (store/); the
 * reply from what was stored.
 */
import type { SalesInvoice, SalesInvoiceUpdate } from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import { type Ctx, recordNumbering } from '@bm/service-kit';
import type { InvoicingDeps } from '../references/index.js';
import { lockInvoicePeriod } from '../references/index.js';
import { decideSalesInvoice } from './sales-invoice.decision.js';
import { assertEditable, assertNotIssued } from './sales-invoice.guards.js';
import { salesInvoiceReply } from './sales-invoice.queries.js';
import { findSalesInvoice, lockSalesInvoice, storedInvoiceRows } from './sales-invoice.reads.js';
import { resolveSalesInvoice } from './sales-invoice.resolve.js';
import { writeInvoiceUpdate } from './sales-invoice.writer.js';

/**
 * `PUT /1.6/sales/invoices/{id}`: all data; only `issued` invoices in an open period (else 409
 * InvalidState). Errors as create, and 404 NotFound.
 */
export async function updateSalesInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  id: string,
  data: SalesInvoiceUpdate,
): Promise<SalesInvoice> {
  const companyId = ctx.companyId!;
  const inv = await findSalesInvoice(ctx.em, id);
  // Checked first so a paid, cancelled or closed-period invoice answers 409 before its new data is
  // validated (a closed period would otherwise be a 422 PeriodClosed); checked again below under the
  // invoice's row lock, which closes the race with payments and cancelling.
  await assertEditable(ctx, inv, 'an update');
  await assertNotIssued(ctx.em, id);
  const r = await resolveSalesInvoice(deps, ctx, data, inv);
  const writeSet = decideSalesInvoice(
    data,
    r,
    { id, companyId },
    {
      id,
      mode: inv.mode,
      warehouseRecordNo: inv.warehouseRecordNo ?? null,
      rows: await storedInvoiceRows(ctx.em, id),
    },
  );
  const saved = await ctx.em.transactional(async (tx) => {
    const numbering = recordNumbering(tx, {
      schema: 'invoicing',
      companyId,
      ordner: r.ordner,
      date: data.dateCreated,
      given: data.recordNumber,
      stored: inv.recordNumber,
      table: '"invoicing"."sales_invoice"',
      id,
    });
    await numbering.check();
    // Locks are taken invoice first, then period (as cancelling does), so they cannot deadlock.
    const locked = await lockSalesInvoice(tx, id);
    await assertEditable({ ...ctx, em: tx }, locked, 'an update');
    await assertNotIssued(tx, id);
    await lockInvoicePeriod(tx, undefined, r.period.id, data.periodId ? 'periodId' : 'dateAccounting');
    return writeInvoiceUpdate(tx, locked, writeSet, await numbering.assign());
  });
  deps.kickOutbox();
  // A saved invoice has no payments (an update needs state `issued`).
  return salesInvoiceReply(saved.inv, saved.rows, [], saved.entries, todayIn(ctx.timeZone));
}
