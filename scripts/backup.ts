/**
 * `pnpm backup` (issue #36): a base backup of the local stack's PostgreSQL now, waiting for one that
 * `pnpm start` is taking; `pnpm backup list`: the backups (ISO times, sizes) and the recovery window;
 * `pnpm backup verify`: the newest backup restored into a scratch directory, started, and checked
 * (`pnpm check` on the copy). Each prints what it did and exits non-zero with a clear message when it
 * cannot. Needs the stack's backup folder (`BACKUP_DIR`, default `.local/backup`), which `pnpm start`
 * set up; `backup` and `verify` need the stack running (the backup reads the live server).
 */
import { existsSync, writeSync } from 'node:fs';
import { barmanInstalled, confOf, listBackups, streamingFiles } from './ops/barman.js';
import { takeBaseBackup, verifyNewest } from './ops/base-backup.js';
import { backupDir, localDatabaseUrl, readStatus } from './ops/local-paths.js';

const fail = (m: string): never => {
  // Written at once: process.exit would drop what a pipe has not taken yet.
  writeSync(2, `pnpm backup: ${m}\n`);
  process.exit(2);
};
const dir = backupDir();
const sub = process.argv[2] ?? 'now';
if (!['now', 'list', 'verify'].includes(sub))
  fail(`unknown command ${sub}: use pnpm backup, pnpm backup list or pnpm backup verify`);
if (!barmanInstalled()) fail('barman is not installed: pnpm start installs it (or apt-get install barman)');
if (!existsSync(confOf(dir)))
  fail(`no backup set up in ${dir}: start the stack once with pnpm start (BACKUP_DIR must be the same)`);
const log = (l: string) => console.log(l);
const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

try {
  if (sub === 'list') {
    const backups = await listBackups(dir);
    if (!backups.length) console.log('no base backups yet');
    for (const b of backups)
      console.log(
        `${b.id}  ${b.status.padEnd(7)} ended ${b.endTime ?? '-'}  size ${mib(b.sizeBytes)}  WAL ${mib(b.walSizeBytes)}`,
      );
    const done = backups.filter((b) => b.status === 'DONE');
    const oldest = done.at(-1);
    const receiver = readStatus<{ mode: string; lastStreamingAt: string | null }>('receiver');
    const tail = streamingFiles(dir).at(-1);
    console.log(
      oldest
        ? `recovery window: from ${oldest.endTime} to ${receiver?.mode === 'synchronous' ? 'the last committed transaction (RPO 0, the WAL is streamed synchronously)' : `the last WAL received${receiver?.lastStreamingAt ? ` (${receiver.lastStreamingAt})` : ''}`}${tail ? `, WAL ${tail}` : ''}`
        : 'recovery window: none (no base backup yet)',
    );
  } else if (sub === 'verify') {
    const url =
      localDatabaseUrl() ??
      fail('no local database URL (.local/data/urls.json): was the stack started here?');
    const r = await verifyNewest(dir, url, log);
    for (const f of r.findings) console.log(`FINDING ${f.check}: ${f.document}: ${f.message}`);
    console.log(
      r.ok
        ? `backup ${r.backupId} verified: restored, started, checks clean`
        : `pnpm backup verify: FAILED for ${r.backupId ?? '-'}: ${r.error}`,
    );
    process.exitCode = r.ok ? 0 : 1;
  } else {
    const b = await takeBaseBackup(dir, log);
    console.log(`base backup ${b.id} taken, ended ${b.endTime}, ${mib(b.sizeBytes)}, in ${dir}`);
  }
} catch (e) {
  fail((e as Error).message);
}
