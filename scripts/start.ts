/**
 * `pnpm start`: the whole stack on this machine with a seeded demo company (DESIGN §8, issue #3).
 *
 * - Uses DATABASE_URL / NATS_URL when set; otherwise starts local PostgreSQL and nats-server (data kept
 *   in `.local/data`, so a restart keeps the demo company). That PostgreSQL is durable (PostgreSQL's
 *   defaults for fsync, synchronous_commit, full_page_writes) and takes a generated password
 *   (`.local/data/postgres-password`, mode 0600) on loopback only (issue #9).
 * - Starts the services, the access-point connector and the gateway as child processes (logs in
 *   `.local/logs/`), waits until `/health` is green, seeds the demo company once, writes its credentials
 *   to `.local/demo-credentials.json` and prints them with a ready-to-paste curl.
 * - Each process connects to NATS as its own user and, on the local PostgreSQL, as its own role
 *   (issue #12; `.local/data/nats-credentials.json`, `db-roles.json`, mode 0600).
 * - A child that exits is restarted with a back-off (1 s doubling to 30 s), like compose's
 *   `restart: unless-stopped`, and the terminal says so with the end of its log.
 * - Ctrl-C or a failed start stops everything started so far; a server's own error output (initdb,
 *   PostgreSQL's or nats-server's log) reaches the terminal.
 * - Every process serves Prometheus metrics on a port of its own (`GET /metrics`, issue #25), the one it
 *   bound (issue #43); the list is `.local/metrics-targets.json` (Prometheus file-based service
 *   discovery), rewritten whenever a process (re)starts. `NATS_CLUSTER=3` runs three local nats-server
 *   nodes as one cluster with every stream at 3 replicas; `<SERVICE>_REPLICAS` run more replicas.
 * - `PG_CLUSTER=3` runs three PostgreSQL nodes under Patroni (etcd, a synchronous standby, HAProxy as the
 *   stable address the services use), each server supervised (issue #46, shared/testing/src/pg-cluster.ts).
 *
 * Environment: PORT (8080), HOST (127.0.0.1: the gateway's bind address), DATABASE_URL, NATS_URL, ADMIN_TOKEN (random when unset), LOG_LEVEL (info),
 * NATS_CLUSTER (1), PG_CLUSTER (1), <SERVICE>_REPLICAS (1), METRICS_HOST (127.0.0.1), OTEL_EXPORTER_OTLP_ENDPOINT (traces; off unless set),
 * PEPPOL_AP (loopback) and the connector's PEPPOL_* settings (docs/operations.md "E-invoice delivery"),
 * LOCAL_DIR (`.local`: data of the local servers, logs, demo credentials and PDFs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInfrastructure, writeSecret } from '@bm/testing/infra';
import { natsEnv } from '@bm/testing/nats-auth';
import { type DbProcess, ensureDbRoles } from '@bm/testing/pg-roles';
import { seedDemo, writeDemoPdfs } from './demo-data.js';
import { statusDir } from './ops/local-paths.js';
import { startLocalBackups, stopReceiver } from './ops/start-backups.js';
import { printBanner } from './start-parts/banner.js';
import { clusterSizes } from './start-parts/cluster-sizes.js';
import { watchLaunchers } from './start-parts/launchers.js';
import { MetricsPorts } from './start-parts/metrics-targets.js';
import { localSecretsKey } from './start-parts/secrets-key.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const local = process.env.LOCAL_DIR ?? join(root, '.local');
const say = (s: string) => console.log(s);

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const adminToken = process.env.ADMIN_TOKEN ?? randomBytes(24).toString('base64url');
/** Nodes of the local NATS (issue #25) and PostgreSQL (issue #46): 1, or 3 for a cluster. */
let sizes: ReturnType<typeof clusterSizes>;
try {
  sizes = clusterSizes();
} catch (e) {
  console.error(`pnpm start failed: ${(e as Error).message}`);
  process.exit(1);
}
const natsCluster = sizes.nats;
const metricsHost = process.env.METRICS_HOST ?? '127.0.0.1';
const t0 = Date.now();

const stackPidFile = join(local, 'stack.pid');
/** Stops of everything started so far, newest last; run in reverse by `stopAll`. */
const stops: (() => Promise<void>)[] = [];
const children: ChildProcess[] = [];
let stopping: Promise<never> | undefined;

/** How long the processes get to finish their work after SIGTERM before they are killed, ms. */
const GRACE_MS = 5000;

/**
 * Stops the services, then the local servers; exits with `code`. Safe to call more than once. A process
 * that has not exited within {@link GRACE_MS} is killed, so the local PostgreSQL and nats-server are
 * always stopped, within about 10 s, before this script exits.
 */
