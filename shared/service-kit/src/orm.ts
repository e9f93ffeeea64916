/**
 * MikroORM helpers every service uses: ORM start-up with its own schema and migrations, the company
 * filter (DESIGN §3: every query scoped to the tenant by a filter that is on by default), an
 * EntityManager forked per message, paging, and database errors mapped to error kinds.
 */

import { DEFAULT_PAGE_SIZE, type Page, type PageQuery } from '@bm/contracts';
import { AppError, conflict, ErrorCode, ErrorKind, unavailable } from '@bm/errors';
import type { Logger } from '@bm/logger';
import type { RequestContext } from '@bm/messaging';
import { deadlinePassed, guardRequests } from '@bm/messaging';
import { TransactionContext } from '@mikro-orm/core';
import { type Migration, Migrator } from '@mikro-orm/migrations';
import {
  type EntityManager,
  type EntityName,
  type FilterQuery,
  MikroORM,
  type Options,
  UniqueConstraintViolationException,
} from '@mikro-orm/postgresql';

import { DeadlineSubscriber, deadlineSettingsSql, withDeadline } from './deadline.js';
import { invalidateAfter } from './master-data-cache.js';
import { TransactionMetricsSubscriber } from './observability.js';
import { PipelinedClient, setBeginSuffix } from './prepared-statements.js';

export { type EntityManager, MikroORM } from '@mikro-orm/postgresql';

/**
 * Filter definition that scopes an entity to the current company. Put it into an entity's `filters`;
 * queries without `companyId` filter params throw, so an unscoped query cannot slip through.
 */
export const companyFilter = {
  company: {
    name: 'company',
    cond: (args: { companyId: string }) => ({ companyId: args.companyId }),
    default: true,
  },
} as const;

export interface OrmOptions {
  clientUrl: string;
  /** The service's own PostgreSQL schema; migrations and their table live in it. */
  schema: string;
  entities: Options['entities'];
  migrations: { name: string; class: new (...args: any[]) => Migration }[];
  log?: Logger;
  /** Most connections this process opens (DB_POOL_MAX; issue #12 "connection budget"). */
  poolMax?: number;
  /** How long a query waits for a free pooled connection before 503, ms (DB_POOL_TIMEOUT_MS). */
  poolTimeoutMs?: number;
}

/**
 * The rule "no NATS request inside an open database transaction" (docs/architecture.md, issue #22): a
 * transaction that waits for another service holds its row locks for a network round trip (up to the
 * request timeout), and two services waiting on each other's locks through NATS deadlock where
 * PostgreSQL cannot see it. Fetch what the transaction needs before it begins, or keep a local copy.
 * @throws Error (a programming error, answered 500) when `request` is called inside an open transaction
 *   (`em.transactional`, or a group commit's, group-connection.ts)
 */
export function assertNoOpenTransaction(subject: string): void {
  const em = TransactionContext.getEntityManager();
  if (em?.isInTransaction())
    throw new Error(
      `NATS request ${subject} made inside an open database transaction; fetch it before the transaction begins (docs/architecture.md)`,
    );
}

/**
 * Starts MikroORM for one service schema and applies pending migrations. The schema generator and
 * migrations never touch other schemas (TOOLCHAIN "MikroORM traps").
 */
