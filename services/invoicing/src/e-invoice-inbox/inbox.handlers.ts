/** The inbox of received e-invoices and the access-point settings (issue #35): transport only. */
import {
  bookReceivedEInvoice,
  getReceivedEInvoice,
  getReceivedEInvoiceView,
  listAccessPointSettings,
  listReceivedEInvoices,
  loadAccessPointSettings,
  receivePurchaseEInvoice,
  reportAccessPointContact,
  storeAccessPointSettings,
  storeReceivedEInvoice,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import type { InvoicingDeps } from '../references/index.js';
import * as settings from './access-point-settings.store.js';
import * as inbox from './inbox.js';
import { receivePurchaseEInvoice as receive } from './receive-purchase-e-invoice.js';

type X = { em: Ctx['em'] };

/** A request the connector sends for one company names it (Company-Id). */
function company(ctx: Ctx): Ctx {
  if (!ctx.companyId)
    throw new AppError(
      ErrorKind.invalid,
      ErrorCode.BadRequest,
      'this request names its company (Company-Id)',
    );
  return ctx;
}

export function registerInbox(deps: InvoicingDeps): void {
  const { kit } = deps;
  const o = kit.serveOpts;
  serve<typeof receivePurchaseEInvoice, X>(
    kit.service,
    receivePurchaseEInvoice,
    ({ document }, ctx) => receive(deps, ctx, document),
    o,
  );
  serve<typeof storeReceivedEInvoice, X>(
    kit.service,
    storeReceivedEInvoice,
    (input, ctx) => inbox.storeAndBook(deps, company(ctx), input),
    o,
  );
  serve<typeof listReceivedEInvoices, X>(
    kit.service,
    listReceivedEInvoices,
    (q, ctx) => inbox.listInbox(ctx, q),
    o,
  );
  serve<typeof getReceivedEInvoice, X>(
    kit.service,
    getReceivedEInvoice,
    ({ id }, ctx) => inbox.getInboxRecord(ctx, id),
    o,
  );
  serve<typeof getReceivedEInvoiceView, X>(
    kit.service,
    getReceivedEInvoiceView,
    (q, ctx) => inbox.viewReceived(ctx, q),
    o,
  );
  serve<typeof bookReceivedEInvoice, X>(
    kit.service,
    bookReceivedEInvoice,
    ({ id }, ctx) => inbox.bookAgain(deps, ctx, id),
    o,
  );
  serve<typeof loadAccessPointSettings, X>(
    kit.service,
    loadAccessPointSettings,
    (_q, ctx) => settings.loadSettings(company(ctx)),
    o,
  );
  serve<typeof storeAccessPointSettings, X>(
    kit.service,
    storeAccessPointSettings,
    (s, ctx) => settings.storeSettings(company(ctx), s),
    o,
  );
  serve<typeof reportAccessPointContact, X>(
    kit.service,
    reportAccessPointContact,
    (r, ctx) => settings.reportContact(company(ctx), r),
    o,
  );
  serve<typeof listAccessPointSettings, X>(
    kit.service,
    listAccessPointSettings,
    async ({ includeDefault }, ctx) => ({ items: await settings.listSettings(ctx.em, includeDefault) }),
    o,
  );
}
