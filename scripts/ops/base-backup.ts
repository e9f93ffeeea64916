/**
 * Base backups and their verification (issue #36). `pnpm start` takes one when none is recent (daily by
 * default) and verifies it; `pnpm backup` takes one now, waiting for one under way. Verifying restores the
 * newest backup into a scratch directory, starts PostgreSQL there and runs the consistency checks on the
 * copy: a backup that cannot be restored is found the day it is made.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@bm/testing/infra';
import { type BaseBackup, barman, listBackups, SERVER } from './barman.js';
import { type Finding, runChecks } from './consistency.js';
import { alive, writeStatus } from './local-paths.js';
import { ownSettings, recoverInto, removeCopy, startCopy, systemPgBin, withPort } from './restore-copy.js';

const lockOf = (backupDir: string) => join(backupDir, 'base-backup.lock');

/** Holds the base-backup lock while `work` runs; waits for a backup under way (another process's) first. */
async function underLock<T>(backupDir: string, log: (l: string) => void, work: () => Promise<T>): Promise<T> {
  const lock = lockOf(backupDir);
  let said = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch {
      const holder = Number(readFileSync(lock, 'utf8') || 0);
      if (!holder || !alive(holder)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (!said) log(`a base backup is under way (pid ${holder}): waiting for it`);
      said = true;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Takes a base backup now (after one under way); resolves to it. @throws Error with Barman's message */
export async function takeBaseBackup(
  backupDir: string,
  log: (l: string) => void,
  signal?: AbortSignal,
): Promise<BaseBackup> {
  return underLock(backupDir, log, async () => {
    // A first backup needs WAL in the archive: close the current segment and wait for it to be archived.
    await barman(
      backupDir,
      ['switch-wal', '--force', '--archive', '--archive-timeout', '120', SERVER],
      180_000,
      signal,
    ).catch((e: Error) => log(`switch-wal: ${e.message.split('\n')[0]}`));
    await barman(backupDir, ['backup', SERVER, '--wait', '--wait-timeout', '300'], 900_000, signal);
    const [newest] = (await listBackups(backupDir)).filter((b) => b.status === 'DONE');
    if (!newest) throw new Error('barman reported no finished backup');
    writeStatus('backup', { at: new Date().toISOString(), ok: true, backup: newest });
    return newest;
  });
}

export interface VerifyResult {
  at: string;
  ok: boolean;
  backupId: string | null;
  error: string | null;
  findings: Finding[];
}

/**
 * Restores the newest backup into a scratch directory (the archived WAL after it), starts PostgreSQL there
 * with the live credentials, runs the consistency checks, stops and removes it. Never touches the live
 * data. The result is left in `.local/status/verify.json`.
 */
export async function verifyNewest(
  backupDir: string,
  liveUrl: string,
  log: (l: string) => void,
  signal?: AbortSignal,
): Promise<VerifyResult> {
  const at = new Date().toISOString();
  const done = (r: Omit<VerifyResult, 'at'>) => {
    const result = { at, ...r };
    writeStatus('verify', result);
    return result;
  };
  const [newest] = (await listBackups(backupDir)).filter((b) => b.status === 'DONE');
  if (!newest)
    return done({ ok: false, backupId: null, error: 'there is no backup to verify', findings: [] });
  const pgBin = systemPgBin();
  if (!pgBin)
    return done({
      ok: false,
      backupId: newest.id,
      error: 'no PostgreSQL binaries to start the copy',
      findings: [],
    });
  const scratch = mkdtempSync(join(tmpdir(), 'bm-verify-'));
  execFileSync('chmod', ['755', scratch]);
  const dir = join(scratch, 'pgdata');
  let stop: (() => void) | null = null;
  try {
    log(`verifying backup ${newest.id}: restoring it into ${dir}`);
    await recoverInto({ backupDir, dest: dir, backupId: newest.id, withReceivedTail: false, signal });
    signal?.throwIfAborted();
    const port = await freePort();
    ownSettings(dir, port);
    const url = withPort(liveUrl, port);
    stop = await startCopy(pgBin, dir, url);
    signal?.throwIfAborted();
    const r = await runChecks(url, { stuckAfterMinutes: 1e9 });
    return done({
      ok: r.findings.length === 0,
      backupId: newest.id,
      error: r.findings.length ? `${r.findings.length} finding(s) on the restored copy` : null,
      findings: r.findings,
    });
  } catch (e) {
    return done({
      ok: false,
      backupId: newest.id,
      error: (e as Error).message.split('\n').slice(0, 6).join(' '),
      findings: [],
    });
  } finally {
    stop?.();
    removeCopy(scratch);
  }
}

/**
 * `pnpm start`'s schedule: when the newest backup is older than `everyHours` (or there is none), a base
 * backup now, then its verification; checked every ten minutes. Resolves to its stop.
 */
export function startBackupSchedule(o: {
  backupDir: string;
  liveUrl: string;
  everyHours: number;
  log: (l: string) => void;
}): () => Promise<void> {
  let stopped = false;
  // Stopping the stack aborts a backup or a verification under way: the stop does not wait minutes.
  const abort = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const due = async () => {
    const [newest] = (await listBackups(o.backupDir)).filter((b) => b.status === 'DONE');
    return !newest?.endTime || Date.now() - Date.parse(newest.endTime) > o.everyHours * 3_600_000;
  };
  const pass = async () => {
    if (stopped || !(await due())) return;
    const b = await takeBaseBackup(o.backupDir, o.log, abort.signal);
    o.log(`backup: base backup ${b.id} taken (${(b.sizeBytes / 1048576).toFixed(1)} MiB)`);
    if (stopped) return;
    const v = await verifyNewest(o.backupDir, o.liveUrl, o.log, abort.signal);
    if (stopped) return;
    o.log(
      v.ok
        ? `backup: ${b.id} verified: restored, started, checks clean`
        : `backup: VERIFY FAILED for ${b.id}: ${v.error}`,
    );
  };
  const run = () => {
    running = running.then(pass).catch((e: Error) => {
      if (stopped) return;
      writeStatus('backup', { at: new Date().toISOString(), ok: false, error: e.message });
      o.log(`backup: base backup failed: ${e.message.split('\n')[0]}`);
    });
  };
  run();
  const timer = setInterval(run, 10 * 60_000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    abort.abort();
    await running;
  };
}
