/**
 * Writes what a repost revised in later documents (DESIGN §5 "Repost"; the revisions are decided in
 * rules/repost-revision.ts): issue card rows removed, renumbered and added, totals, accounting entries
 * replaced, `stock-revalued` events enqueued; later receipts' entries replaced. Set-based: a fixed number
 * of statements however many documents changed.
 */
import { type AccountingEntry, EventSubjects } from '@bm/contracts';
import { type EntityManager, enqueueEvent, pgArray } from '@bm/service-kit';
import { OutboxEntity } from '../schema/entities.js';
import { insertRows } from './ledger-statements.js';
import type { IssueCardRevision } from './rules/repost-revision.js';

/** Replaces the accounting entries of documents `entries` (by document id), lines numbered from 1. */
async function replaceEntries(tx: EntityManager, companyId: string, entries: Map<string, AccountingEntry[]>) {
  await tx.execute(`delete from "warehouse"."accounting_entry" where "document_id" = any(?::uuid[])`, [
    pgArray([...entries.keys()]),
  ]);
  await insertRows(
    tx,
    'accounting_entry',
    ['company_id', 'document_id', 'line_no', 'debit_account', 'credit_account', 'amount', 'description'],
    ['uuid', 'uuid', 'int4', 'text', 'text', 'numeric', 'text'],
    [...entries].flatMap(([documentId, list]) =>
      list.map((e, n) => [
        companyId,
        documentId,
        n + 1,
        e.debitAccount,
        e.creditAccount,
        e.amount,
        e.description,
      ]),
    ),
  );
}

/** Stores the revisions of issue cards (by card id) of company `companyId`. */
export async function writeIssueCardRevisions(
  tx: EntityManager,
  companyId: string,
  revisions: Map<string, IssueCardRevision>,
): Promise<void> {
  if (!revisions.size) return;
  const all = [...revisions.values()];
  const removed = all.flatMap((r) => r.removed);
  const kept = all.flatMap((r) => r.kept);
  const added = all.flatMap((r) => r.added);
  if (removed.length)
    await tx.execute(`delete from "warehouse"."issue_card_row" where "id" = any(?::uuid[])`, [
      pgArray(removed),
    ]);
  if (kept.length)
    await tx.execute(
      `update "warehouse"."issue_card_row" r set "row_no" = u.n, "quantity" = u.q, "cost_price" = u.c, "amount" = u.a
         from unnest(?::uuid[], ?::int[], ?::numeric[], ?::numeric[], ?::numeric[]) as u(id, n, q, c, a) where r."id" = u.id`,
      [
        pgArray(kept.map((r) => r.id)),
        pgArray(kept.map((r) => r.rowNo)),
        pgArray(kept.map((r) => r.quantity)),
        pgArray(kept.map((r) => r.costPrice)),
        pgArray(kept.map((r) => r.amount)),
      ],
    );
  await insertRows(
    tx,
    'issue_card_row',
    [
      'id',
      'company_id',
      'issue_card_id',
      'row_no',
      'line_no',
      'item_id',
      'code',
      'name',
      'unit_id',
      'lot_number_id',
      'quantity',
      'sell_price',
      'cost_price',
      'amount',
    ],
    [
      'uuid',
      'uuid',
      'uuid',
      'int4',
      'int4',
      'uuid',
      'text',
      'text',
      'uuid',
      'uuid',
      'numeric',
      'numeric',
      'numeric',
      'numeric',
    ],
    added.map((r) => [
      r.id,
      companyId,
      r.issueCardId,
      r.rowNo,
      r.lineNo,
      r.itemId,
      r.code,
      r.name,
      r.unitId,
      r.lotNumberId,
      r.quantity,
      r.sellPrice,
      r.costPrice,
      r.amount,
    ]),
    false,
  );
  await tx.execute(
    `update "warehouse"."issue_card" c set "total_cost" = u.t from unnest(?::uuid[], ?::numeric[]) as u(id, t) where c."id" = u.id`,
    [pgArray([...revisions.keys()]), pgArray(all.map((r) => r.totalCost))],
  );
  await replaceEntries(tx, companyId, new Map([...revisions].map(([id, r]) => [id, r.entries])));
  for (const r of all) enqueueEvent(tx, OutboxEntity, companyId, EventSubjects.stockRevalued, r.event);
}

/** Replaces the entries of later receipts (by receipt id) of company `companyId`. */
export async function writeReceiptRevisions(
  tx: EntityManager,
  companyId: string,
  entries: Map<string, AccountingEntry[]>,
): Promise<void> {
  if (entries.size) await replaceEntries(tx, companyId, entries);
}