export async function initOrm(o: OrmOptions): Promise<MikroORM> {
  guardRequests(assertNoOpenTransaction);
  setBeginSuffix(deadlineSettingsSql);
  const orm = await MikroORM.init({
    clientUrl: o.clientUrl,
    schema: o.schema,
    entities: o.entities,
    extensions: [Migrator],
    migrations: {
      migrationsList: o.migrations,
      tableName: 'mikro_orm_migrations',
      snapshot: false,
      transactional: true,
    },
    schemaGenerator: { skipTables: [], skipColumns: {} },
    pool: { min: 0, max: o.poolMax ?? 10 },
    // pg-pool: waiting for a free connection (or for a new one) gives up after this; mapped to 503.
    driverOptions: {
      connectionTimeoutMillis: o.poolTimeoutMs ?? 30_000,
      // A transaction left open by a stuck process does not hold its locks for ever.
      idle_in_transaction_session_timeout: 60_000,
      // Statements sent together go in one write without waiting for each other (bound-query.ts
      // `execPipelined`, a group commit's opening reads); a lone statement goes as before.
      pipeline: true,
      // The pool's clients (prepared-statements.ts): the begin's statements, pipelines, prepared statements.
      Client: PipelinedClient,
    },
    subscribers: [new DeadlineSubscriber(), new TransactionMetricsSubscriber()],
    debug: process.env.ORM_DEBUG === '1' ? ['query'] : false,
    allowGlobalContext: false,
    logger: process.env.ORM_DEBUG === '1' ? (m) => console.log(m) : (m) => o.log?.debug(m),
  });
  // A service that runs as its own role (issue #12) may not create schemas: its schema is made for it by
  // the provisioning step (`provisionDatabase`); create it here only where it is missing (superuser set-ups).
  const exists = await orm.em
    .getConnection()
    .execute<{ n: number }[]>(`select count(*)::int as n from pg_namespace where nspname = ?`, [o.schema]);
  if (!exists[0]?.n) await orm.em.getConnection().execute(`create schema if not exists "${o.schema}"`);
  await orm.migrator.up();
  return orm;
}

/**
 * The readiness probe's database check (issue #46): `read-only` while the server answers as a standby (a
 * failover under way), else `ok`. @throws the driver's error when the database is unreachable
 */
export async function pingWritable(orm: MikroORM): Promise<'ok' | 'read-only'> {
  const rows = await orm.em.getConnection().execute<{ ro: boolean }[]>('select pg_is_in_recovery() as ro');
  return rows[0]?.ro ? 'read-only' : 'ok';
}

/** Forks an EntityManager for one message with the company filter set (company-less messages get none). */
export function forkFor(orm: MikroORM, ctx: Pick<RequestContext, 'companyId'>): EntityManager {
  const em = orm.em.fork();
  if (ctx.companyId) em.setFilterParams('company', { companyId: ctx.companyId });
  return em as EntityManager;
}

/**
 * `serve` wrapper: gives each message its own EntityManager (`ctx.em`), runs it under the message's
 * deadline (its transactions get `statement_timeout`/`lock_timeout` and roll back past it), maps
 * database errors, and after a master-data write drops the company's cached master data.
 */
export function emWrap(orm: MikroORM) {
  return async <T>(
    ctx: RequestContext,
    fn: (extra: Record<string, unknown>) => Promise<T>,
    subject?: string,
  ): Promise<T> => {
    const em = forkFor(orm, ctx);
    try {
      // A master-data write drops the company's cached master data (master-data-cache.ts).
      return await invalidateAfter(subject, ctx.companyId, () =>
        withDeadline(ctx.deadline, () => fn({ em })),
      );
    } catch (e) {
      throw mapDbError(e);
    }
  };
}

/** Socket errors of a connection to a server that died or was cut off (HAProxy during a failover). */
const NETWORK_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/**
 * Whether `e` is a lost or refused database connection: a server shutting down or crashed (57P01–57P04),
 * class 08, a socket error, or the driver's own "Connection terminated" (HAProxy cutting or refusing the
 * session while a failover runs, issue #46).
 */
export function isConnectionLoss(e: unknown): boolean {
  const sqlState: unknown = (e as any)?.code ?? (e as any)?.cause?.code;
  return (
    (typeof sqlState === 'string' &&
      (sqlState.startsWith('57P') || sqlState.startsWith('08') || NETWORK_ERRORS.has(sqlState))) ||
    /Connection terminated|connection error|not queryable/i.test(String((e as Error)?.message))
  );
}

