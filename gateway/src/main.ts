/** Process entry of the gateway: identity schema, NATS connection, HTTP server, graceful stop. */

import { createLogger } from '@bm/logger';
import { connect, setJetStreamReplicas } from '@bm/messaging';
import { initOrm, natsOptions, observeOrm, pingWritable } from '@bm/service-kit';
import { initTracing, shutdownTracing, startMetricsServer } from '@bm/telemetry';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { opsStatusGauges } from './http/ops-status.js';
import { IdempotencyStore } from './identity/idempotency.store.js';
import { IdentityService } from './identity/identity.service.js';
import { ormOptions } from './identity/orm-options.js';

export interface RunningGateway {
  /** The address and port the server really bound to. */
  host: string;
  port: number;
  /** The bound port of `GET /metrics`, when METRICS_PORT was set. */
  metricsPort?: number;
  stop(): Promise<void>;
}

/** Starts the gateway; resolves once it listens. */
export async function startGateway(config = loadConfig()): Promise<RunningGateway> {
  initTracing('gateway');
  setJetStreamReplicas(config.NATS_REPLICAS);
  const log = createLogger('gateway', config.LOG_LEVEL);
  const orm = await initOrm({
    ...ormOptions,
    clientUrl: config.DATABASE_URL,
    log,
    poolMax: config.DB_POOL_MAX,
    poolTimeoutMs: config.DB_POOL_TIMEOUT_MS,
  });
  const unobserve = observeOrm(orm, ormOptions.schema, { outbox: false });
  const nc = await connect(natsOptions(config, 'gateway'));
  const identity = new IdentityService(orm, nc);
  const idempotency = new IdempotencyStore(orm);
  // Idempotency keys are kept 24 h (issue #12), then deleted.
  const pruning = setInterval(
    () => void idempotency.prune().catch((e: Error) => log.warn({ err: e.message }, 'pruning keys failed')),
    3_600_000,
  );
  pruning.unref();
  // The authentication failure counts, shared by replicas (issue #22): a small pool of its own, so a
  // flood's counting never waits behind the identity queries.
  const authStore = new pg.Pool({ connectionString: config.DATABASE_URL, max: 3 });
  authStore.on('error', (e) => log.warn({ err: e.message }, 'authentication store connection failed'));
  const app = createApp({
    config,
    identity,
    idempotency,
    nc,
    log,
    authStore,
    pingDb: () => pingWritable(orm),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = typeof address === 'object' && address ? address.address : config.HOST;
  log.info({ host, port }, 'gateway listening');
  // GET /metrics on its own port (issue #25), never on the public API port.
  const metrics =
    config.METRICS_PORT !== undefined
      ? await startMetricsServer(config.METRICS_PORT, config.METRICS_HOST, config.METRICS_PORT_FILE)
      : undefined;
  // Issue #36: the backups' state of a stack run by `pnpm start`.
  const removeOpsGauges = opsStatusGauges(config.OPS_STATUS_DIR);
  return {
    host,
    port,
    metricsPort: metrics?.port,
    stop: async () => {
      removeOpsGauges();
      clearInterval(pruning);
      await new Promise<void>((r) => server.close(() => r()));
      await nc.drain().catch(() => undefined);
      await authStore.end().catch(() => undefined);
      await metrics?.close();
      unobserve();
      await orm.close();
      await shutdownTracing();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const running = await startGateway().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
  const stop = () =>
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
