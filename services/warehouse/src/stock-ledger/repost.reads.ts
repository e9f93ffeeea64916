/**
 * What a repost reads of the later documents it revises (DESIGN §5 "Repost"): the headers of the issue
 * cards whose cost changed, and the later receipts with the settlement their replayed movements now give
 * and their stored entries. Set-based: one statement per kind however many documents. Read inside the
 * posting's transaction, after the replayed movements are written.
 */
import { type EntityManager, pgArray } from '@bm/service-kit';
import { AccountingEntryEntity } from '../schema/entities.js';

/** An issue card's header as a repost revises it (`totalCost` EUR, `dateOperation` `YYYY-MM-DD`). */
export interface RevisedCardHeader {
  id: string;
  recordNumber: string;
  totalCost: string;
  dateOperation: string;
  periodId: string | null;
  /** Its reversal (storno, issue #38): a reversed card may not be revalued. */
  reversalId: string | null;
}

/** The headers of issue cards `ids`, by id. */
export async function issueCardHeaders(
  tx: EntityManager,
  ids: string[],
): Promise<Map<string, RevisedCardHeader>> {
  const rows = await tx.execute<RevisedCardHeader[]>(
    `select "id", "record_number" as "recordNumber", "total_cost"::text as "totalCost",
            to_char("date_operation", 'YYYY-MM-DD') as "dateOperation", "period_id" as "periodId",
            "reversal_id" as "reversalId"
       from "warehouse"."issue_card" where "id" = any(?::uuid[])`,
    [pgArray(ids)],
  );
  return new Map(rows.map((c) => [c.id, c]));
}

/** A later receipt: its header, the settlement its movements give now (EUR), and its stored entries. */
export interface LaterReceipt {
  id: string;
  recordNumber: string;
  totalCost: string;
  periodId: string | null;
  settled: string;
  entries: { debitAccount: string; creditAccount: string; amount: string }[];
}

/** Receipts `ids` with their settlement (from the `NegativeStockSettlement` movements) and entries. */
export async function laterReceipts(tx: EntityManager, ids: string[]): Promise<LaterReceipt[]> {
  const receipts = await tx.execute<Omit<LaterReceipt, 'entries'>[]>(
    `select c."id", c."record_number" as "recordNumber", c."total_cost"::text as "totalCost", c."period_id" as "periodId",
            coalesce((select -sum(m."value") from "warehouse"."stock_movement" m
                       where m."document_id" = c."id" and m."document_type" = 'NegativeStockSettlement'), 0)::text as "settled"
       from "warehouse"."receipt_card" c where c."id" = any(?::uuid[])`,
    [pgArray(ids)],
  );
  const stored = await tx.find(
    AccountingEntryEntity,
    { documentId: { $in: ids } },
    { orderBy: { lineNo: 'asc' } },
  );
  return receipts.map((r) => ({ ...r, entries: stored.filter((e) => e.documentId === r.id) }));
}
