/**
 * The backups `pnpm start` runs for its local PostgreSQL (issue #36; docs/operations.md "Backup and
 * restore"): Barman's WAL receiver as a synchronous standby (RPO 0, {@link startWalWatch}) from before the
 * first service starts, and, once the stack is up, a daily base backup with its verification
 * ({@link startBackupSchedule}). Each configuration says its RPO at start:
 *
 * - local PostgreSQL from the system (the default): RPO 0 while the receiver streams (degraded, RPO of the
 *   last WAL received, while it does not);
 * - `BACKUP=off`: no backups: losing the data directory loses everything since the stack began;
 * - a given `DATABASE_URL`: the operator's own backups (docs/operations.md gives the same set-up per
 *   service database);
 * - PostgreSQL from the npm registry (no system PostgreSQL): no Barman-compatible tools, no backups.
 */

import { existsSync } from 'node:fs';
import pg from 'pg';
import { barman, confOf, ensureBarman, SERVER, writeBarmanConfig } from './barman.js';
import { startBackupSchedule } from './base-backup.js';
import { backupDir, writeStatus } from './local-paths.js';
import { systemPgBin } from './restore-copy.js';
import { startWalWatch, type WalWatch } from './wal-watch.js';

export interface LocalBackups {
  /** One line for the terminal: where, RPO. */
  summary: string;
  /** Starts the daily base backups and their verification (after the stack is up). */
  startSchedule(): void;
  stop(): Promise<void>;
}

/**
 * Stops a WAL receiver `barman cron` started for this stack's backup folder, if any: registered before the
 * set-up begins, so a Ctrl-C during start-up leaves no receiver behind.
 */
export async function stopReceiver(): Promise<void> {
  if (existsSync(confOf(backupDir())))
    await barman(backupDir(), ['receive-wal', '--stop', SERVER], 30_000).catch(() => {});
}

/** What `pnpm start` prints when it runs no backups, and why. */
export function noBackups(reason: string): string {
  writeStatus('receiver', {
    mode: 'off',
    up: false,
    reason,
    since: new Date().toISOString(),
    lastStreamingAt: null,
  });
  return `Backups: NONE: ${reason}`;
}

/** Sets up and starts the local stack's backups; null with the reason printed when there are none. */
export async function startLocalBackups(o: {
  databaseUrl: string;
  givenDatabaseUrl: boolean;
  /** A Patroni cluster (issue #46): the receiver streams asynchronously through the stable address. */
  cluster?: boolean;
  log: (l: string) => void;
}): Promise<LocalBackups | string> {
  if (process.env.BACKUP === 'off')
    return noBackups('BACKUP=off: losing the data directory loses everything (RPO: all)');
  if (o.givenDatabaseUrl)
    return noBackups(
      'DATABASE_URL is given: its backups are yours (docs/operations.md "Backup and restore")',
    );
  const pgBin = systemPgBin();
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ v: string }>("select current_setting('server_version_num') as v");
  await db.end();
  const major = Math.floor(Number(rows[0].v) / 10000);
  const sameMajor = pgBin?.includes(`/${major}/`) ?? false;
  if (!pgBin || !sameMajor)
    return noBackups(
      `the local PostgreSQL ${major} is not the system's: Barman needs the system PostgreSQL's tools (apt-get install postgresql)`,
    );
  try {
    ensureBarman(o.log);
  } catch (e) {
    // An ordinary user without barman: the stack starts, and says loudly that nothing is backed up.
    return noBackups(`${(e as Error).message}: losing the data directory loses everything (RPO: all)`);
  }
  const dir = backupDir();
  const url = new URL(o.databaseUrl);
  writeBarmanConfig({
    backupDir: dir,
    pgBin,
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    retentionDays: Number(process.env.BACKUP_RETENTION_DAYS || 14),
  });
  const watch: WalWatch = await startWalWatch({
    backupDir: dir,
    databaseUrl: o.databaseUrl,
    log: o.log,
    synchronous: !o.cluster,
  });
  let stopSchedule: (() => Promise<void>) | null = null;
  const s = watch.status();
  return {
    summary:
      s.mode === 'synchronous'
        ? `Backups: WAL streamed synchronously to ${dir} (RPO 0: no commit is acknowledged before its WAL is there), a base backup every ${process.env.BACKUP_INTERVAL_HOURS || 24} h, kept ${process.env.BACKUP_RETENTION_DAYS || 14} days. Put BACKUP_DIR on another disk.`
        : s.mode === 'streaming'
          ? `Backups: WAL streamed to ${dir} from whichever node is primary (Barman through the stable address; RPO 0 comes from the synchronous standby), a base backup every ${process.env.BACKUP_INTERVAL_HOURS || 24} h. Put BACKUP_DIR on another disk.`
          : `Backups: DEGRADED: ${s.reason} (${dir})`,
    startSchedule: () => {
      stopSchedule = startBackupSchedule({
        backupDir: dir,
        liveUrl: o.databaseUrl,
        everyHours: Number(process.env.BACKUP_INTERVAL_HOURS || 24),
        log: o.log,
      });
    },
    stop: async () => {
      await stopSchedule?.();
      await watch.stop();
    },
  };
}