function stopAll(code: number): Promise<never> {
  stopping ??= (async () => {
    const running = () => children.filter((c) => c.exitCode === null && c.signalCode === null);
    for (const c of running()) c.kill('SIGTERM');
    const exited = Promise.all(running().map((c) => new Promise((r) => c.once('exit', r))));
    const late = await Promise.race([
      exited.then(() => false),
      new Promise((r) => setTimeout(() => r(true), GRACE_MS)),
    ]);
    if (late) {
      const stuck = running();
      console.error(`${stuck.length} process(es) still running after ${GRACE_MS / 1000} s: killing them`);
      for (const c of stuck) c.kill('SIGKILL');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 1000))]);
    }
    for (const stop of stops.reverse()) await stop().catch((e) => console.error(String(e)));
    rmSync(stackPidFile, { force: true });
    process.exit(code);
  })();
  return stopping;
}
// `on`, not `once`: Ctrl-C reaches this process from the terminal's process group and again relayed by
// pnpm and tsx; with a one-shot listener the second SIGINT killed it halfway through stopAll, leaving the
// local PostgreSQL running. stopAll is idempotent, so every further signal just waits for the same stop.
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
// A closed terminal: node would exit at once and leave the servers running.
process.on('SIGHUP', () => void stopAll(0));

// Orphaned (pnpm killed, SIGTERM to pnpm): stop instead of running on with the servers (issue #25).
watchLaunchers((gone) => {
  if (stopping) return;
  console.error(`the process that started this stack (pid ${gone}) has gone: stopping everything`);
  void stopAll(0);
});

/** Prints why the start failed and stops what was started. */
async function fail(message: string): Promise<never> {
  console.error(`pnpm start failed: ${message}`);
  return stopAll(1);
}

mkdirSync(join(local, 'logs'), { recursive: true });
// `pnpm restore latest` refuses while this runs (issue #36).
writeFileSync(stackPidFile, String(process.pid));
say('Starting PostgreSQL and NATS (or using DATABASE_URL / NATS_URL)…');
// A given DATABASE_URL is used as it is; local servers get the database `business`.
const infra = await ensureInfrastructure({
  dataDir: join(local, 'data'),
  database: process.env.DATABASE_URL ? undefined : 'business',
  durable: true,
  log: (l) => say(`  ${l}`),
  onStarted: (stop) => stops.push(stop),
  natsCluster: process.env.NATS_URL ? 1 : natsCluster,
  pgCluster: sizes.postgres,
}).catch((e: Error) => fail(e.message));
if (infra.started.length) say(`  started ${infra.started.join(', ')}`);

// Least privilege (issue #12): on the local PostgreSQL each process connects as its own role that owns
// only its schema; a given DATABASE_URL is used by every process as it is.
const dbUrls = process.env.DATABASE_URL
  ? undefined
  : await ensureDbRoles(join(local, 'data'), infra.databaseUrl).catch((e: Error) =>
      fail(`creating the database roles: ${e.message}`),
    );
// Backups (issue #36): the WAL streamed synchronously to BACKUP_DIR before any service writes.
stops.push(stopReceiver);
const backups = await startLocalBackups({
  databaseUrl: infra.databaseUrl,
  givenDatabaseUrl: !!process.env.DATABASE_URL,
  cluster: !!infra.pgCluster,
  log: (l) => say(`  ${l}`),
}).catch((e: Error) => fail(`setting up the backups: ${e.message} (BACKUP=off starts without them)`));
if (typeof backups !== 'string') stops.push(() => backups.stop());

const env = {
  ...process.env,
  // The gateway's readiness and metrics read the backups' state from here (issue #36).
  OPS_STATUS_DIR: statusDir(),
  // The key of the companies' access-point secrets (issue #35), generated once for the local default.
  ...localSecretsKey(local),
  DATABASE_URL: infra.databaseUrl,
  NATS_URL: infra.natsUrl,
  ADMIN_TOKEN: adminToken,
  PORT: String(port),
  HOST: host,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  // Streams and object stores of a local cluster are replicated on every node (at most 3).
  NATS_REPLICAS: process.env.NATS_REPLICAS ?? String(process.env.NATS_URL ? 1 : Math.min(natsCluster, 3)),
  METRICS_HOST: metricsHost,
};
type ProcessName = DbProcess | 'access-point';
const processes: [ProcessName, string][] = [
  ['warehouse', 'services/warehouse/src/main.ts'],
  ['invoicing', 'services/invoicing/src/main.ts'],
  ['reporting', 'services/reporting/src/main.ts'],
  // The Peppol access-point connector (issue #23): loopback unless PEPPOL_AP (and its PEPPOL_* settings,
  // passed through from this environment) says phoss, folder or sapi (issue #35).
  ['access-point', 'services/access-point/src/main.ts'],
  ['gateway', 'gateway/src/main.ts'],
];

