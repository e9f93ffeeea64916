/**
 * What a repost changes in later issue cards (DESIGN §5 "Repost"): rows per cost price anew, total cost,
 * accounting entries and a `stock-revalued` event per card.
 */
import { EventSubjects, type StockRevaluedEvent } from '@bm/contracts';
import { dec, fmt, sum } from '@bm/money';
import { type Ctx, type EntityManager, enqueueEvent, pgArray } from '@bm/service-kit';
import { type IssuedPiece, samePieces } from '../domain/ledger-replay.js';
import { issueEntries } from '../domain/warehouse-accounting.js';
import { OutboxEntity } from '../persistence/entities.js';
import { insertRows } from '../persistence/ledger-statements.js';
import type { PostingPlan, RevaluedDoc, StoredIssueRow } from './posting-types.js';

/**
 * Rewrites the later issue cards whose rows the repost changed: rows per cost price anew (ids kept where
 * the cost is unchanged), totalCost, accounting entries, and a `stock-revalued` event. Set-based: a fixed
 * number of statements however many cards changed. Returns the changed cards.
 */
export async function reviseLaterIssueCards(
  tx: EntityManager,
  ctx: Ctx,
  plan: PostingPlan,
  repostedLines: Map<string, Map<number, IssuedPiece[]>>,
): Promise<RevaluedDoc[]> {
  const companyId = ctx.companyId!;
  const { warehouse } = plan;
  const stored = (r: StoredIssueRow): IssuedPiece => ({
    quantity: dec(r.quantity),
    costPrice: dec(r.costPrice),
    amount: dec(r.amount),
    takes: [],
  });
  const changed = [...repostedLines].filter(([cardId, lines]) => {
    const rows = plan.laterIssueRows.get(cardId)!;
    return [...lines].some(
      ([line, pieces]) => !samePieces(rows.filter((r) => r.lineNo === line).map(stored), pieces),
    );
  });
  if (!changed.length) return [];
  const cards = new Map(
    (
      await tx.execute<
        {
          id: string;
          recordNumber: string;
          totalCost: string;
          dateOperation: string;
          periodId: string | null;
        }[]
      >(
        `select "id", "record_number" as "recordNumber", "total_cost"::text as "totalCost",
                to_char("date_operation", 'YYYY-MM-DD') as "dateOperation", "period_id" as "periodId"
           from "warehouse"."issue_card" where "id" = any(?::uuid[])`,
        [pgArray(changed.map(([id]) => id))],
      )
    ).map((c) => [c.id, c]),
  );
  const removed: string[] = [];
  const kept: StoredIssueRow[] = [];
  const added: StoredIssueRow[] = [];
  const totals: [string, string][] = [];
  const entries: unknown[][] = [];
  const out: RevaluedDoc[] = [];
  for (const [cardId, lines] of changed) {
    const card = cards.get(cardId)!;
    const old = plan.laterIssueRows.get(cardId)!;
    const next: StoredIssueRow[] = [];
    const used = new Set<string>();
    for (const line of [...new Set(old.map((r) => r.lineNo))].sort((a, b) => a - b)) {
      const before = old.filter((r) => r.lineNo === line).sort((a, b) => a.rowNo - b.rowNo);
      const pieces = lines.get(line);
      if (!pieces) {
        for (const r of before) used.add(r.id);
        next.push(...before.map((r) => ({ ...r })));
        continue;
      }
      for (const p of pieces) {
        // A row whose cost does not change keeps its id (DESIGN §5 "Repost").
        const same = before.find((r) => !used.has(r.id) && dec(r.costPrice).eq(p.costPrice));
        if (same) used.add(same.id);
        next.push({
          ...(same ?? { ...before[0], id: crypto.randomUUID() }),
          quantity: fmt(p.quantity),
          costPrice: fmt(p.costPrice),
          amount: fmt(p.amount),
        });
      }
    }
    for (const r of old) if (!used.has(r.id)) removed.push(r.id);
    next.forEach((r, i) => {
      r.rowNo = i + 1;
      (old.some((o) => o.id === r.id) ? kept : added).push(r);
    });
    plan.laterIssueRows.set(cardId, next);
    const total = sum(next.map((r) => r.amount));
    totals.push([cardId, fmt(total)]);
    for (const [i, e] of issueEntries(warehouse, total, card.recordNumber).entries())
      entries.push([companyId, cardId, i + 1, e.debitAccount, e.creditAccount, e.amount, e.description]);
    const event: StockRevaluedEvent = {
      eventId: crypto.randomUUID(),
      companyId,
      issueCardId: cardId,
      recordNumber: card.recordNumber,
      warehouseId: warehouse.id,
      dateOperation: card.dateOperation,
      causedBy: plan.doc.docId,
      totalCostBefore: fmt(card.totalCost),
      totalCostAfter: fmt(total),
      rows: next.map((r) => ({
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        quantity: fmt(r.quantity),
        costPrice: fmt(r.costPrice),
        amount: fmt(r.amount),
      })),
    };
    enqueueEvent(tx, OutboxEntity, companyId, EventSubjects.stockRevalued, event);
    out.push({ kind: 'issue', id: cardId, recordNumber: card.recordNumber, periodId: card.periodId });
  }
  const ids = changed.map(([id]) => id);
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
    [pgArray(totals.map((t) => t[0])), pgArray(totals.map((t) => t[1]))],
  );
  await tx.execute(`delete from "warehouse"."accounting_entry" where "document_id" = any(?::uuid[])`, [
    pgArray(ids),
  ]);
  await insertRows(
    tx,
    'accounting_entry',
    ['company_id', 'document_id', 'line_no', 'debit_account', 'credit_account', 'amount', 'description'],
    ['uuid', 'uuid', 'int4', 'text', 'text', 'numeric', 'text'],
    entries,
  );
  return out;
}
