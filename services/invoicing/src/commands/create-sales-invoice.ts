/** The create-sales-invoice command (INTERFACE §2.4; DESIGN §6). */

import type { SalesInvoice, SalesInvoiceInput } from '@bm/contracts';
import type { Ctx } from '@bm/service-kit';
import { type InvoicingDeps, saveInvoice } from './save-sales-invoice.js';

/** `POST /1.6/sales/invoices`. */
export function createSalesInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  input: SalesInvoiceInput,
): Promise<SalesInvoice> {
  return saveInvoice(deps, ctx, input);
}
