/** Purchase-invoice endpoints (INTERFACE §4.2; the received e-invoice of one, issue #21): transport only. */
import {
  createPurchaseInvoice,
  getPurchaseEInvoice,
  getPurchaseInvoice,
  listPurchaseInvoices,
} from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import type { InvoicingDeps } from '../references/index.js';
import * as purchase from './purchase-invoice.kind.js';
import * as purchaseReads from './purchase-invoice.queries.js';

type X = { em: Ctx['em'] };

/** Registers the purchase-invoice endpoints. */
export function registerPurchaseInvoices(deps: InvoicingDeps): void {
  const { kit } = deps;
  const o = kit.serveOpts;
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
  serve<typeof getPurchaseEInvoice, X>(
    kit.service,
    getPurchaseEInvoice,
    ({ id }, ctx) => purchaseReads.getPurchaseEInvoice(ctx, id),
    o,
  );
}
