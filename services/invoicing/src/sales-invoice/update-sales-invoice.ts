/**
 * The update of a sales invoice as a document kind (INTERFACE §4.3 PUT; DESIGN §6 "States"; issue #38),
 * read top to bottom: before the transaction the invoice is read and what may not change refused, the
 * new data's references resolved (NATS) and the invoice decided (pure, keeping the row ids sent back and
 * each row's price basis); declared with its new period (share-locked for the group) and the invoice as
 * its lock; in the transaction a new number checked free, the invoice locked and checked again; its
 * writer replaces its fields, rows and entries (sales-invoice.writer.ts `salesInvoiceUpdateWriter`).
 */
import type { SalesInvoice, SalesInvoiceUpdate } from '@bm/contracts';
import {
  type Ctx,
  checkGivenRecordNumber,
  type DocumentKind,
  runDocument,
  storedNumbering,
} from '@bm/service-kit';
import {
  type InvoicePeriodInfo,
  type InvoicingDeps,
  invoicePeriodsRead,
  lockInvoicePeriod,
} from '../references/index.js';
import { decideSalesInvoice, type SalesInvoiceWriteSet } from './sales-invoice.decision.js';
import { assertEditable, assertNotIssued } from './sales-invoice.guards.js';
import { getSalesInvoice } from './sales-invoice.queries.js';
import { findSalesInvoice, lockSalesInvoice, storedInvoiceRows } from './sales-invoice.reads.js';
import { resolveSalesInvoice } from './sales-invoice.resolve.js';
import { salesInvoiceUpdateWriter } from './sales-invoice.writer.js';

const TABLE = '"invoicing"."sales_invoice"';

/** An update decided before its transaction. */
export interface DecidedUpdate {
  ctx: Ctx;
  id: string;
  companyId: string;
  /** The number it keeps, or the one given instead. */
  recordNumber: string;
  /** The number given, when it differs from the stored one (checked free). */
  newNumber: string | undefined;
  periodId: string;
  periodPath: string;
  writeSet: SalesInvoiceWriteSet;
}

/** `PUT /1.6/sales/invoices/{id}` as a document kind (service-kit `runDocument`). */
export const salesInvoiceUpdateKind: DocumentKind<DecidedUpdate, void, SalesInvoiceWriteSet, SalesInvoice> = {
  key: 'invoicing:sales-invoice-change',
  declare: (u) => ({
    numbering: storedNumbering(TABLE, u.companyId, u.recordNumber),
    locks: [`sales-invoice:${u.id}`],
    info: {
      kind: 'invoice-period',
      companyId: u.companyId,
      periodId: u.periodId,
    } satisfies InvoicePeriodInfo,
    reads: [invoicePeriodsRead],
    lazySavepoint: true,
  }),
  read: async (u, doc) => {
    await checkGivenRecordNumber(doc.tx, TABLE, u.companyId, u.newNumber, u.id);
    // Checked again under the invoice's row lock, which closes the race with payments and cancelling.
    const locked = await lockSalesInvoice(doc.tx, u.id);
    await assertEditable({ ...u.ctx, em: doc.tx }, locked, 'an update');
    await assertNotIssued(doc.tx, u.id);
    await lockInvoicePeriod(doc.tx, doc, u.periodId, u.periodPath);
  },
  decide: async (u) => u.writeSet,
  writer: salesInvoiceUpdateWriter,
  // Read as stored, on a fresh unit of work (the request's holds the invoice as it was before).
  reply: (_w, _n, u) => getSalesInvoice({ ...u.ctx, em: u.ctx.em.fork() }, u.id),
};

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
  // validated (a closed period would otherwise be a 422 PeriodClosed).
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
  const given = data.recordNumber?.trim() || undefined;
  const reply = await runDocument(salesInvoiceUpdateKind, ctx.em, {
    ctx,
    id,
    companyId,
    recordNumber: given ?? inv.recordNumber,
    newNumber: given && given !== inv.recordNumber ? given : undefined,
    periodId: r.period.id,
    periodPath: data.periodId ? 'periodId' : 'dateAccounting',
    writeSet,
  });
  deps.kickOutbox();
  return reply;
}
