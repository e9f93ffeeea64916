/**
 * The new sales invoice as a document kind (INTERFACE §2.4; DESIGN §5, §6; issue #38), read top to
 * bottom: every reference resolved before the transaction (sales-invoice.resolve.ts) and the invoice
 * decided there (pure, sales-invoice.decision.ts); declared with its period (share-locked for the whole
 * group with its `begin`); in the transaction a given number checked free and the period checked open;
 * its rows written by sales-invoice.writer.ts once the group has numbered it.
 */
import type { SalesInvoice, SalesInvoiceInput } from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import {
  type Ctx,
  checkGivenRecordNumber,
  type DocumentKind,
  numberingOf,
  runDocument,
} from '@bm/service-kit';
import {
  type InvoicePeriodInfo,
  type InvoicingDeps,
  invoicePeriodsRead,
  lockInvoicePeriod,
} from '../references/index.js';
import { decideSalesInvoice, type SalesInvoiceWriteSet } from './sales-invoice.decision.js';
import { resolveSalesInvoice } from './sales-invoice.resolve.js';
import { salesInvoiceWriter, storedSalesInvoiceReply } from './sales-invoice.writer.js';

const TABLE = '"invoicing"."sales_invoice"';

/** A new sales invoice, resolved and decided before its transaction. */
export interface DecidedSalesInvoice {
  input: SalesInvoiceInput;
  companyId: string;
  ordner: { id: string; numberFormat: string };
  periodId: string;
  writeSet: SalesInvoiceWriteSet;
  /** `YYYY-MM-DD` in the company's time zone: the reply's state (due or overdue) is as of this day. */
  today: string;
}

/** `POST /1.6/sales/invoices` as a document kind (service-kit `runDocument`). */
export const salesInvoiceKind: DocumentKind<DecidedSalesInvoice, void, SalesInvoiceWriteSet, SalesInvoice> = {
  key: 'invoicing:sales-invoice',
  declare: (d) => ({
    numbering: numberingOf({
      table: TABLE,
      companyId: d.companyId,
      ordner: d.ordner,
      date: d.input.dateCreated,
      given: d.input.recordNumber,
    }),
    info: {
      kind: 'invoice-period',
      companyId: d.companyId,
      periodId: d.periodId,
    } satisfies InvoicePeriodInfo,
    reads: [invoicePeriodsRead],
    // Its work only reads and locks: no savepoint of its own.
    lazySavepoint: true,
  }),
  read: async (d, doc) => {
    await checkGivenRecordNumber(doc.tx, TABLE, d.companyId, d.input.recordNumber?.trim() || undefined);
    // Share-locked until the transaction ends (every invoice's period of the group with one statement).
    await lockInvoicePeriod(doc.tx, doc, d.periodId, d.input.periodId ? 'periodId' : 'dateAccounting');
  },
  decide: async (d) => d.writeSet,
  writer: salesInvoiceWriter,
  reply: (w, recordNumber, d) => storedSalesInvoiceReply(w, recordNumber, d.today),
};

/**
 * `POST /1.6/sales/invoices`: amounts in the company currency, 2 decimals. Errors: 400 ValidationFailed;
 * 409 DuplicateRecordNumber; 422 ReferenceNotFound, VatCodeNotValid, VatParagraphNotValid,
 * PeriodNotFound, PeriodClosed.
 */
export async function createSalesInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  input: SalesInvoiceInput,
): Promise<SalesInvoice> {
  const companyId = ctx.companyId!;
  const r = await resolveSalesInvoice(deps, ctx, input);
  const writeSet = decideSalesInvoice(input, r, { id: crypto.randomUUID(), companyId });
  const reply = await runDocument(salesInvoiceKind, ctx.em, {
    input,
    companyId,
    ordner: r.ordner,
    periodId: r.period.id,
    writeSet,
    today: todayIn(ctx.timeZone),
  });
  deps.kickOutbox();
  return reply;
}
