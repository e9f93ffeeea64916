/**
 * The connection a group owns for its transaction (issue #38; DESIGN §5 "Record numbers"): a client
 * taken from the service's pool, its `begin` with the deadline's settings and the group's opening
 * statements pipelined behind it, the documents' EntityManager bound to that transaction, statements
 * sent back to back on the client itself, and the last statement with the `commit` behind it in one
 * write; else a rollback; then the client goes back to the pool. Nothing goes through a SQL comment,
 * nothing answers for the database, nothing global is changed.
 */

import { unavailable } from '@bm/errors';
import { dbTransactionDuration } from '@bm/telemetry';
import { TransactionContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { beforeCommit } from './deadline.js';
import { isConnectionLoss } from './orm.js';
import type { DriverStatement, PipelinedClient } from './prepared-statements.js';

type PooledClient = PipelinedClient & { release(err?: Error | boolean): void };

/** Each group transaction's EntityManager and its connection (for {@link connectionOf}). */
const byEm = new WeakMap<EntityManager, GroupConnection>();

/** The group connection `tx` works in. @throws when `tx` is not a group's */
export function connectionOf(tx: EntityManager): GroupConnection {
  const c = byEm.get(tx);
  if (!c) throw new Error('only inside a group commit’s transaction');
  return c;
}

/** One group's transaction on its own client. */
export class GroupConnection {
  private done = false;

  private constructor(
    private readonly client: PooledClient,
    /** The EntityManager of the transaction (a fork of the first document's, bound to it). */
    readonly tx: EntityManager,
    /** The opening statements' rows. */
    readonly openingRows: () => Promise<unknown[][]>,
    private readonly timer: (labels: { outcome: string }) => number,
  ) {}

  /**
   * Takes a client from `em`'s pool and begins, `opening` behind the `begin`; `fn` then runs with the
   * transaction's EntityManager as the current one. The caller commits ({@link commitWith}) inside `fn`;
   * when `fn` throws the transaction is rolled back. The client goes back to the pool either way.
   * @throws what `fn` throws; the pool's errors (no free connection within DB_POOL_TIMEOUT_MS)
   */
  static async run<T>(
    em: EntityManager,
    opening: readonly DriverStatement[],
    fn: (c: GroupConnection) => Promise<T>,
  ): Promise<T> {
    const pool = (await em.getConnection().getNativeClient()) as unknown as pg.Pool;
    const client = (await pool.connect().catch((e: unknown) => {
      // No connection at all (a failover under way, issue #46): nothing was sent, so nothing was stored.
      throw isConnectionLoss(e)
        ? unavailable(
            'no connection to the database at the moment (a restart or failover); nothing was stored',
            2,
          )
        : e;
    })) as unknown as PooledClient;
    const timer = dbTransactionDuration.startTimer();
    let c: GroupConnection | undefined;
    try {
      const carried = client.beginWith(opening);
      const tx = em.fork({ clear: false, cloneEventManager: true });
      tx.setTransactionContext((await oneClientKysely(client).startTransaction().execute()) as any);
      c = new GroupConnection(client, tx, carried.rows, timer);
      byEm.set(tx, c);
      const result = await TransactionContext.create(tx, () => fn(c!));
      if (!c.done) throw new Error('a group transaction ended without its commit');
      return result;
    } catch (e) {
      if (c) await c.rollback();
      else {
        timer({ outcome: 'rollback' });
        client.release(e as Error);
      }
      throw e;
    } finally {
      if (c) client.release(c.broken);
    }
  }

  /** Whether {@link commitWith} ran (committed, or failed and rolled back). */
  get committed(): boolean {
    return this.done;
  }

  /** Set when the client cannot be trusted with another transaction (a failed rollback). */
  private broken: Error | undefined;

  /** Sends `statements` back to back in one write; resolves to each one's rows. */
  send(statements: readonly DriverStatement[]): Promise<unknown[][]> {
    return this.client.sendAll(statements);
  }

  /**
   * The group's last statements and the `commit` in one write (the deadline checked first).
   * @throws 504 past the deadline (nothing sent); the statements' first error (rolled back)
   */
  async commitWith(statements: readonly DriverStatement[]): Promise<unknown[][]> {
    await beforeCommit();
    this.done = true;
    try {
      const rows = await this.client.sendAll(statements, true);
      this.timer({ outcome: 'commit' });
      return rows;
    } catch (e) {
      this.timer({ outcome: 'rollback' });
      // A statement's own error leaves the connection clean (its `commit` answered ROLLBACK); anything
      // else (a lost connection, a timeout) leaves it in doubt: it is not given to another transaction.
      const code = (e as { code?: unknown })?.code;
      if (!(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))) this.broken = e as Error;
      throw e;
    }
  }

  private async rollback(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.timer({ outcome: 'rollback' });
    try {
      await this.client.query('rollback');
    } catch (e) {
      this.broken = e as Error;
    }
  }
}

/** Each pooled client's Kysely, made once: clients are reused group after group. */
const kyselyByClient = new WeakMap<PooledClient, Kysely<any>>();

/** A Kysely over `client` alone (its release to the pool is the group's, not Kysely's). */
function oneClientKysely(client: PooledClient): Kysely<any> {
  let k = kyselyByClient.get(client);
  if (!k) {
    // What Kysely's PostgresConnection uses of a pg client: `query` (the client's own, so pg works on
    // itself, not through a wrapper) and `release` (the group's, not Kysely's).
    const held = { query: client.query.bind(client), release: () => undefined };
    k = new Kysely<any>({
      dialect: new PostgresDialect({
        pool: { connect: async () => held, end: async () => undefined } as any,
      }),
    });
    kyselyByClient.set(client, k);
  }
  return k;
}
