import { type EntityManager, pgArray, type Statement } from '@bm/service-kit';

/**
 * The statement inserting rows into one table (`insert … select from unnest(…)`, one statement however
 * many rows); `withId` prepends a generated id column. Undefined when there are no rows.
 */
export function insertStatement(
  table: string,
  columns: string[],
  types: string[],
  rows: unknown[][],
  withId = true,
): Statement | undefined {
  if (!rows.length) return undefined;
  const cols = (withId ? ['id', ...columns] : columns).map((c) => `"${c}"`).join(', ');
  const sel = columns.map((_, c) => `u.c${c}`).join(', ');
  return {
    sql: `insert into "warehouse"."${table}" (${cols})
     select ${withId ? 'gen_random_uuid(), ' : ''}${sel}
       from unnest(${types.map((t) => `?::${t}[]`).join(', ')}) as u(${columns.map((_, c) => `c${c}`).join(', ')})`,
    params: columns.map((_, c) => pgArray(rows.map((r) => r[c]))),
  };
}

/** Inserts rows with one statement (see {@link insertStatement}). */
export async function insertRows(
  tx: EntityManager,
  ...args: Parameters<typeof insertStatement>
): Promise<void> {
  const st = insertStatement(...args);
  if (st) await tx.execute(st.sql, st.params);
}

/** Adds the insert of rows to `writes` (see {@link insertStatement}). */
export function pushInsert(writes: Statement[], ...args: Parameters<typeof insertStatement>): void {
  const st = insertStatement(...args);
  if (st) writes.push(st);
}
