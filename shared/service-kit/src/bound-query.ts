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
import { connectionOf } from './group-connection.js';
import type { DriverStatement } from './prepared-statements.js';

interface Executor {
  executeQuery<R>(q: CompiledQuery<R>): Promise<{ rows: R[]; numAffectedRows?: bigint }>;
}

/**
 * `sql` with the `n`-th `?` (0-based) outside quotes replaced by `placeholder(n)`; `??` stays a literal
 * `?`. Returns the text and how many placeholders it had.
 */
function replacePlaceholders(
  sql: string,
  placeholder: (n: number) => string,
): { text: string; count: number } {
  let text = '';
  let n = 0;
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      text += ch;
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      text += ch;
    } else if (ch === '?' && sql[i + 1] === '?') {
      text += '?';
      i++;
    } else if (ch === '?') text += placeholder(n++);
    else text += ch;
  }
  return { text, count: n };
}

/**
 * `sql` with each `?` outside quotes and comments replaced by `$n` (1-based, in order); `??` stays a
 * literal `?`. Cached per text: the hot statements are a handful of fixed texts.
 */
const numberedCache = new Map<string, string>();
export function numberPlaceholders(sql: string): string {
  const hit = numberedCache.get(sql);
  if (hit !== undefined) return hit;
  const out = replacePlaceholders(sql, (n) => `$${n + 1}`).text;
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

/** `statements` (`?` placeholders) as the driver takes them. */
export const driverStatements = (
  statements: readonly { sql: string; params: readonly unknown[] }[],
): DriverStatement[] => statements.map((s) => ({ text: numberPlaceholders(s.sql), values: s.params }));

/**
 * Runs statements one after another in ONE round trip, each with bind parameters and prepared like any
 * other (issue #24: on a busy machine each round trip of a group commit costs it a wake-up of the
 * database and of this process): they go in one write, pipelined (pg's `pipeline` mode, set by
 * `initOrm`; without it, one after the other). Each statement sees what the ones before it did and what
 * others committed meanwhile (READ COMMITTED: a snapshot per statement), so a read after a lock sees the
 * rows as they are once locked. Only inside a group commit's transaction (`em` its EntityManager,
 * group-connection.ts): a failing statement aborts it, so nothing after it takes effect. With `commit`,
 * the transaction's `commit` goes in the same write, behind them (its deadline checked first,
 * deadline.ts `beforeCommit`), and nothing may run in the transaction after this call. Resolves to each
 * statement's rows; rejects with the first error (nothing of the transaction is then committed).
 */
export async function execPipelined(
  em: EntityManager,
  statements: readonly { sql: string; params: readonly unknown[] }[],
  opts: { commit?: boolean } = {},
): Promise<unknown[][]> {
  if (!statements.length && !opts.commit) return [];
  const trx = em.getTransactionContext() as { savepointName?: string } | undefined;
  if (!trx) throw new Error('execPipelined: only inside a transaction');
  if (opts.commit && trx.savepointName)
    throw new Error('execPipelined: commit only in a transaction, not in a nested one');
  const c = connectionOf(em);
  return opts.commit ? c.commitWith(driverStatements(statements)) : c.send(driverStatements(statements));
}
