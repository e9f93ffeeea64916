/**
 * RPO 0 for the local stack (issue #36; DESIGN §6c), run by `pnpm start`: Barman's WAL receiver is a
 * synchronous standby (`synchronous_standby_names = 'barman_receive_wal'`), so PostgreSQL acknowledges a
 * commit only once its WAL is flushed in `BACKUP_DIR`. `barman cron` starts the receiver and archives the
 * WAL it received; this watch runs it, and keeps writes from hanging when the receiver stops:
 *
 * - the receiver streams: `synchronous` (RPO 0);
 * - it has not streamed for `downAfterMs` (1.5 s): `degraded`: `synchronous_standby_names` is emptied, so
 *   writes carry on (commits waiting are released) with the RPO of the last WAL received, the log and
 *   `.local/status/receiver.json` (readiness, metric `bm_wal_receiver_up`) say why, and `barman cron` is
 *   run every 2 s to start the receiver again;
 * - it streams again: back to `synchronous` by itself.
 * Writes never answer 503 for it: the documented degraded mode is "carry on, RPO > 0 until it is back".
 */
import pg from 'pg';
import { barman, RECEIVER_NAME, SERVER } from './barman.js';
import { writeStatus } from './local-paths.js';

/**
 * `synchronous`: the receiver is the synchronous standby (single node); `streaming`: it streams
 * asynchronously from a cluster's primary, whose synchronous standby is a PostgreSQL node (issue #46).
 */
export type ReceiverMode = 'synchronous' | 'streaming' | 'degraded' | 'starting';

export interface ReceiverStatus {
  mode: ReceiverMode;
  up: boolean;
  /** Why it is degraded. */
  reason: string | null;
  since: string;
  /** The last time the receiver was seen streaming. */
  lastStreamingAt: string | null;
}

export interface WalWatch {
  status(): ReceiverStatus;
  stop(): Promise<void>;
}

/** Sets the synchronous standby names (`''`: none) and reloads the configuration. */
async function setSync(db: pg.Pool, names: string, manage = true): Promise<void> {
  if (!manage) return;
  await db.query(`alter system set synchronous_standby_names = '${names.replace(/'/g, "''")}'`);
  await db.query('select pg_reload_conf()');
}

async function streaming(db: pg.Pool): Promise<boolean> {
  const { rows } = await db.query<{ state: string }>(
    'select state from pg_stat_replication where application_name = $1',
    [RECEIVER_NAME],
  );
  return rows.some((r) => r.state === 'streaming');
}

/**
 * Starts the receiver and the watch; resolves once the receiver streams and commits wait for it (or,
 * when it does not come within `startWithinMs`, in degraded mode, saying so).
 */
