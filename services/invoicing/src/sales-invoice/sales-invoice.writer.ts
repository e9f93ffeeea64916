/**
 * The sales invoice's writers (DESIGN §5 "Record numbers", §6; issues #24, #38), one per document kind:
 * a new invoice (the invoice, its rows, its accounting entries and its event in the outbox, inserted by
 * the group commit once its record number is known); an update (its fields set, rows and entries
 * replaced); a payment; a cancellation with its reversed entries. And the reply of a new invoice.
 */
import {
  type AccountingEntry,
  InvoiceEventSubjects,
  type InvoiceState,
  type SalesInvoice,
} from '@bm/contracts';
import { type DocumentWriter, entryRows, oncePerWriteSet, outboxRow } from '@bm/service-kit';
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
 * The rows that replace invoice `w` under `recordNumber` (kept or newly given; the update kind's writer):
 * its fields set, its rows and entries replaced, `sales-invoice-updated` in the outbox.
 */
export const salesInvoiceUpdateWriter: DocumentWriter<SalesInvoiceWriteSet> = (w, recordNumber) => {
  const { n, entries } = storedNew(w, recordNumber);
  return [
    { entity: SalesInvoiceRowEntity, where: { invoiceId: w.id } },
    { entity: AccountingEntryEntity, where: { documentId: w.id } },
    { entity: SalesInvoiceEntity, where: { id: w.id }, set: n.fields },
    { entity: SalesInvoiceRowEntity, rows: w.rows },
    { entity: AccountingEntryEntity, rows: entries },
    { entity: OutboxEntity, rows: [outboxRow(w.companyId, subjectOf(w), n.event)] },
  ];
};

/** The reply of new invoice `w` stored under `recordNumber` (no payments yet; state as of `today`). */
export function storedSalesInvoiceReply(
  w: SalesInvoiceWriteSet,
  recordNumber: string,
  today: string,
): SalesInvoice {
  const { invoice, entries } = storedNew(w, recordNumber);
  return salesInvoiceReply(invoice as InvoiceRow, w.rows as RowRow[], [], entries as EntryRow[], today);
}

/** A decided payment: the payment row (amount in the invoice's currency, date `YYYY-MM-DD`) and the invoice's new state. */
export interface PaymentWriteSet {
  invoiceId: string;
  payment: { id: string; companyId: string; amount: string; date: string };
  state: InvoiceState;
}

/** The payment's row and the invoice's new state (the payment kind's writer). */
export const paymentWriter: DocumentWriter<PaymentWriteSet> = (w) => [
  { entity: SalesInvoiceEntity, where: { id: w.invoiceId }, set: { state: w.state } },
  { entity: PaymentEntity, rows: [{ ...w.payment, invoiceId: w.invoiceId, createdAt: new Date() }] },
];

/** A decided cancellation: the reversed entries, numbered from `firstLine` after the invoice's own. */
export interface CancellationWriteSet {
  invoiceId: string;
  companyId: string;
  reversal: AccountingEntry[];
  firstLine: number;
  at: Date;
}

/** The invoice cancelled and its entries reversed (the cancellation kind's writer). */
export const cancellationWriter: DocumentWriter<CancellationWriteSet> = (w) => [
  {
    entity: SalesInvoiceEntity,
    where: { id: w.invoiceId },
    set: { cancelled: true, state: 'cancelled', updatedAt: w.at },
  },
  { entity: AccountingEntryEntity, rows: entryRows(w.companyId, w.invoiceId, w.reversal, w.firstLine) },
];
