/**
 * The metrics a service process exposes besides its requests (issue #25 "Metrics"; docs/operations.md
 * "Metrics"): database transactions and pool use, the outbox backlog, and its durable consumers' pending
 * events. Gauges are read when Prometheus scrapes, so an idle process costs nothing.
 */
import { dbTransactionDuration, scrapeGauge } from '@bm/telemetry';
import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** Observes every top-level transaction's duration in `bm_db_transaction_duration_seconds{outcome}`. */
export class TransactionMetricsSubscriber implements EventSubscriber {
  private readonly started = new WeakMap<object, (labels: { outcome: string }) => number>();

  afterTransactionStart(args: TransactionEventArgs): void {
    if (!args.transaction || args.transaction.savepointName) return;
    this.started.set(args.transaction, dbTransactionDuration.startTimer());
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    this.end(args, 'commit');
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    this.end(args, 'rollback');
  }

  private end(args: TransactionEventArgs, outcome: 'commit' | 'rollback'): void {
    const t = args.transaction;
    if (!t) return;
    const end = this.started.get(t);
    this.started.delete(t);
    end?.({ outcome });
  }
}

interface PgPoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/**
 * Registers the pool gauges of `orm` (OTel `db.client.connection.count{state}`, `.max`, `.pending_requests`,
 * labelled with the pool's name, the schema) and, when the schema has an outbox, its backlog: unpublished
 * events and the age of the oldest one. Returns the function that removes them (on stop).
 */
export function observeOrm(orm: MikroORM, schema: string, o: { outbox: boolean }): () => void {
  const removers = [...poolGauges(orm, schema), ...(o.outbox ? outboxGauges(orm, schema) : [])];
  return () => {
    for (const r of removers) r();
  };
}

/** The pool gauges of `orm` (connections by state, the maximum, the requests waiting); their removers. */
function poolGauges(orm: MikroORM, schema: string): (() => void)[] {
  // Read without awaiting once known: the pool's figures are taken before this scrape's own backlog
  // queries (gauges collect in registration order) borrow a connection and would count as pending.
  let native: PgPoolStats | undefined;
  const resolve = async () => (native = (await orm.em.getConnection().getNativeClient()) as PgPoolStats);
  void resolve().catch(() => undefined);
  const pool = async () => native ?? (await resolve());
  const name = { db_client_connection_pool_name: schema };
  return [
    scrapeGauge({
      name: 'db_client_connection_count',
      help: 'Database connections of the pool, by state (idle or used)',
      labelNames: ['db_client_connection_pool_name', 'db_client_connection_state'] as const,
      read: async () => {
        const p = await pool();
        return [
          { labels: { ...name, db_client_connection_state: 'idle' }, value: p.idleCount },
          { labels: { ...name, db_client_connection_state: 'used' }, value: p.totalCount - p.idleCount },
        ];
      },
    }),
    scrapeGauge({
      name: 'db_client_connection_max',
      help: 'Most connections the pool opens (DB_POOL_MAX)',
      labelNames: ['db_client_connection_pool_name'] as const,
      read: async () => [{ labels: name, value: (await pool()).options?.max ?? 0 }],
    }),
    scrapeGauge({
      name: 'db_client_connection_pending_requests',
      help: 'Queries waiting for a free connection of the pool',
      labelNames: ['db_client_connection_pool_name'] as const,
      read: async () => [{ labels: name, value: (await pool()).waitingCount }],
    }),
  ];
}

/** The outbox backlog gauges of `schema` (unpublished events, the oldest one's age); their removers. */
function outboxGauges(orm: MikroORM, schema: string): (() => void)[] {
  const readBacklog = async () => {
    const [r] = await orm.em
      .fork()
      .getConnection()
      .execute<{ n: number; age: number | null }[]>(
        `select count(*)::int as n, extract(epoch from now() - min("created_at"))::float8 as age
           from "${schema}"."outbox" where "published_at" is null`,
      );
    return r ?? { n: 0, age: null };
  };
  // Both backlog gauges of one scrape (collected at once) share the query in flight.
  let pending: ReturnType<typeof readBacklog> | undefined;
  const backlog = () =>
    (pending ??= readBacklog().finally(() => {
      pending = undefined;
    }));
  return [
    scrapeGauge({
      name: 'bm_outbox_backlog_events',
      help: 'Events written to the outbox and not yet published to JetStream',
      labelNames: ['db_namespace'] as const,
      read: async () => [{ labels: { db_namespace: schema }, value: (await backlog()).n }],
    }),
    scrapeGauge({
      name: 'bm_outbox_oldest_event_age_seconds',
      help: 'Age of the oldest unpublished outbox event, seconds (0 when none waits)',
      labelNames: ['db_namespace'] as const,
      read: async () => [{ labels: { db_namespace: schema }, value: (await backlog()).age ?? 0 }],
    }),
  ];
}

/**
 * Registers `bm_consumer_pending_messages{consumer, state}` for a durable consumer of `stream`: events
 * not yet delivered (`undelivered`) and delivered but not acknowledged (`unacknowledged`), from JetStream's
 * consumer info. Returns the function that removes it.
 */
export function observeConsumer(nc: NatsConnection, stream: string, consumer: string): () => void {
  return scrapeGauge({
    name: 'bm_consumer_pending_messages',
    help: 'Events of a durable consumer not yet delivered or not yet acknowledged',
    labelNames: ['consumer', 'state'] as const,
    read: async () => {
      const jsm = await jetstreamManager(nc, { timeout: 1000 });
      const info = await jsm.consumers.info(stream, consumer);
      return [
        { labels: { consumer, state: 'undelivered' }, value: info.num_pending },
        { labels: { consumer, state: 'unacknowledged' }, value: info.num_ack_pending },
      ];
    },
  });
}
