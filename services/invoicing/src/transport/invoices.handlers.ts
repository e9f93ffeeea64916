/** Purchase- and sales-invoice endpoints (INTERFACE §4.2, §4.3): transport only. */
import {
  addPayment,
  cancelSalesInvoice,
  createPurchaseInvoice,
  createSalesInvoice,
  getPurchaseInvoice,
  getSalesInvoice,
  getSalesInvoiceCopySource,
  listPurchaseInvoices,
  listSalesInvoices,
  updateSalesInvoice,
} from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import { addPayment as addPaymentCommand } from '../commands/add-payment.js';
import { cancelSalesInvoice as cancelSalesInvoiceCommand } from '../commands/cancel-sales-invoice.js';
import * as purchase from '../commands/create-purchase-invoice.js';
import { createSalesInvoice as createSalesInvoiceCommand } from '../commands/create-sales-invoice.js';
import type { InvoicingDeps } from '../commands/deps.js';
import { updateSalesInvoice as updateSalesInvoiceCommand } from '../commands/update-sales-invoice.js';
import * as purchaseReads from '../queries/purchase-invoices.js';
import * as salesReads from '../queries/sales-invoices.js';

type X = { em: Ctx['em'] };

export function registerInvoices(deps: InvoicingDeps): void {
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
  serve<typeof createPurchaseInvoice, X>(
    kit.service,
    createPurchaseInvoice,
    (input, ctx) => purchase.createPurchaseInvoice(deps, ctx, input),
    o,
  );
  serve<typeof getPurchaseInvoice, X>(
    kit.service,
    getPurchaseInvoice,
    ({ id }, ctx) => purchaseReads.getPurchaseInvoice(ctx, id),
    o,
  );
  serve<typeof listPurchaseInvoices, X>(
    kit.service,
    listPurchaseInvoices,
    (q, ctx) => purchaseReads.listPurchaseInvoices(ctx, q),
    o,
  );
}