/**
 * Unique violations become 409 Conflict naming the constraint's columns; PostgreSQL data exceptions
 * (class 22: a number too large for its column, an impossible date, a NUL byte in text) become 400
 * ValidationFailed, since only client data can cause them; deadlocks and serialization failures (class
 * 40) become 409 Conflict (nothing stored, the client may retry); other errors pass through.
 */
export function mapDbError(e: unknown): unknown {
  const sqlState: string | undefined = (e as any)?.code ?? (e as any)?.cause?.code;
  if (typeof sqlState === 'string' && sqlState.startsWith('22')) {
    const what =
      sqlState === '22003'
        ? 'a number is too large'
        : sqlState === '22001'
          ? 'a text is too long'
          : sqlState.startsWith('2200')
            ? 'a date or time is not valid'
            : 'a value is not valid';
    return new AppError(ErrorKind.invalid, ErrorCode.ValidationFailed, what, {
      errors: [{ path: '(body)', message: what }],
    });
  }
  // statement_timeout or lock_timeout of the request's deadline: the transaction rolled back.
  if (sqlState === '57014' || sqlState === '55P03') return deadlinePassed('the request');
  // The server's connection limit, or a standby refusing a write (25006: a primary demoted under the
  // connection in a failover, issue #46): the statement was refused, nothing was stored.
  if (sqlState === '53300' || sqlState === '25006')
    return unavailable('the database is not accepting more work at the moment; nothing was stored', 2);
  // pg-pool found no free connection within DB_POOL_TIMEOUT_MS.
  if (/timeout exceeded when trying to connect/i.test(String((e as Error)?.message)))
    return unavailable('all database connections are busy; nothing was stored, retry shortly', 1);
  // A server shutting down or crashed (57P01–57P04), a lost connection (class 08, a socket error, HAProxy
  // cutting the sessions of a failed primary): if it broke during the commit, the outcome is unknown.
  if (isConnectionLoss(e))
    return new AppError(
      ErrorKind.unavailable,
      ErrorCode.ServiceUnavailable,
      'the connection to the database was lost (a restart or failover) while the request ran: if that was during its commit, it may have been stored; look it up before sending it again',
      { retryAfterSeconds: 2, outcomeUnknown: true },
    );
  if (sqlState === '40P01' || sqlState === '40001') {
    // A deadlock or serialization failure between concurrent writers: nothing was stored; retrying helps.
    return new AppError(
      ErrorKind.conflict,
      ErrorCode.Conflict,
      'the record was changed by a concurrent request; nothing was stored, retry the request',
    );
  }
  // From the ORM, or from a raw statement of the set-based write path (issue #13).
  if (e instanceof UniqueConstraintViolationException || sqlState === '23505') {
    const constraint = (e as any).constraint ?? (e as any).cause?.constraint ?? '';
    const detailText: string = (e as any).detail ?? (e as any).cause?.detail ?? '';
    const cols = /Key \((.*?)\)=/.exec(detailText)?.[1]?.replace(/company_id,\s*/, '');
    const field = cols ? cols.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : constraint;
    if (field === 'recordNumber') {
      return new AppError(
        ErrorKind.conflict,
        ErrorCode.DuplicateRecordNumber,
        'the record number is already used',
      );
    }
    return conflict(`a record with this ${field || 'value'} already exists`, [
      { path: field || '(body)', message: 'already used by another record of the company' },
    ]);
  }
  return e;
}

/**
 * One page of `entity` ordered by `orderBy`, in the list envelope of DESIGN §2.
 * A page past the end yields empty `items`.
 */
export async function paginate<T extends object, R>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  q: PageQuery,
  orderBy: Record<string, 'asc' | 'desc'>,
  map: (e: T) => R,
): Promise<Page<R>> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
  const [rows, totalCount] = await em.findAndCount(entity, where as any, {
    orderBy: orderBy as any,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return { page, pageSize, totalCount, items: rows.map(map) };
}
