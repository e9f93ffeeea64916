/**
 * The create-sales-invoice command (INTERFACE §2.4; DESIGN §5, §6), one forward pass: resolve every
 * reference (NATS before any transaction, resolve-sales-invoice.ts), decide the invoice (pure,
 * domain/sales-invoice-decision.ts), then in the sales invoices' group commit check a given number and
 * share-lock the period, and hand the write set and its writer (store/sales-invoice.writer.ts) to the
 * group, which numbers the invoice and inserts it with the group's other documents; the reply from what
 * was stored.
 */
import type { SalesInvoice, SalesInvoiceInput } from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import { type Ctx, checkGivenRecordNumber, groupCommit, numberingOf } from '@bm/service-kit';
import type { InvoicingDeps } from '../references/index.js';
import { type InvoicePeriodInfo, invoicePeriodsRead, lockInvoicePeriod } from '../references/index.js';
import { decideSalesInvoice } from './sales-invoice.decision.js';
import { resolveSalesInvoice } from './sales-invoice.resolve.js';
import { salesInvoiceWriter, storedSalesInvoiceReply } from './sales-invoice.writer.js';

const TABLE = '"invoicing"."sales_invoice"';

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
  const given = input.recordNumber?.trim() || undefined;
  // New invoices (of any companies and ordners) arriving together share one transaction (issue #13); an
  // invoice's work only reads and locks, so it needs no savepoint of its own.
  const stored = await groupCommit(
    'invoicing:sales-invoice',
    ctx.em,
    async (g) => {
      await checkGivenRecordNumber(g.tx, TABLE, companyId, given);
      // Share-locked until the transaction ends (every invoice's period of the group with one statement).
      await lockInvoicePeriod(g.tx, g, r.period.id, input.periodId ? 'periodId' : 'dateAccounting');
      // Numbered with the group after every invoice's work (DESIGN §5, §6); a given number is stored at once.
      return { writeSet, writer: salesInvoiceWriter };
    },
    {
      numbering: numberingOf({ table: TABLE, companyId, ordner: r.ordner, date: input.dateCreated, given }),
      lazySavepoint: true,
      info: { kind: 'invoice-period', companyId, periodId: r.period.id } satisfies InvoicePeriodInfo,
      reads: [invoicePeriodsRead],
    },
  );
  deps.kickOutbox();
  return storedSalesInvoiceReply(stored.writeSet, stored.recordNumber, todayIn(ctx.timeZone));
}
