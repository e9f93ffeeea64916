/**
 * Storing a new issue card in one statement (issue #13: the profile showed statements sent one by one and
 * the ORM's unit of work as the write path's main costs): the card, its rows, its accounting entries and
 * its outbox event are inserted by one `insert … ; with … insert … select from unnest(…)` chain, one round
 * trip however many rows. SQL only; the caller has valued the card and taken its record number.
 */
import type { EntityManager } from '@bm/service-kit';
import { pgArray } from './sql.js';

/** The card's own columns, as stored. Amounts and quantities are decimal strings; dates `YYYY-MM-DD`. */
export interface NewIssueCard {
  id: string;
  companyId: string;
  ordnerId: string;
  warehouseId: string;
  partnerId: string;
  recordNumber: string;
  tags: string[];
  partnerAddress: string | null;
  dateCreated: string;
  dateAccounting: string;
  dateOperation: string;
  periodId: string | null;
  itemsComment: string | null;
  reportId: string | null;
  totalCost: string;
  sourceId: string | null;
  sourceType: string | null;
  createdAt: Date;
}

/** One stored row of a card (`rowNo` from 1; `lineNo` the input line it was valued from). */
export interface NewIssueCardRow {
  id: string;
  rowNo: number;
  lineNo: number;
  itemId: string;
  code: string | null;
  name: string | null;
  unitId: string | null;
  lotNumberId: string | null;
  quantity: string;
  sellPrice: string;
  costPrice: string;
  amount: string;
}

/** One accounting entry of the card (`lineNo` from 1). */
export interface NewEntry {
  id: string;
  lineNo: number;
  debitAccount: string;
  creditAccount: string;
  amount: string;
  description: string;
}

/** Inserts the card, its rows, its entries and its outbox event in one statement. */
export async function insertIssueCard(
  tx: EntityManager,
  card: NewIssueCard,
  rows: NewIssueCardRow[],
  entries: NewEntry[],
  event: { id: string; subject: string; payload: unknown },
): Promise<void> {
  const col = <T>(xs: T[], f: (x: T) => unknown) => pgArray(xs.map(f));
  await tx.execute(
    `with card as (
       insert into "warehouse"."issue_card" ("id", "company_id", "ordner_id", "warehouse_id", "partner_id",
         "record_number", "tags", "partner_address", "date_created", "date_accounting", "date_operation",
         "period_id", "items_comment", "report_id", "total_cost", "source_id", "source_type", "created_at")
       values (?, ?, ?, ?, ?, ?, ?::text[], ?, ?::date, ?::date, ?::date, ?, ?, ?, ?::numeric, ?, ?, ?)
     ), card_rows as (
       insert into "warehouse"."issue_card_row" ("id", "company_id", "issue_card_id", "row_no", "line_no",
         "item_id", "code", "name", "unit_id", "lot_number_id", "quantity", "sell_price", "cost_price", "amount")
       select u.id, ?::uuid, ?::uuid, u.row_no, u.line_no, u.item_id, u.code, u.name, u.unit_id, u.lot_number_id,
              u.quantity, u.sell_price, u.cost_price, u.amount
         from unnest(?::uuid[], ?::int[], ?::int[], ?::uuid[], ?::text[], ?::text[], ?::uuid[], ?::uuid[],
                     ?::numeric[], ?::numeric[], ?::numeric[], ?::numeric[])
           as u(id, row_no, line_no, item_id, code, name, unit_id, lot_number_id, quantity, sell_price, cost_price, amount)
     ), card_entries as (
       insert into "warehouse"."accounting_entry" ("id", "company_id", "document_id", "line_no", "debit_account",
         "credit_account", "amount", "description")
       select u.id, ?::uuid, ?::uuid, u.line_no, u.debit, u.credit, u.amount, u.description
         from unnest(?::uuid[], ?::int[], ?::text[], ?::text[], ?::numeric[], ?::text[])
           as u(id, line_no, debit, credit, amount, description)
     )
     insert into "warehouse"."outbox" ("id", "company_id", "subject", "payload", "created_at", "published_at", "attempts")
     values (?, ?, ?, ?::jsonb, ?, null, 0)`,
    [
      card.id,
      card.companyId,
      card.ordnerId,
      card.warehouseId,
      card.partnerId,
      card.recordNumber,
      pgArray(card.tags),
      card.partnerAddress,
      card.dateCreated,
      card.dateAccounting,
      card.dateOperation,
      card.periodId,
      card.itemsComment,
      card.reportId,
      card.totalCost,
      card.sourceId,
      card.sourceType,
      card.createdAt,
      card.companyId,
      card.id,
      col(rows, (r) => r.id),
      col(rows, (r) => r.rowNo),
      col(rows, (r) => r.lineNo),
      col(rows, (r) => r.itemId),
      col(rows, (r) => r.code),
      col(rows, (r) => r.name),
      col(rows, (r) => r.unitId),
      col(rows, (r) => r.lotNumberId),
      col(rows, (r) => r.quantity),
      col(rows, (r) => r.sellPrice),
      col(rows, (r) => r.costPrice),
      col(rows, (r) => r.amount),
      card.companyId,
      card.id,
      col(entries, (e) => e.id),
      col(entries, (e) => e.lineNo),
      col(entries, (e) => e.debitAccount),
      col(entries, (e) => e.creditAccount),
      col(entries, (e) => e.amount),
      col(entries, (e) => e.description),
      event.id,
      card.companyId,
      event.subject,
      JSON.stringify(event.payload),
      card.createdAt,
    ],
  );
}
