import { dec } from '@bm/money';
import { type Ctx, type EntityManager, pgArray } from '@bm/service-kit';
import { receiptEntries } from '../domain/warehouse-accounting.js';
import { AccountingEntryEntity } from '../persistence/entities.js';
import { insertRows } from '../persistence/ledger-statements.js';
import type { PostingPlan, RevaluedDoc } from './posting-types.js';

/**
 * Rewrites the accounting entries of later receipts whose negative-stock settlement the replay changed
 * (their rows and totals never change): the settlement is read back from the replayed movements, the
 * entries are those `receiptEntries` gives for it, compared with the stored ones. Set-based.
 */
export async function reviseLaterReceipts(
  tx: EntityManager,
  ctx: Ctx,
  plan: PostingPlan,
  ids: Set<string>,
): Promise<RevaluedDoc[]> {
  if (!ids.size || !plan.warehouse.accounted) return [];
  const receipts = await tx.execute<
    { id: string; recordNumber: string; totalCost: string; periodId: string | null; settled: string }[]
  >(
    `select c."id", c."record_number" as "recordNumber", c."total_cost"::text as "totalCost", c."period_id" as "periodId",
            coalesce((select -sum(m."value") from "warehouse"."stock_movement" m
                       where m."document_id" = c."id" and m."document_type" = 'NegativeStockSettlement'), 0)::text as "settled"
       from "warehouse"."receipt_card" c where c."id" = any(?::uuid[])`,
    [pgArray([...ids])],
  );
  const stored = await tx.find(
    AccountingEntryEntity,
    { documentId: { $in: [...ids] } },
    { orderBy: { lineNo: 'asc' } },
  );
  const same = (a: { debitAccount: string; creditAccount: string; amount: string }[], b: typeof a) =>
    a.length === b.length &&
    a.every(
      (e, n) =>
        e.debitAccount === b[n].debitAccount &&
        e.creditAccount === b[n].creditAccount &&
        dec(e.amount).eq(dec(b[n].amount)),
    );
  const changed = receipts
    .map((r) => ({
      r,
      entries: receiptEntries(plan.warehouse, dec(r.totalCost), dec(r.settled), r.recordNumber),
    }))
    .filter(
      ({ r, entries }) =>
        !same(
          entries,
          stored.filter((e) => e.documentId === r.id),
        ),
    );
  if (!changed.length) return [];
  await tx.execute(`delete from "warehouse"."accounting_entry" where "document_id" = any(?::uuid[])`, [
    pgArray(changed.map(({ r }) => r.id)),
  ]);
  await insertRows(
    tx,
    'accounting_entry',
    ['company_id', 'document_id', 'line_no', 'debit_account', 'credit_account', 'amount', 'description'],
    ['uuid', 'uuid', 'int4', 'text', 'text', 'numeric', 'text'],
    changed.flatMap(({ r, entries }) =>
      entries.map((e, n) => [
        ctx.companyId!,
        r.id,
        n + 1,
        e.debitAccount,
        e.creditAccount,
        e.amount,
        e.description,
      ]),
    ),
  );
  return changed.map(({ r }) => ({
    kind: 'receipt',
    id: r.id,
    recordNumber: r.recordNumber,
    periodId: r.periodId,
  }));
}
