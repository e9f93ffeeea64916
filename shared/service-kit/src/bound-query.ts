/**
 * Statements sent with bind parameters (issue #24). `em.execute` of the ORM inlines every `?` value into
 * the SQL text, so PostgreSQL parses and plans each statement anew and the process spends time quoting;
 * {@link execBound} numbers the placeholders (`$1`, `$2`, …) and sends the values apart, on the
 * EntityManager's transaction (or a pooled connection outside one). With prepared-statements.ts the text,
 * the same for every document, is then parsed and planned once per connection.
 *
 * Errors are the driver's (`code` is the SQLSTATE), which `mapDbError` maps as before.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';

interface Executor {
  executeQuery<R>(q: CompiledQuery<R>): Promise<{ rows: R[]; numAffectedRows?: bigint }>;
}

/**
 * `sql` with each `?` outside quotes and comments replaced by `$n` (1-based, in order); `??` stays a
 * literal `?`. Cached per text: the hot statements are a handful of fixed texts.
 */
const numberedCache = new Map<string, string>();
export function numberPlaceholders(sql: string): string {
  const hit = numberedCache.get(sql);
  if (hit !== undefined) return hit;
  let out = '';
  let n = 0;
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      out += ch;
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?' && sql[i + 1] === '?') {
      out += '?';
      i++;
    } else if (ch === '?') out += `$${++n}`;
    else out += ch;
  }
  if (numberedCache.size < 5000) numberedCache.set(sql, out);
  return out;
}

/**
 * Runs `sql` (`?` placeholders, as for `em.execute`) with `params` bound, in `em`'s transaction when one is
 * open; resolves to the rows (column names as the statement aliases them).
 */
export async function execBound<R = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<R[]> {
  const executor = (em.getTransactionContext() ?? em.getConnection().getClient()) as unknown as Executor;
  const res = await executor.executeQuery<R>(CompiledQuery.raw(numberPlaceholders(sql), [...params]));
  return res.rows;
}
