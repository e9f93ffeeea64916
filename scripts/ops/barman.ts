/**
 * Barman (Debian's `barman`, issue #36) as the local stack uses it: one server `bm` for the stack's
 * PostgreSQL, its WAL streamed by `barman receive-wal` (pg_receivewal, a synchronous standby named
 * `barman_receive_wal`, so no commit is acknowledged before its WAL is on the backup disk: RPO 0), base
 * backups by `barman backup` (pg_basebackup), retention `RECOVERY WINDOW OF <BACKUP_RETENTION_DAYS> DAYS`
 * with the WAL every kept backup needs. Everything lives in `BACKUP_DIR`: `barman.conf`, `pgpass` (0600),
 * `barman/` (backups and WAL), `barman.log`. We write no archiver: Barman and PostgreSQL's own tools move
 * every byte; this module writes their configuration and runs them.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** The Barman server name of the local stack's PostgreSQL. */
export const SERVER = 'bm';
/** The application name pg_receivewal connects with under Barman: the synchronous standby's name. */
export const RECEIVER_NAME = 'barman_receive_wal';

export interface BarmanSetup {
  backupDir: string;
  /** The PostgreSQL binaries (pg_basebackup, pg_receivewal) of the server's major version. */
  pgBin: string;
  host: string;
  port: number;
  user: string;
  password: string;
  retentionDays: number;
}

export const confOf = (backupDir: string) => join(backupDir, 'barman.conf');

/** Whether `barman` is on this machine. */
export function barmanInstalled(): boolean {
  try {
    execFileSync('barman', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Installs Debian's `barman` when it is missing (as `pnpm start` installs nats-server). @throws when it cannot */
export function ensureBarman(log: (l: string) => void): void {
  if (barmanInstalled()) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      'barman is not installed: install it (Debian/Ubuntu: sudo apt-get install barman) or set BACKUP=off',
    );
  log('installing barman (Debian package) for continuous backups…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', 'barman'], { env, stdio: 'ignore' });
  } catch {
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'barman'], { env, stdio: 'ignore' });
  }
  if (!barmanInstalled()) throw new Error('barman was installed but is not on the PATH');
}

/** Writes `barman.conf` and `pgpass` into the backup folder (rewritten on every start: the port changes). */
export function writeBarmanConfig(s: BarmanSetup): string {
  mkdirSync(s.backupDir, { recursive: true });
  mkdirSync(join(s.backupDir, 'barman.d'), { recursive: true });
  mkdirSync(join(s.backupDir, 'barman'), { recursive: true });
  const pgpass = join(s.backupDir, 'pgpass');
  writeFileSync(pgpass, `${s.host}:${s.port}:*:${s.user}:${s.password.replace(/([:\\])/g, '\\$1')}\n`, {
    mode: 0o600,
  });
  chmodSync(pgpass, 0o600);
  // The password file reaches libpq as PGPASSFILE (see {@link barman}): Barman refuses a connection string
  // with a quoted value, and the folder may have a space (a clone in `~/my books`).
  const conn = `host=${s.host} port=${s.port} user=${s.user}`;
  const conf = confOf(s.backupDir);
  writeFileSync(
    conf,
    `# written by pnpm start (scripts/ops/barman.ts) on every start; docs/operations.md "Backup and restore"
[barman]
barman_home = ${join(s.backupDir, 'barman')}
barman_user = ${userInfo().username}
log_file = ${join(s.backupDir, 'barman.log')}
log_level = INFO
configuration_files_directory = ${join(s.backupDir, 'barman.d')}
minimum_redundancy = 0

[${SERVER}]
description = business-backend local PostgreSQL
conninfo = ${conn} dbname=postgres
streaming_conninfo = ${conn}
backup_method = postgres
streaming_archiver = on
streaming_archiver_name = ${RECEIVER_NAME}
slot_name = barman
create_slot = auto
path_prefix = ${s.pgBin}
retention_policy = RECOVERY WINDOW OF ${s.retentionDays} DAYS
wal_retention_policy = main
`,
    { mode: 0o600 },
  );
  return conf;
}

/** Runs `barman -c <conf> …`; resolves to its output. @throws Error with Barman's own message */
export async function barman(
  backupDir: string,
  args: string[],
  timeoutMs = 600_000,
  /** Aborting kills Barman (a base backup or a restore under way when the stack stops). */
  signal?: AbortSignal,
): Promise<string> {
  try {
    const { stdout, stderr } = await exec('barman', ['-c', confOf(backupDir), ...args], {
      // Barman's connections and the pg_receivewal / pg_basebackup it starts read the password here.
      env: { ...process.env, PGPASSFILE: join(backupDir, 'pgpass') },
      timeout: timeoutMs,
      signal,
      maxBuffer: 16 * 1024 * 1024,
    });
    return `${stdout}${stderr}`;
  } catch (e) {
    const x = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`barman ${args.join(' ')}: ${(x.stderr || x.stdout || x.message).trim()}`);
  }
}

/** A base backup as `barman list-backups` lists it. */
export interface BaseBackup {
  id: string;
  status: string;
  /** When it ended, ISO 8601. */
  endTime: string | null;
  sizeBytes: number;
  walSizeBytes: number;
}

/** The base backups, newest first. */
export async function listBackups(backupDir: string): Promise<BaseBackup[]> {
  const out = await barman(backupDir, ['-f', 'json', 'list-backups', SERVER]);
  const parsed = JSON.parse(out.slice(out.indexOf('{'))) as Record<string, any[]>;
  return (parsed[SERVER] ?? []).map((b) => ({
    id: b.backup_id,
    status: b.status,
    endTime: b.end_time_timestamp ? new Date(Number(b.end_time_timestamp) * 1000).toISOString() : null,
    sizeBytes: Number(b.size_bytes ?? 0),
    walSizeBytes: Number(b.wal_size_bytes ?? 0),
  }));
}

/** Barman's server folder (`streaming/` holds the WAL being received, `wals/` the archived WAL). */
export const serverDir = (backupDir: string) => join(backupDir, 'barman', SERVER);

/** The WAL files received but not yet archived, oldest first (the last one usually `.partial`). */
export function streamingFiles(backupDir: string): string[] {
  const dir = join(serverDir(backupDir), 'streaming');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /^[0-9A-F]{24}(\.partial)?$/.test(f))
        .sort()
    : [];
}
