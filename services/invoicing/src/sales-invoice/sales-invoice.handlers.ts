/** Sales-invoice endpoints (INTERFACE §4.3): transport only. */
import {
  addPayment,
  cancelSalesInvoice,
  createSalesInvoice,
  getSalesInvoice,
  getSalesInvoiceCopySource,
  listSalesInvoices,
  updateSalesInvoice,
} from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import type { InvoicingDeps } from '../references/index.js';
import { addPayment as addPaymentCommand } from './add-payment.js';
import { cancelSalesInvoice as cancelSalesInvoiceCommand } from './cancel-sales-invoice.js';
import { createSalesInvoice as createSalesInvoiceCommand } from './sales-invoice.kind.js';
import * as salesReads from './sales-invoice.queries.js';
import { updateSalesInvoice as updateSalesInvoiceCommand } from './update-sales-invoice.js';

type X = { em: Ctx['em'] };

/** Registers the sales-invoice endpoints. */
export function registerSalesInvoices(deps: InvoicingDeps): void {
  const { kit } = deps;
  const o = kit.serveOpts;
  serve<typeof createSalesInvoice, X>(
    kit.service,
    createSalesInvoice,
    (input, ctx) => createSalesInvoiceCommand(deps, ctx, input),
    o,
  );
  serve<typeof updateSalesInvoice, X>(
    kit.service,
    updateSalesInvoice,
    ({ id, data }, ctx) => updateSalesInvoiceCommand(deps, ctx, id, data),
    o,
  );
  serve<typeof getSalesInvoice, X>(
    kit.service,
    getSalesInvoice,
    ({ id }, ctx) => salesReads.getSalesInvoice(ctx, id),
    o,
  );
  serve<typeof listSalesInvoices, X>(
    kit.service,
    listSalesInvoices,
    (q, ctx) => salesReads.listSalesInvoices(ctx, q),
    o,
  );
  serve<typeof addPayment, X>(
    kit.service,
    addPayment,
    ({ id, data }, ctx) => addPaymentCommand(ctx, id, data),
    o,
  );
  serve<typeof cancelSalesInvoice, X>(
    kit.service,
    cancelSalesInvoice,
    ({ id }, ctx) => cancelSalesInvoiceCommand(ctx, id),
    o,
  );
  serve<typeof getSalesInvoiceCopySource, X>(
    kit.service,
    getSalesInvoiceCopySource,
    ({ id }, ctx) => salesReads.copySource(ctx, id),
    o,
  );
}
