/**
 * Issue #36 benchmark: the cost of RPO 0, side by side in one run on one stack. A durable local PostgreSQL
 * (fsync, synchronous_commit on: PostgreSQL's defaults, as `pnpm start` runs it) measured in turn
 * - without backups: no WAL receiver, `synchronous_standby_names` empty;
 * - with RPO 0: Barman's WAL receiver (pg_receivewal `--synchronous`) streaming to a backup folder, and every
 *   commit waiting until its WAL is flushed there (`synchronous_standby_names = 'barman_receive_wal'`);
 * issue cards and sales invoices per second at `CONNECTIONS` connections, best of `ROUNDS`, with the CPU
 * milliseconds per document. The backup folder is on the same disk here (the worst case for the disk).
 * Usage: pnpm bench rpo0   (DURATION_MS 10000; CONNECTIONS 32; ROUNDS 2)
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { barman, RECEIVER_NAME, SERVER, writeBarmanConfig } from '../scripts/ops/barman.js';
import { systemPgBin } from '../scripts/ops/restore-copy.js';
import { cpuPerDocument, cpuSnapshot, stackGroups } from './cpu.js';
import { issueCardBody, prepareCompany, salesInvoiceBody } from './load.js';
import { startBenchStack } from './support.js';

const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

const dataDir = join(tmpdir(), `bm-rpo0-${process.pid}`);
const backupDir = join(dataDir, 'backup');
const stack = await startBenchStack({ dataDir, durable: true });
const superUrl = new URL(stack.databaseUrl);
superUrl.pathname = '/postgres';
const pgBin = systemPgBin();
if (!pgBin) throw new Error('the RPO 0 bench needs the system PostgreSQL (Barman uses its tools)');
writeBarmanConfig({
  backupDir,
  pgBin,
  host: superUrl.hostname,
  port: Number(superUrl.port),
  user: decodeURIComponent(superUrl.username),
  password: decodeURIComponent(superUrl.password),
  retentionDays: 14,
});
const db = new pg.Client({ connectionString: superUrl.toString() });
await db.connect();
const setSync = async (names: string) => {
  await db.query(`alter system set synchronous_standby_names = '${names}'`);
  await db.query('select pg_reload_conf()');
};
const streaming = async () =>
  (
    await db.query(`select 1 from pg_stat_replication where application_name = $1 and state = 'streaming'`, [
      RECEIVER_NAME,
    ])
  ).rowCount! > 0;

/** `on`: the receiver streams synchronously and commits wait for it; `off`: no receiver at all. */
async function rpo0(on: boolean) {
  await setSync(on ? RECEIVER_NAME : '');
  await barman(backupDir, ['receive-wal', '--stop', SERVER]).catch(() => {});
  while (await streaming()) await new Promise((r) => setTimeout(r, 100));
  if (!on) return;
  await barman(backupDir, ['receive-wal', '--create-slot', SERVER]).catch(() => {});
  await barman(backupDir, ['cron']);
  while (!(await streaming())) await new Promise((r) => setTimeout(r, 100));
}

const co = await prepareCompany(stack, stack.headers, 1000);
const groups = stackGroups(() => stack.pids(), dataDir);
const kinds = [
  { label: 'issue cards', path: '/1.6/warehouses/issue-cards', body: issueCardBody },
  { label: 'sales invoices', path: '/1.6/sales/invoices', body: salesInvoiceBody },
] as const;

async function measure(kind: (typeof kinds)[number], ms: number) {
  const before = cpuSnapshot(groups);
  const t0 = performance.now();
  const r = await autocannon({
    url: `${stack.baseUrl}${kind.path}`,
    connections: CONNECTIONS,
    duration: ms / 1000,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: any) => ({ ...req, headers: co.headers, body: kind.body(co, stack.today) }),
      },
    ],
  });
  const docs = r['2xx'];
  return {
    perSecond: docs / ((performance.now() - t0) / 1000),
    cpu: cpuPerDocument(groups, before, Math.max(docs, 1)).total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors,
  };
}

try {
  const best = new Map<string, Awaited<ReturnType<typeof measure>>>();
  for (const on of [false, true]) {
    await rpo0(on);
    for (const k of kinds) await measure(k, 3000);
  }
  for (let round = 1; round <= ROUNDS; round++)
    for (const k of kinds)
      for (const on of [false, true]) {
        await rpo0(on);
        const r = await measure(k, DURATION);
        const key = `${k.label} ${on ? 'RPO 0' : 'no backup'}`;
        console.log(
          `round ${round} ${key}: ${r.perSecond.toFixed(0)}/s, ${r.cpu.toFixed(2)} ms CPU each, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}`,
        );
        if (!best.has(key) || r.perSecond > best.get(key)!.perSecond) best.set(key, r);
      }
  console.log(
    `\n${DURATION / 1000} s per run, best of ${ROUNDS}, ${CONNECTIONS} connections, durable PostgreSQL:\n`,
  );
  console.log(
    '| document | configuration | documents/s | p50 ms | p99 ms | non-2xx | CPU ms per document (stack) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const k of kinds)
    for (const c of ['no backup', 'RPO 0']) {
      const r = best.get(`${k.label} ${c}`)!;
      console.log(
        `| ${k.label} | ${c} | ${r.perSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.cpu.toFixed(2)} |`,
      );
    }
  console.log('');
  for (const k of kinds) {
    const off = best.get(`${k.label} no backup`)!;
    const on = best.get(`${k.label} RPO 0`)!;
    console.log(
      `${k.label}: with RPO 0 ${(on.perSecond / off.perSecond).toFixed(2)}× the documents per second, CPU per document ${(on.cpu / off.cpu).toFixed(2)}×`,
    );
  }
} finally {
  await setSync('').catch(() => {});
  await barman(backupDir, ['receive-wal', '--stop', SERVER]).catch(() => {});
  await db.end();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
