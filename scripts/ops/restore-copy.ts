/**
 * Restoring from Barman (issue #36): a data directory from a base backup and the WAL after it, either to
 * the last committed transaction (the WAL received but not yet archived, the `.partial` segment included,
 * which is what makes RPO 0 real) or to a point in time. Barman copies the backup and the archived WAL;
 * the received tail is copied here; the copy then gets settings of its own (a free port, no synchronous
 * standby) and is owned by `postgres`. PostgreSQL replays the WAL when it starts.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { barman, SERVER, serverDir, streamingFiles } from './barman.js';

/** The newest PostgreSQL binaries of the system (Debian's), or null. */
export function systemPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const v = readdirSync(root)
    .filter((d) => existsSync(join(root, d, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  return v ? join(root, v, 'bin') : null;
}

const asPostgres = (cmd: string, args: string[]) =>
  process.getuid?.() === 0
    ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
    : execFileSync(cmd, args, { stdio: 'pipe' });

/**
 * `barman recover` of backup `backupId` into `dest` (which must not hold a cluster), to `targetTime` when
 * given (and then promoted), else to the end of the WAL: with `withReceivedTail` the WAL received since the
 * last archived segment is added, so the copy reaches the last committed transaction.
 */
export async function recoverInto(o: {
  backupDir: string;
  dest: string;
  backupId: string;
  targetTime?: string;
  withReceivedTail: boolean;
  signal?: AbortSignal;
}): Promise<void> {
  mkdirSync(o.dest, { recursive: true });
  await barman(
    o.backupDir,
    [
      'recover',
      SERVER,
      o.backupId,
      o.dest,
      // The latest timeline: a copy to a time after a failover (issue #46) follows the promotion's
      // timeline switch instead of stopping where the old primary's timeline ends.
      ...(o.targetTime
        ? ['--target-time', o.targetTime, '--target-action', 'promote', '--target-tli', 'latest']
        : []),
    ],
    600_000,
    o.signal,
  );
  if (o.withReceivedTail) {
    // With a target, recovery reads WAL through restore_command from barman_wal/; without, from pg_wal/.
    const walDir = o.targetTime ? join(o.dest, 'barman_wal') : join(o.dest, 'pg_wal');
    mkdirSync(walDir, { recursive: true });
    for (const f of streamingFiles(o.backupDir))
      copyFileSync(join(serverDir(o.backupDir), 'streaming', f), join(walDir, f.replace(/\.partial$/, '')));
  }
  // The copy must not wait for a standby, nor take the live server's port.
  const auto = join(o.dest, 'postgresql.auto.conf');
  if (existsSync(auto))
    writeFileSync(
      auto,
      readFileSync(auto, 'utf8')
        .split('\n')
        .filter((l) => !/^\s*synchronous_standby_names\s*=/.test(l))
        .join('\n'),
    );
  execFileSync('chown', ['-R', 'postgres', o.dest]);
  execFileSync('chmod', ['700', o.dest]);
}

/**
 * Gives the cluster in `dir` its own port and no synchronous standby (its `local.conf`, read last by
 * postgresql.conf); the other settings the live server had (max_connections, which recovery needs at least
 * as high as the primary's) stay.
 */
export function ownSettings(dir: string, port: number): void {
  const conf = join(dir, 'postgresql.conf');
  const text = readFileSync(conf, 'utf8');
  if (!text.includes("include_if_exists = 'local.conf'"))
    writeFileSync(conf, `${text}\ninclude_if_exists = 'local.conf'\n`);
  const local = join(dir, 'local.conf');
  const kept = existsSync(local)
    ? readFileSync(local, 'utf8')
        .split('\n')
        .filter(
          (l) =>
            l.trim() &&
            !/^\s*(port|listen_addresses|unix_socket_directories|synchronous_standby_names)\s*=/.test(l),
        )
    : ['max_connections = 400'];
  writeFileSync(
    local,
    `${[...kept, `port = ${port}`, "listen_addresses = '127.0.0.1'", "unix_socket_directories = ''", "synchronous_standby_names = ''"].join('\n')}\n`,
  );
  execFileSync('chown', ['postgres', local, conf]);
}

/**
 * Starts PostgreSQL on the cluster in `dir` (port given by {@link ownSettings}) and waits until recovery has
 * ended (a point-in-time copy is promoted at its target). Resolves to its stop.
 */
export async function startCopy(pgBin: string, dir: string, url: string): Promise<() => void> {
  const logFile = join(dir, 'restore.log');
  try {
    asPostgres(join(pgBin, 'pg_ctl'), ['-D', dir, '-l', logFile, '-w', '-t', '300', 'start']);
  } catch (e) {
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
    throw new Error(`PostgreSQL did not start on the restored copy: ${(e as Error).message}\n${tail}`);
  }
  const stop = () => {
    try {
      asPostgres(join(pgBin, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']);
    } catch {
      /* stopped */
    }
  };
  try {
    for (let i = 0; ; i++) {
      const c = new pg.Client({ connectionString: url });
      try {
        await c.connect();
        const { rows } = await c.query<{ r: boolean }>('select pg_is_in_recovery() r');
        if (!rows[0].r) return stop;
      } catch {
        /* not yet */
      } finally {
        await c.end().catch(() => {});
      }
      if (i > 3000) throw new Error('the restored copy is still in recovery after 5 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (e) {
    stop();
    throw e;
  }
}

/** `url` with another port (and database). */
export function withPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}

/** Removes a scratch copy (stopping nothing: stop it first). */
export const removeCopy = (dir: string) => rmSync(dir, { recursive: true, force: true });
