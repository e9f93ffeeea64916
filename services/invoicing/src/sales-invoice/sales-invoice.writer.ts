/**
 * The sales invoice's writers (DESIGN §5 "Record numbers", §6; issue #24). A new invoice: the rows the
 * group commit inserts in one statement once its record number is known (the invoice, its rows, its
 * accounting entries and its event in the outbox). An update: the same through the ORM, in the update's
 * own transaction under the invoice's row lock. A payment, and a cancellation with its reversed entries.
 * And the reply of what was stored.
 */
import {
  type AccountingEntry,
  InvoiceEventSubjects,
  type InvoiceState,
  type SalesInvoice,
} from '@bm/contracts';
import {
  addEntries,
  type DocumentWriter,
  type EntityManager,
  enqueueEvent,
  entryRows,
  oncePerWriteSet,
  outboxRow,
} from '@bm/service-kit';
import {
  AccountingEntryEntity,
  OutboxEntity,
  PaymentEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
} from '../schema/entities.js';
import { numberedInvoice, type SalesInvoiceWriteSet } from './sales-invoice.decision.js';
import { salesInvoiceReply } from './sales-invoice.queries.js';

type InvoiceRow = InstanceType<typeof SalesInvoiceEntity.class>;
type RowRow = InstanceType<typeof SalesInvoiceRowEntity.class>;
type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

const subjectOf = (w: SalesInvoiceWriteSet) =>
  w.change === 'created'
    ? InvoiceEventSubjects.salesInvoiceCreated
    : InvoiceEventSubjects.salesInvoiceUpdated;

/** New invoice `w` as stored under `recordNumber`: the invoice row and its entries. */
const storedNew = oncePerWriteSet((w: SalesInvoiceWriteSet, recordNumber: string) => {
  const n = numberedInvoice(w, recordNumber);
  const invoice = { id: w.id, companyId: w.companyId, ...n.fields, cancelled: false, createdAt: w.createdAt };
  return { n, invoice, entries: entryRows(w.companyId, w.id, n.entryLines) };
});

/** The rows that store new invoice `w` under `recordNumber` (the group commit's writer of sales invoices). */
export const salesInvoiceWriter: DocumentWriter<SalesInvoiceWriteSet> = (w, recordNumber) => {
  const { n, invoice, entries } = storedNew(w, recordNumber);
  return [
    { entity: SalesInvoiceEntity, rows: [invoice] },
    { entity: SalesInvoiceRowEntity, rows: w.rows },
    { entity: AccountingEntryEntity, rows: entries },
    { entity: OutboxEntity, rows: [outboxRow(w.companyId, subjectOf(w), n.event)] },
  ];
};

/**
 * Writes update `w` of the locked invoice `inv` under `recordNumber` (kept or newly given): fields, rows
 * and entries replaced, `sales-invoice-updated` enqueued; flushed with the update's transaction.
 */
export async function writeInvoiceUpdate(
  tx: EntityManager,
  inv: InvoiceRow,
  w: SalesInvoiceWriteSet,
  recordNumber: string,
): Promise<{ inv: InvoiceRow; rows: RowRow[]; entries: EntryRow[] }> {
  await tx.nativeDelete(SalesInvoiceRowEntity, { invoiceId: inv.id });
  await tx.nativeDelete(AccountingEntryEntity, { documentId: inv.id });
  const n = numberedInvoice(w, recordNumber);
  tx.assign(inv, n.fields);
  const rows = w.rows.map((d) => tx.create(SalesInvoiceRowEntity, d as any));
  const entries = addEntries(tx, AccountingEntryEntity, w.companyId, inv.id, n.entryLines);
  enqueueEvent(tx, OutboxEntity, w.companyId, subjectOf(w), n.event);
  return { inv, rows, entries };
}

/** The reply of new invoice `w` stored under `recordNumber` (no payments yet; state as of `today`). */
export function storedSalesInvoiceReply(
  w: SalesInvoiceWriteSet,
  recordNumber: string,
  today: string,
): SalesInvoice {
  const { invoice, entries } = storedNew(w, recordNumber);
  return salesInvoiceReply(invoice as InvoiceRow, w.rows as RowRow[], [], entries as EntryRow[], today);
}

/** Records payment `p` (amount in the invoice's currency, date `YYYY-MM-DD`) of the locked `inv`, now in `state`. */
export function writePayment(
  tx: EntityManager,
  inv: InvoiceRow,
  p: { id: string; companyId: string; amount: string; date: string },
  state: InvoiceState,
): void {
  tx.create(PaymentEntity, { ...p, invoiceId: inv.id, createdAt: new Date() });
  inv.state = state;
}

/** Cancels the locked `inv`: state `cancelled`, and `reversal` added after its `lines` entries. */
export function writeCancellation(
  tx: EntityManager,
  inv: InvoiceRow,
  reversal: AccountingEntry[],
  lines: number,
): void {
  inv.cancelled = true;
  inv.state = 'cancelled';
  inv.updatedAt = new Date();
  addEntries(tx, AccountingEntryEntity, inv.companyId, inv.id, reversal, lines + 1);
}
