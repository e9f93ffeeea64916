/**
 * The cancellation of a sales invoice as a document kind (INTERFACE §4.3 cancel; DESIGN §6 "States";
 * issue #38): the invoice as its lock; in the transaction the invoice locked and checked (no payment, an
 * open period) and its entries read; decided: the entries reversed; its writer marks it cancelled and
 * adds the reversal after its entries.
 */
import type { SalesInvoice } from '@bm/contracts';
import { type Ctx, type DocumentKind, entryDtos, runDocument, storedNumbering } from '@bm/service-kit';
import { reversal } from '../invoice-rules/index.js';
import { assertEditable } from './sales-invoice.guards.js';
import { getSalesInvoice } from './sales-invoice.queries.js';
import { entriesOf, findSalesInvoice, lockSalesInvoice } from './sales-invoice.reads.js';
import { type CancellationWriteSet, cancellationWriter } from './sales-invoice.writer.js';

/** The invoice to cancel. */
export interface CancelInput {
  ctx: Ctx;
  invoice: { id: string; companyId: string; recordNumber: string };
}

/** `POST /1.6/sales/invoices/{id}/cancel` as a document kind (service-kit `runDocument`). */
export const cancellationKind: DocumentKind<
  CancelInput,
  Awaited<ReturnType<typeof entriesOf>>,
  CancellationWriteSet,
  SalesInvoice
> = {
  key: 'invoicing:sales-invoice-change',
  declare: (c) => ({
    numbering: storedNumbering('"invoicing"."sales_invoice"', c.invoice.companyId, c.invoice.recordNumber),
    locks: [`sales-invoice:${c.invoice.id}`],
    lazySavepoint: true,
  }),
  read: async (c, doc) => {
    const inv = await lockSalesInvoice(doc.tx, c.invoice.id);
    await assertEditable({ ...c.ctx, em: doc.tx }, inv, 'cancelling');
    return entriesOf(doc.tx, c.invoice.id);
  },
  decide: async (c, entries) => ({
    invoiceId: c.invoice.id,
    companyId: c.invoice.companyId,
    reversal: reversal(entryDtos(entries), `Cancellation of ${c.invoice.recordNumber}`),
    firstLine: entries.length + 1,
    at: new Date(),
  }),
  writer: cancellationWriter,
  reply: (_w, _n, c) => getSalesInvoice({ ...c.ctx, em: c.ctx.em.fork() }, c.invoice.id),
};

/** `POST /1.6/sales/invoices/{id}/cancel`: only an unpaid invoice in an open period (else 409 InvalidState; 404); its entries are reversed. */
export async function cancelSalesInvoice(ctx: Ctx, id: string): Promise<SalesInvoice> {
  const inv = await findSalesInvoice(ctx.em, id);
  return runDocument(cancellationKind, ctx.em, {
    ctx,
    invoice: { id, companyId: ctx.companyId!, recordNumber: inv.recordNumber },
  });
}
