/**
 * What a new sales invoice writes once its record number is known (DESIGN §5, §6): the invoice, its rows,
 * its accounting entries and its event in the outbox, as the row sets the group commit inserts in one
 * statement. Plain data, no I/O.
 */
import type { AccountingEntry } from '@bm/contracts';
import { entryRows, type InsertPart, outboxRow } from '@bm/service-kit';
import {
  AccountingEntryEntity,
  OutboxEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
} from '../persistence/entities.js';

/**
 * The write set of new invoice `id`: `data` its stored fields (amounts in its currency as exact strings),
 * `rowData` its rows, `entryLines` its accounting entries, `event` published on `subject`.
 */
export function newInvoiceWriteSet(o: {
  id: string;
  companyId: string;
  data: Record<string, unknown>;
  state: string;
  createdAt: Date;
  rowData: Record<string, unknown>[];
  entryLines: AccountingEntry[];
  subject: string;
  event: { eventId: string };
}): { rows: InsertPart[]; invoice: unknown; entries: unknown[] } {
  const { id, companyId } = o;
  const invoice = { id, companyId, ...o.data, cancelled: false, state: o.state, createdAt: o.createdAt };
  const entries = entryRows(companyId, id, o.entryLines);
  return {
    rows: [
      { entity: SalesInvoiceEntity, rows: [invoice] },
      { entity: SalesInvoiceRowEntity, rows: o.rowData },
      { entity: AccountingEntryEntity, rows: entries },
      { entity: OutboxEntity, rows: [outboxRow(companyId, o.subject, o.event)] },
    ],
    invoice,
    entries,
  };
}
