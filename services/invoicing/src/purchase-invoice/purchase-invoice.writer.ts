/**
 * The purchase invoice's writer (DESIGN §5 "Record numbers", §6; issue #24): what a decided purchase
 * invoice (its write set, plain data) stores once its record number is known: the invoice, its rows, its
 * accounting entries and its `purchase-invoice-created` event in the outbox, as row sets the group commit
 * inserts in one statement; and the reply of what was stored. Pure, no I/O; ids are in the write set.
 */
import { type InvoiceEvent, InvoiceEventSubjects, type PurchaseInvoice } from '@bm/contracts';
import { type DocumentWriter, entryRows, oncePerWriteSet, outboxRow } from '@bm/service-kit';
import { purchaseEntries } from '../invoice-rules/index.js';
import {
  AccountingEntryEntity,
  OutboxEntity,
  PurchaseInvoiceEntity,
  PurchaseInvoiceRowEntity,
} from '../schema/entities.js';
import { type EntryRow, purchaseInvoiceReply, type Row, type RowRow } from './purchase-invoice.queries.js';

/**
 * A decided purchase invoice without its record number: `fields` its stored fields but `recordNumber`
 * (amounts as exact strings: in `currency1`, `localSum` in the company currency), `rows` its rows,
 * `posted` each row's stock flag and local amount, `inputVat` the input VAT posted (company currency;
 * '0' when the invoice is in another currency), `localTotal` the event's total (company currency).
 */
export interface PurchaseInvoiceWriteSet {
  id: string;
  companyId: string;
  eventId: string;
  fields: Record<string, unknown>;
  rows: Record<string, unknown>[];
  posted: { stockItem: boolean; amount: string }[];
  inputVat: string;
  localTotal: string;
  createdAt: Date;
}

/** Invoice `w` as stored under `recordNumber`: the invoice row and its entries. */
const storedPurchase = oncePerWriteSet((w: PurchaseInvoiceWriteSet, recordNumber: string) => {
  const inv = { id: w.id, companyId: w.companyId, ...w.fields, recordNumber, createdAt: w.createdAt };
  const entries = entryRows(w.companyId, w.id, purchaseEntries(w.posted, recordNumber, w.inputVat));
  return { inv, entries };
});

/** The rows that store purchase invoice `w` under `recordNumber` (the group commit's writer). */
export const purchaseInvoiceWriter: DocumentWriter<PurchaseInvoiceWriteSet> = (w, recordNumber) => {
  const { inv, entries } = storedPurchase(w, recordNumber);
  const event: InvoiceEvent = {
    eventId: w.eventId,
    companyId: w.companyId,
    invoiceId: w.id,
    recordNumber,
    sumTotal: w.localTotal,
  };
  return [
    { entity: PurchaseInvoiceEntity, rows: [inv] },
    { entity: PurchaseInvoiceRowEntity, rows: w.rows },
    { entity: AccountingEntryEntity, rows: entries },
    {
      entity: OutboxEntity,
      rows: [outboxRow(w.companyId, InvoiceEventSubjects.purchaseInvoiceCreated, event)],
    },
  ];
};

/** The reply of purchase invoice `w` stored under `recordNumber`, as a read of it would give. */
export function storedPurchaseInvoiceReply(
  w: PurchaseInvoiceWriteSet,
  recordNumber: string,
): PurchaseInvoice {
  const { inv, entries } = storedPurchase(w, recordNumber);
  return purchaseInvoiceReply(inv as Row, w.rows as RowRow[], entries as EntryRow[]);
}
