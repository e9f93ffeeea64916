/** E-invoice endpoints (issues #21, #23): transport only. */
import {
  findCompanyByPeppolId,
  getEInvoiceHistory,
  getSalesEInvoice,
  issueSalesEInvoice,
  pendingEInvoiceTransmissions,
  releaseHeldEInvoices,
  reportEInvoiceStatus,
  resendSalesEInvoice,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import { companyByPeppolId, pendingTransmissions } from '../e-invoice-archive/index.js';
import type { InvoicingDeps } from '../references/index.js';
import * as delivery from './e-invoice-delivery.js';
import * as sales from './sales-e-invoice.js';

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
  // Issue #23: delivery.
  serve<typeof reportEInvoiceStatus, X>(
    kit.service,
    reportEInvoiceStatus,
    ({ invoiceId, ...report }, ctx) => {
      if (!ctx.companyId)
        throw new AppError(
          ErrorKind.invalid,
          ErrorCode.BadRequest,
          'a status report names its company (Company-Id)',
        );
      return delivery.reportStatus(deps, ctx, invoiceId, report);
    },
    o,
  );
  serve<typeof getEInvoiceHistory, X>(
    kit.service,
    getEInvoiceHistory,
    ({ id }, ctx) => delivery.eInvoiceHistory(ctx, id),
    o,
  );
  serve<typeof resendSalesEInvoice, X>(
    kit.service,
    resendSalesEInvoice,
    ({ id }, ctx) => delivery.resendEInvoice(deps, ctx, id),
    o,
  );
  // Issue #43: the company's credentials work again.
  serve<typeof releaseHeldEInvoices, X>(
    kit.service,
    releaseHeldEInvoices,
    (q, ctx) => {
      if (!ctx.companyId)
        throw new AppError(
          ErrorKind.invalid,
          ErrorCode.BadRequest,
          'a release names its company (Company-Id)',
        );
      return delivery.releaseHeldEInvoices(deps, ctx, q);
    },
    o,
  );
  // The connector's look-ups across companies (its NATS user and the gateway's may send them).
  serve<typeof pendingEInvoiceTransmissions, X>(
    kit.service,
    pendingEInvoiceTransmissions,
    async ({ limit, withinHours }, ctx) => ({
      items: await pendingTransmissions(ctx.em, limit, withinHours),
    }),
    o,
  );
  serve<typeof findCompanyByPeppolId, X>(
    kit.service,
    findCompanyByPeppolId,
    async ({ peppolId }, ctx) => ({ companyId: await companyByPeppolId(ctx.em, peppolId) }),
    o,
  );
}