export async function startWalWatch(o: {
  backupDir: string;
  databaseUrl: string;
  log: (line: string) => void;
  intervalMs?: number;
  downAfterMs?: number;
  startWithinMs?: number;
  /** How long a receiver back after a degradation must stream before commits wait for it again, ms. */
  steadyMs?: number;
  /**
   * Make the receiver the synchronous standby (default). False for a Patroni cluster (issue #46): Patroni
   * owns `synchronous_standby_names` (a PostgreSQL standby), and the receiver streams through the stable
   * address from whichever node is primary, on the permanent slot Patroni keeps there.
   */
  synchronous?: boolean;
}): Promise<WalWatch> {
  const upMode: ReceiverMode = o.synchronous === false ? 'streaming' : 'synchronous';
  const interval = o.intervalMs ?? 500;
  const downAfter = o.downAfterMs ?? 1500;
  // A pool of one: after a failover (issue #46) its next query connects to the new primary.
  const db = new pg.Pool({ connectionString: o.databaseUrl, application_name: 'bm_wal_watch', max: 1 });
  db.on('error', () => {});
  await barman(o.backupDir, ['receive-wal', '--create-slot', SERVER]).catch((e: Error) => {
    if (!/already exists/i.test(e.message)) throw e;
  });
  let cronRunning: Promise<unknown> | null = null;
  let lastCron = 0;
  const cron = () => {
    if (cronRunning) return;
    lastCron = Date.now();
    cronRunning = barman(o.backupDir, ['cron'], 120_000)
      .catch((e: Error) => o.log(`backup: barman cron failed: ${e.message.split('\n')[0]}`))
      .finally(() => (cronRunning = null));
  };
  let status: ReceiverStatus = {
    mode: 'starting',
    up: false,
    reason: 'the WAL receiver is starting',
    since: new Date().toISOString(),
    lastStreamingAt: null,
  };
  const publish = (next: Partial<ReceiverStatus>) => {
    status = { ...status, ...next };
    writeStatus('receiver', status);
  };
  /** Waits up to `ms` for the receiver to stream. */
  const awaitStreaming = async (ms: number) => {
    const t0 = Date.now();
    while (!(await streaming(db)) && Date.now() - t0 < ms) {
      if (Date.now() - lastCron > 2000) cron();
      await new Promise((r) => setTimeout(r, 200));
    }
    return streaming(db);
  };
  /**
   * Barman starts pg_receivewal with `--synchronous` (a flush and a reply for every WAL write) only when
   * its name is in `synchronous_standby_names` as it starts: so the name is set first, then the receiver
   * is (re)started. Commits wait meanwhile, for as long as it takes to connect.
   */
  const startSynchronous = async (withinMs: number): Promise<boolean> => {
    await setSync(db, RECEIVER_NAME, upMode === 'synchronous');
    await barman(o.backupDir, ['receive-wal', '--stop', SERVER], 30_000).catch(() => {});
    await cronRunning;
    cron();
    await cronRunning;
    if (await awaitStreaming(withinMs)) {
      const now = new Date().toISOString();
      publish({ mode: upMode, up: true, reason: null, since: now, lastStreamingAt: now });
      return true;
    }
    await setSync(db, '', upMode === 'synchronous');
    return false;
  };
  if (!(await startSynchronous(o.startWithinMs ?? 30_000))) {
    const reason = 'the WAL receiver did not start: RPO > 0 until it does';
    publish({ mode: 'degraded', up: false, reason, since: new Date().toISOString() });
    o.log(`backup: ${reason} (see BACKUP_DIR/barman.log); writes carry on`);
  }

  let stopped = false;
  let downSince: number | null = null;
  /** Since when the receiver streams (while degraded: it must stream steadily before commits wait for it). */
  let upSince: number | null = null;
  const steadyMs = o.steadyMs ?? 2000;
  let ticking: Promise<void> = Promise.resolve();
  const tick = async () => {
    const up = await streaming(db);
    const now = Date.now();
    if (up) {
      downSince = null;
      upSince ??= now;
      if (status.mode !== upMode) {
        // Back, but started while degraded (without --synchronous): started again as a synchronous standby,
        // once it has streamed for `steadyMs` (a receiver that keeps dying is not waited for by every
        // commit), and commits wait at most 3 s for it to reconnect, within any request's deadline.
        if (now - upSince >= steadyMs && (await startSynchronous(3000)))
          o.log('backup: the WAL receiver streams again: commits wait for it (RPO 0)');
      } else if (!status.lastStreamingAt || now - Date.parse(status.lastStreamingAt) > 10_000)
        publish({ lastStreamingAt: new Date(now).toISOString() });
      if (now - lastCron > 30_000) cron();
      return;
    }
    downSince ??= now;
    upSince = null;
    if (status.mode === upMode && now - downSince >= downAfter) {
      await setSync(db, '', upMode === 'synchronous');
      const reason = `the WAL receiver stopped streaming at ${status.lastStreamingAt ?? 'start'}: writes carry on, RPO > 0 until it is back`;
      publish({ mode: 'degraded', up: false, reason, since: new Date(now).toISOString() });
      o.log(`backup: DEGRADED: ${reason}`);
    }
    if (now - lastCron > 2000) cron();
  };
  /** The last failure said, so a database away for a while (a failover, issue #46) is said once, not twice a second. */
  let lastFailure = '';
  const timer = setInterval(() => {
    ticking = ticking
      .then(() => (stopped ? undefined : tick()))
      .then(
        () => {
          if (lastFailure) o.log('backup: the watch reaches the database again');
          lastFailure = '';
        },
        (e: Error) => {
          if (e.message !== lastFailure)
            o.log(`backup: watch failed: ${e.message} (said once until it changes)`);
          lastFailure = e.message;
        },
      );
  }, interval);
  return {
    status: () => status,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await ticking;
      await setSync(db, '', upMode === 'synchronous').catch(() => {});
      await db.end().catch(() => {});
      await cronRunning;
      await barman(o.backupDir, ['receive-wal', '--stop', SERVER], 30_000).catch(() => {});
    },
  };
}
