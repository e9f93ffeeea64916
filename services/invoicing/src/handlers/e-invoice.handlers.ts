/** E-invoice endpoints (issue #21): transport only. */
import {
  getPurchaseEInvoice,
  getSalesEInvoice,
  issueSalesEInvoice,
  receivePurchaseEInvoice,
} from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import type { InvoicingDeps } from '../application/sales-invoice.service.js';
import { receivePurchaseEInvoice as receive } from '../commands/receive-purchase-e-invoice.js';
import * as sales from '../commands/sales-e-invoice.js';
import * as purchaseReads from '../queries/purchase-invoices.js';

type X = { em: Ctx['em'] };

export function registerEInvoices(deps: InvoicingDeps): void {
  const { kit } = deps;
  const o = kit.serveOpts;
  serve<typeof getSalesEInvoice, X>(
    kit.service,
    getSalesEInvoice,
    ({ id }, ctx) => sales.getSalesEInvoice(deps, ctx, id),
    o,
  );
  serve<typeof issueSalesEInvoice, X>(
    kit.service,
    issueSalesEInvoice,
    ({ id }, ctx) => sales.issueSalesEInvoice(deps, ctx, id),
    o,
  );
  serve<typeof receivePurchaseEInvoice, X>(
    kit.service,
    receivePurchaseEInvoice,
    ({ document }, ctx) => receive(deps, ctx, document),
    o,
  );
  serve<typeof getPurchaseEInvoice, X>(
    kit.service,
    getPurchaseEInvoice,
    ({ id }, ctx) => purchaseReads.getPurchaseEInvoice(ctx, id),
    o,
  );
}
