/**
 * `pnpm restore latest` (issue #36): after a disaster, with the stack stopped, the data directory of the
 * local PostgreSQL restored to the last committed transaction: the newest base backup, the archived WAL
 * and the WAL received after it (RPO 0). A data directory still there is kept aside, renamed
 * `pgdata.before-restore-<time>`. Refuses while the stack runs.
 *
 * `pnpm restore --to <ISO time> --target <dir>`: a point-in-time copy in another directory (created if
 * missing; ISO 8601 with `Z` or an offset), recovered to that time and promoted, then stopped: a data
 * directory PostgreSQL 15 opens with the same credentials. It never replaces the live data: numbers and
 * e-invoices issued after that time have already left the company (docs/operations.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '@bm/testing/infra';
import { barmanInstalled, confOf, listBackups } from './ops/barman.js';
import { alive, backupDir, dataDir, localDatabaseUrl, localDir } from './ops/local-paths.js';
import { ownSettings, recoverInto, startCopy, systemPgBin, withPort } from './ops/restore-copy.js';

const fail = (m: string): never => {
  // Written at once: process.exit would drop what a pipe has not taken yet.
  writeSync(2, `pnpm restore: ${m}\n`);
  process.exit(2);
};
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { to: { type: 'string' }, target: { type: 'string' } },
});
const dir = backupDir();
if (!barmanInstalled()) fail('barman is not installed (apt-get install barman)');
if (!existsSync(confOf(dir))) fail(`no backup in ${dir} (BACKUP_DIR): nothing to restore from`);
const done = (await listBackups(dir)).filter((b) => b.status === 'DONE');
if (!done.length) fail(`no finished base backup in ${dir}`);

if (positionals[0] === 'latest' && !values.to) {
  const stackPid = Number(
    (existsSync(join(localDir(), 'stack.pid')) && readFileSync(join(localDir(), 'stack.pid'), 'utf8')) || 0,
  );
  if (stackPid && alive(stackPid))
    fail(`the stack is running (pid ${stackPid}): stop it first (Ctrl-C), then restore`);
  // A PG_CLUSTER stack (issue #46) has three data directories and a leader in etcd: a lost node is
  // rebuilt by Patroni from the others; this command restores a single server's.
  if (existsSync(join(dataDir(), 'pg-cluster.json')))
    fail(
      'this stack runs a PostgreSQL cluster (PG_CLUSTER=3): a lost node is rebuilt from the others when its Patroni starts; ' +
        'restore a point-in-time copy with --to <time> --target <dir> (docs/operations.md "PostgreSQL cluster")',
    );
  const location = join(dataDir(), 'pgdata-location');
  const base = existsSync(location) ? readFileSync(location, 'utf8').trim() : dataDir();
  const pgdata = join(base, 'pgdata');
  const pid = existsSync(join(pgdata, 'postmaster.pid'))
    ? Number(readFileSync(join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0])
    : 0;
  if (pid && alive(pid)) fail(`PostgreSQL is running on ${pgdata} (pid ${pid}): stop the stack first`);
  if (existsSync(pgdata)) {
    const aside = `${pgdata}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(pgdata, aside);
    console.log(`kept the data directory that was there as ${aside}`);
  }
  const newest = done[0];
  console.log(
    `restoring base backup ${newest.id} (ended ${newest.endTime}) and every WAL after it into ${pgdata}`,
  );
  await recoverInto({ backupDir: dir, dest: pgdata, backupId: newest.id, withReceivedTail: true });
  writeSync(1, 'restored: pnpm start replays the WAL to the last committed transaction and carries on\n');
  process.exit(0);
}

if (!values.to || !values.target)
  fail('use pnpm restore latest, or pnpm restore --to <ISO time> --target <dir>');
if (!/(Z|[+-]\d{2}:?\d{2})$/.test(values.to!) || Number.isNaN(Date.parse(values.to!)))
  fail(`--to ${values.to}: an ISO 8601 time with Z or an offset, e.g. 2026-11-27T10:15:00+01:00`);
const to = new Date(values.to!);
const target = resolve(values.target!);
if (existsSync(join(target, 'PG_VERSION')))
  fail(`${target} already holds a database: choose an empty directory`);
const backup = done.find((b) => b.endTime && Date.parse(b.endTime) <= to.getTime());
if (!backup)
  fail(`no base backup ended before ${to.toISOString()} (the oldest ended ${done.at(-1)!.endTime})`);
const pgBin = systemPgBin() ?? fail('no PostgreSQL binaries (/usr/lib/postgresql/*/bin)');
// PostgreSQL runs as `postgres`: every folder above the copy must let it in.
if (process.getuid?.() === 0) {
  mkdirSync(target, { recursive: true });
  const enter = spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dirname(target)]);
  if (enter.status !== 0)
    fail(
      `the postgres user cannot enter ${dirname(target)}: choose a target it can reach (e.g. under /var/tmp) or chmod o+x the folders above it`,
    );
}
const live = localDatabaseUrl() ?? fail('no local database URL (.local/data/urls.json)');
console.log(
  `restoring base backup ${backup!.id} into ${target} and replaying the WAL to ${to.toISOString()}`,
);
await recoverInto({
  backupDir: dir,
  dest: target,
  backupId: backup!.id,
  // PostgreSQL reads `2026-11-27 10:15:00.000+00`, not the ISO `T…Z` form.
  targetTime: to.toISOString().replace('T', ' ').replace('Z', '+00'),
  withReceivedTail: true,
});
const port = await freePort();
ownSettings(target, port);
try {
  const stop = await startCopy(pgBin!, target, withPort(live!, port));
  stop();
} catch (e) {
  fail(`the copy did not recover: ${(e as Error).message}`);
}
console.log(`point-in-time copy at ${to.toISOString()} in ${target}, promoted and stopped.`);
console.log(
  `start it read-only on another port: runuser -u postgres -- ${pgBin}/pg_ctl -D ${target} -o "-p 5499 -c default_transaction_read_only=on" -l ${target}/copy.log start`,
);
console.log(
  'it never replaces the live data: numbers and e-invoices issued after that time have already left the company',
);
