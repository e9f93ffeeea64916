/**
 * The warehouse's copy of the accounting periods' state (DESIGN §5 "Period"): share-locked by every card
 * in its own transaction, closed under an exclusive lock when invoicing closes the period. ORM code only.
 *
 * The lock is a transaction-scoped advisory lock keyed by the period id, not `SELECT … FOR SHARE`: row
 * share locks let new share lockers join ahead of a waiting updater, so under a steady stream of cards a
 * close could wait indefinitely; the advisory lock queues fairly (a card arriving after the close waits
 * behind it and then sees the period closed).
 */
import { ErrorCode, unprocessable } from '@bm/errors';
import { type EntityManager, pgArray, type Statement } from '@bm/service-kit';

/** 422 PeriodClosed: the card's period was closed while the card was being stored. */
export const periodClosedMeanwhile = (path = 'dateAccounting') =>
  unprocessable(ErrorCode.PeriodClosed, 'the period was closed while the card was being stored', {
    errors: [{ path, message: 'the period is closed' }],
  });

/**
 * Inside a group commit of cards (issue #24): the statements that share-lock the periods of all its cards
 * (one statement, in the order of their ids) and then read which of them the warehouse's copy knows as
 * closed (a statement of its own, so its snapshot is taken once the locks are held). The group sends them
 * with its `begin` (`GroupRead`); {@link closedOf} reads their rows.
 */
export function periodStatesStatements(periods: { companyId: string; periodId: string }[]): Statement[] {
  const ids = [...new Map(periods.map((p) => [p.periodId, p])).values()].sort((a, b) =>
    a.periodId < b.periodId ? -1 : 1,
  );
  if (!ids.length) return [];
  return [
    {
      sql: `select pg_advisory_xact_lock_shared(hashtextextended(p, 0)) from unnest(?::text[]) as p`,
      params: [pgArray(ids.map((p) => p.periodId))],
    },
    {
      sql: `select "id" from "warehouse"."period_state"
             where "closed" and ("company_id", "id") in (select * from unnest(?::uuid[], ?::uuid[]))`,
      params: [pgArray(ids.map((p) => p.companyId)), pgArray(ids.map((p) => p.periodId))],
    },
  ];
}

/** The closed periods' ids from the rows of {@link periodStatesStatements}; each card refuses itself when its own is among them ({@link periodClosedMeanwhile}). */
export const closedOf = (rows: unknown[][]): Set<string> =>
  new Set(((rows[1] ?? []) as { id: string }[]).map((r) => r.id));

/**
 * Which of `periodIds` the warehouse's copy knows as closed, share-locked like a card's own period (a
 * repost must not revalue a card in a closed period). Returns the closed ones and the ids the copy has no
 * row for (never closed: invoicing closes a period only after this copy).
 */
export async function closedPeriodStates(
  tx: EntityManager,
  companyId: string,
  periodIds: string[],
): Promise<{ closed: Set<string>; unknown: string[] }> {
  for (const id of [...periodIds].sort())
    await tx.execute(`select pg_advisory_xact_lock_shared(hashtextextended(?, 0))`, [id]);
  const rows = await tx.execute<{ id: string; closed: boolean }[]>(
    `select "id", "closed" from "warehouse"."period_state" where "company_id" = ? and "id" = any(?::uuid[])`,
    [companyId, `{${periodIds.map((id) => `"${id}"`).join(',')}}`],
  );
  const known = new Set(rows.map((r) => r.id));
  return {
    closed: new Set(rows.filter((r) => r.closed).map((r) => r.id)),
    unknown: periodIds.filter((id) => !known.has(id)),
  };
}

/**
 * Closes the warehouse's copy of a period (invoicing's close calls this before it commits). The exclusive
 * lock waits for every card holding the share lock; cards arriving meanwhile wait behind it.
 */
export async function closePeriodState(
  em: EntityManager,
  companyId: string,
  periodId: string,
): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [periodId]);
    await tx.execute(
      `insert into "warehouse"."period_state" ("id", "company_id", "closed") values (?, ?, true)
       on conflict ("id") do update set "closed" = true`,
      [periodId, companyId],
    );
  });
}