/** Each process's own environment: its NATS user and its database role (issue #12); the connector has no database. */
const envOf = (name: ProcessName) => ({
  ...env,
  ...natsEnv(infra.natsCredentials, name),
  ...(name === 'access-point' ? { DATABASE_URL: '' } : dbUrls ? { DATABASE_URL: dbUrls[name] } : {}),
});

/** Restart back-off after an exit: 1 s, doubling to 30 s; reset once a process has run for a minute. */
const backoff = new Map<string, number>();

/** Where each process instance serves `GET /metrics` (`.local/metrics-targets.json`, issues #25, #43). */
const metricsTargetsFile = join(local, 'metrics-targets.json');
const metrics = new MetricsPorts(join(local, 'run'), metricsTargetsFile, metricsHost);
// Patroni's and HAProxy's own exporters (issue #46): primary, replication lag, timeline (failovers).
metrics.addFixed(infra.pgCluster?.metricsTargets() ?? []);

/** Starts one process; when it exits while the stack runs, it is started again after a back-off. */
function launch(name: ProcessName, file: string, replica = 1): void {
  const instance = `${name}-${replica}`;
  const logFile = join(local, 'logs', replica === 1 ? `${name}.log` : `${instance}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const startedAt = Date.now();
  const ports = metrics.launch(instance);
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, file)], {
    cwd: root,
    env: { ...envOf(name), ...ports.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  child.once('exit', (code, signal) => {
    ports.exited();
    children.splice(children.indexOf(child), 1);
    if (stopping) return;
    let lastLines = '';
    try {
      lastLines = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-10).join('\n');
    } catch {
      /* no log */
    }
    const delay =
      Date.now() - startedAt > 60_000 ? 1000 : Math.min((backoff.get(instance) ?? 500) * 2, 30_000);
    backoff.set(instance, delay);
    console.error(
      `${replica === 1 ? name : instance} exited (${code ?? signal}); restarting it in ${delay / 1000} s. The end of its log ${logFile}:\n${lastLines}`,
    );
    // Not unref'd: while every child waits for its restart, this timer keeps the script alive.
    setTimeout(() => {
      if (!stopping) launch(name, file, replica);
    }, delay);
  });
  children.push(child);
}

/** Every process instance launched (`warehouse-1`, …). */
const instances: string[] = [];
for (const [name, file] of processes) {
  // More replicas of a service share its NATS queue group (DESIGN §8); the gateway and the connector run once.
  const replicas =
    name === 'gateway' || name === 'access-point'
      ? 1
      : Math.min(Math.max(Number(process.env[`${name.toUpperCase()}_REPLICAS`] || 1), 1), 8);
  for (let r = 1; r <= replicas; r++) {
    instances.push(`${name}-${r}`);
    launch(name, file, r);
  }
}

// The address clients use: the bound one, or loopback when the gateway binds every interface.
const callHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
const baseUrl = `http://${callHost}:${port}`;
say('Waiting for the gateway and the services…');
for (let i = 0; ; i++) {
  const ok = await fetch(`${baseUrl}/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  if (i > 600) await fail(`the stack did not become healthy within 60 s; see ${join(local, 'logs')}`);
  await new Promise((r) => setTimeout(r, 100));
}
// Every process binds its metrics port before it is ready; the targets list them all.
await metrics.bound(instances);

const credsFile = join(local, 'demo-credentials.json');
const creds = await seedDemo({ baseUrl, adminToken, credsFile, log: say }).catch((e: Error) =>
  fail(`seeding the demo company: ${e.message}`),
);
writeSecret(credsFile, `${JSON.stringify({ ...creds, baseUrl }, null, 2)}\n`);
if (process.argv.includes('--demo-pdfs'))
  await writeDemoPdfs(baseUrl, creds, credsFile, join(local, 'demo'), say);

const dataDir = join(local, 'data');
const cliDb = dbUrls
  ? `DATABASE_URL_FILE='${join(dataDir, 'db-gateway.url')}'`
  : `DATABASE_URL='${infra.databaseUrl}'`;
const cliNats = infra.natsCredentials
  ? ` NATS_USER=gateway NATS_PASSWORD_FILE='${join(dataDir, 'nats-gateway.password')}'`
  : '';
printBanner(
  {
    seconds: (Date.now() - t0) / 1000,
    baseUrl,
    host,
    port,
    creds,
    credsFile,
    adminToken,
    adminTokenGenerated: !process.env.ADMIN_TOKEN,
    cli: `${cliDb} NATS_URL='${infra.natsUrl}'${cliNats} pnpm create-company --name 'Firma s.r.o.' --country SK`,
  },
  say,
);
say(`Metrics: GET /metrics of every process, listed in ${metricsTargetsFile} (Prometheus file_sd_configs).`);
say(typeof backups === 'string' ? backups : backups.summary);
if (typeof backups !== 'string') backups.startSchedule();
say(`Logs in ${join(local, 'logs')}. Ctrl-C stops everything.`);
