/** The update-sales-invoice command (INTERFACE §4.3 PUT; DESIGN §6 "States"). */

import type { SalesInvoice, SalesInvoiceUpdate } from '@bm/contracts';
import { notFound } from '@bm/errors';
import type { Ctx } from '@bm/service-kit';
import { SalesInvoiceEntity } from '../persistence/entities.js';
import { assertEditable, assertNotIssued } from './sales-invoice-guards.js';
import { type InvoicingDeps, saveInvoice } from './save-sales-invoice.js';

/** `PUT /1.6/sales/invoices/{id}`: all data; only `issued` invoices in an open period (else 409 InvalidState). */
export async function updateSalesInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  id: string,
  data: SalesInvoiceUpdate,
): Promise<SalesInvoice> {
  const inv = await ctx.em.findOne(SalesInvoiceEntity, { id });
  if (!inv) throw notFound('Sales invoice');
  // Checked first so a paid, cancelled or closed-period invoice answers 409 before its new data is
  // validated (a closed period would otherwise be a 422 PeriodClosed); saveInvoice checks again under the
  // invoice's row lock, which closes the race with payments and cancelling.
  await assertEditable(ctx, inv, 'an update');
  await assertNotIssued(ctx.em, id);
  return saveInvoice(deps, ctx, data, inv);
}
