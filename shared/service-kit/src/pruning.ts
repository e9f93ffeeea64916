/**
 * Pruning of kept rows (published outbox events, processed-event ids, issue #12): rows older than their
 * kept age are deleted every hour.
 */
import type { Logger } from '@bm/logger';
import type { MikroORM } from '@mikro-orm/postgresql';

/** Deletes the rows of `table` whose timestamp `column` is older than `maxAgeMs`; resolves to how many. */
export async function pruneOlderThan(
  orm: MikroORM,
  table: string,
  column: string,
  maxAgeMs: number,
): Promise<number> {
  const r = await orm.em
    .fork()
    .getConnection()
    .execute(
      `delete from ${table} where "${column}" < now() - make_interval(secs => ?)`,
      [maxAgeMs / 1000],
      'run',
    );
  return Number((r as { affectedRows?: number }).affectedRows ?? 0);
}

/**
 * Runs {@link pruneOlderThan} every hour; returns the stop function. Used for published outbox rows and
 * for processed-event ids.
 */
export function pruneHourly(
  orm: MikroORM,
  log: Logger,
  table: string,
  column: string,
  maxAgeMs: number,
): () => void {
  const timer = setInterval(() => {
    pruneOlderThan(orm, table, column, maxAgeMs).catch((e: Error) =>
      log.warn({ err: e.message, table }, 'pruning failed'),
    );
  }, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
