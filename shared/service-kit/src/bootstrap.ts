/**
 * Start-up and graceful shutdown of a NATS micro-service with its own MikroORM schema
 * (issue #3 "Services"): migrations on start, one queue group per service so replicas share load,
 * health through NATS service ping/stats, and on stop: unsubscribe, finish in-flight work, drain NATS,
 * close the pool.
 */
import { createLogger, type Logger } from '@bm/logger';
import {
  connect,
  type NatsConnection,
  type RequestContext,
  type ServeOptions,
  setJetStreamReplicas,
} from '@bm/messaging';
import { initTracing, type MetricsServer, shutdownTracing, startMetricsServer } from '@bm/telemetry';
import { type Service, Svcm } from '@nats-io/services';
import type { ConnectionOptions } from '@nats-io/transport-node';
import type { ServiceEnv } from './config.js';
import { setParallelGroups } from './group-commit.js';
import { observeOrm } from './observability.js';
import { emWrap, initOrm, type MikroORM, type OrmOptions } from './orm.js';

/** What a service process reads from its environment ({@link ServiceEnv}); only the URLs are required. */
export type ServiceConfig = Pick<ServiceEnv, 'DATABASE_URL' | 'NATS_URL'> &
  Partial<
    Pick<
      ServiceEnv,
      | 'LOG_LEVEL'
      | 'DB_POOL_MAX'
      | 'DB_POOL_TIMEOUT_MS'
      | 'NATS_USER'
      | 'NATS_PASSWORD'
      | 'METRICS_PORT'
      | 'METRICS_HOST'
      | 'METRICS_PORT_FILE'
      | 'NATS_REPLICAS'
      | 'GROUP_COMMIT_PARALLEL'
    >
  >;

/**
 * Options of a NATS connection of process `name`: its own user when configured (issue #12 "Least
 * privilege"), reconnecting for ever.
 */
export function natsOptions(
  config: Pick<ServiceConfig, 'NATS_URL' | 'NATS_USER' | 'NATS_PASSWORD'>,
  name: string,
): ConnectionOptions {
  return {
    // A cluster (issue #25 "NATS cluster"): every server of it, comma-separated; the client fails over.
    servers: config.NATS_URL.split(',').map((u) => u.trim()),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // No stack trace captured for every request and its timer "in case it fails" (issue #24: two error
    // objects per request were 7.5 % of the gateway's profile); a failure still raises the same error
    // classes, which the callers map to 503/504.
    noAsyncTraces: true,
    ...(config.NATS_USER ? { user: config.NATS_USER, pass: config.NATS_PASSWORD } : {}),
  };
}

export interface StartOptions {
  name: 'warehouse' | 'invoicing' | 'reporting';
  version?: string;
  config: ServiceConfig;
  orm: Omit<OrmOptions, 'clientUrl' | 'log'>;
  /** Registers the endpoints on the service. */
  register: (kit: ServiceKit) => void | Promise<void>;
  /** Whether the schema has an outbox whose backlog is a metric (default true). */
  outbox?: boolean;
  /** Runs after the endpoints are registered, e.g. outbox relays and event consumers. */
  afterStart?: (kit: ServiceKit) => Promise<(() => Promise<void>) | void>;
}

export interface ServiceKit {
  name: string;
  instance: string;
  log: Logger;
  orm: MikroORM;
  nc: NatsConnection;
  service: Service;
  /** Options for `serve`: forks an EntityManager per message and tracks in-flight work. */
  serveOpts: ServeOptions;
}

/** What a document use case needs: the kit, and a way to wake the outbox relay after a commit. */
export interface DocumentDeps {
  kit: ServiceKit;
  /** Wakes the outbox relay after a commit. */
  kickOutbox: () => void;
}

export interface RunningService {
  kit: ServiceKit;
  /** Graceful stop: no new messages, in-flight ones finish, NATS drained, pool closed. */
  stop(): Promise<void>;
  /** The bound port of `GET /metrics`, when METRICS_PORT was set. */
  metricsPort?: number;
}

/**
 * Starts a service; resolves once it listens. With `METRICS_PORT` set it serves `GET /metrics` there
 * (issue #25), and with an OTLP endpoint configured it exports traces ({@link initTracing}).
 */
export async function startService(o: StartOptions): Promise<RunningService> {
  initTracing(o.name);
  setJetStreamReplicas(o.config.NATS_REPLICAS ?? 1);
  setParallelGroups(o.config.GROUP_COMMIT_PARALLEL ?? 1);
  const log = createLogger(o.name, o.config.LOG_LEVEL ?? 'info');
  const { orm, nc } = await connectBoth(o, log);
  const service = await new Svcm(nc).add({ name: o.name, version: o.version ?? '1.6.0', queue: o.name });
  const instance = service.info().id;
  const gate = inFlightGate(emWrap(orm));
  const serveOpts: ServeOptions = { log, nc, instance, wrap: gate.wrap };
  const kit: ServiceKit = { name: o.name, instance, log, orm, nc, service, serveOpts };
  const unobserve = observeOrm(orm, o.orm.schema, { outbox: o.outbox ?? true });
  let metrics: MetricsServer | undefined;
  if (o.config.METRICS_PORT !== undefined) {
    metrics = await startMetricsServer(
      o.config.METRICS_PORT,
      o.config.METRICS_HOST,
      o.config.METRICS_PORT_FILE,
    );
    log.info({ port: metrics.port }, 'metrics at GET /metrics');
  }
  await o.register(kit);
  // The endpoints' subscriptions must reach the server before the service counts as listening.
  await nc.flush();
  const stopExtra = o.afterStart ? await o.afterStart(kit) : undefined;
  log.info({ instance }, `${o.name} service listening`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await service.stop().catch(() => undefined);
      await gate.idle();
      if (stopExtra) await stopExtra();
      await nc.drain().catch(() => undefined);
      unobserve();
      await metrics?.close();
      await orm.close();
      await shutdownTracing();
      log.info(`${o.name} service stopped`);
    })());
  return { kit, stop, metricsPort: metrics?.port };
}

/** The service's ORM (its pool, migrations applied) and its NATS connection; the pool closed again when NATS fails. */
async function connectBoth(o: StartOptions, log: Logger) {
  const orm = await initOrm({
    ...o.orm,
    clientUrl: o.config.DATABASE_URL,
    log,
    poolMax: o.config.DB_POOL_MAX,
    poolTimeoutMs: o.config.DB_POOL_TIMEOUT_MS,
  });
  const nc = await connect(natsOptions(o.config, o.name)).catch(async (e) => {
    await orm.close();
    throw e;
  });
  return { orm, nc };
}

/** Counts the messages in flight around `wrapDb`; `idle()` resolves once none is (a graceful stop). */
function inFlightGate(wrapDb: ReturnType<typeof emWrap>) {
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const wrap = async <T>(
    ctx: RequestContext,
    fn: (extra: Record<string, unknown>) => Promise<T>,
    subject?: string,
  ): Promise<T> => {
    inFlight++;
    try {
      return await wrapDb(ctx, fn, subject);
    } finally {
      inFlight--;
      if (inFlight === 0) idle?.();
    }
  };
  return {
    wrap,
    idle: async () => {
      if (inFlight > 0) await new Promise<void>((r) => (idle = r));
    },
  };
}

/** Runs a service as a process: starts it and stops it gracefully on SIGINT/SIGTERM. */
export async function runAsProcess(start: () => Promise<Pick<RunningService, 'stop'>>): Promise<void> {
  const running = await start().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
  const onSignal = () => {
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}
