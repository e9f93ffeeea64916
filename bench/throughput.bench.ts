/**
 * Issue #13 benchmark: documents per second through the gateway and CPU per document of every process,
 * in one run: five-row FIFO issue cards (ordner VY) and ten-row sales invoices with two VAT rates (ordner
 * OF) of one company, at 1, 8 and 32 connections (autocannon on the same machine), plus an open-loop run
 * at a fixed offered rate for the p99.
 * Usage: pnpm bench throughput   (DURATION_MS 10000, CONNECTIONS "1,8,32", OFFERED_RATE 500 (0: no open-loop run);
 *        COMPANIES 1: spread the documents over that many companies (each its own ordners, items, stock);
 *        WAREHOUSE_REPLICAS / INVOICING_REPLICAS 1: replicas of the services;
 *        CPU_PROF_DIR=<dir> to write a V8 CPU profile of every process;
 *        PG_STAT_STATEMENTS=1 to print PostgreSQL's time per statement of each run)
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuPerDocument, cpuSnapshot, processGroups } from './cpu.js';
import { type BenchCompany, issueCardBody, prepareCompany, salesInvoiceBody } from './load.js';
import { startBenchStack } from './support.js';

const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONNECTIONS = (process.env.CONNECTIONS ?? '1,8,32').split(',').map(Number);
const OFFERED = Number(process.env.OFFERED_RATE ?? 500);
const COMPANIES = Number(process.env.COMPANIES ?? 1);
const ITEMS = COMPANIES > 1 ? 50 : 1000;

const s = await startBenchStack();
const rows: string[] = [];
const statements: string[] = [];
/** The answers that were not 2xx, by status and problem code (a count without them says nothing). */
const refused = new Map<string, number>();
try {
  for (let i = 1; i < Number(process.env.WAREHOUSE_REPLICAS ?? 1); i++)
    await s.addReplica('services/warehouse/src/main.ts');
  for (let i = 1; i < Number(process.env.INVOICING_REPLICAS ?? 1); i++)
    await s.addReplica('services/invoicing/src/main.ts');
  const prepare = (headers: Record<string, string>) => prepareCompany(s, headers, ITEMS);
  const companies: BenchCompany[] = [await prepare(s.headers)];
  for (let i = 1; i < COMPANIES; i++) companies.push(await prepare(await s.newCompany(`Bench ${i} s.r.o.`)));
  /** The company of the next request (round robin). */
  let turn = 0;
  const next = () => companies[turn++ % companies.length];
  const card = (co: BenchCompany) => issueCardBody(co, s.today);
  const invoice = (co: BenchCompany) => salesInvoiceBody(co, s.today);
  const kinds = [
    { label: 'issue card, 5 rows, FIFO', path: '/1.6/warehouses/issue-cards', body: card },
    { label: 'sales invoice, 10 rows, two VAT rates', path: '/1.6/sales/invoices', body: invoice },
  ];
  const groups = processGroups(() => s.pids());
  /** PG_STAT_STATEMENTS=1: PostgreSQL's time per statement over each measured run (its profile). */
  const stats = process.env.PG_STAT_STATEMENTS === '1' ? new pg.Client(s.databaseUrl) : undefined;
  if (stats) {
    await stats.connect();
    await stats.query('create extension if not exists pg_stat_statements');
  }
  const measure = async (k: (typeof kinds)[number], connections: number, rate?: number) => {
    await stats?.query('select pg_stat_statements_reset()');
    const before = cpuSnapshot(groups);
    const r = await autocannon({
      url: `${s.baseUrl}${k.path}`,
      connections,
      duration: DURATION / 1000,
      ...(rate ? { overallRate: rate } : {}),
      requests: [
        {
          method: 'POST',
          setupRequest: (req: any) => {
            const co = next();
            return { ...req, headers: co.headers, body: k.body(co) };
          },
          onResponse: (status: number, body: string) => {
            if (status < 300) return;
            let code = '?';
            try {
              code = JSON.parse(body).code ?? '?';
            } catch {}
            const key = `${k.path} ${status} ${code}`;
            refused.set(key, (refused.get(key) ?? 0) + 1);
          },
        },
      ],
    });
    const docs = r['2xx'];
    const cpu = cpuPerDocument(groups, before, Math.max(docs, 1));
    if (stats) {
      const top = await stats.query(
        `select calls, total_exec_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as q
           from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
          order by total_exec_time desc limit 40`,
      );
      statements.push(
        `\n${k.label}, ${rate ? `${rate}/s offered` : `${connections} conn.`}: ${docs} documents`,
      );
      statements.push('| calls per document | exec ms per document | statement |', '|---|---|---|');
      for (const t of top.rows)
        statements.push(
          `| ${(Number(t.calls) / Math.max(docs, 1)).toFixed(2)} | ${(Number(t.total_exec_time) / Math.max(docs, 1)).toFixed(3)} | \`${String(t.q).replaceAll('|', '\\|')}\` |`,
        );
    }
    const order = ['total', 'warehouse', 'invoicing', 'postgresql', 'gateway', 'nats', 'reporting'];
    rows.push(
      `| ${k.label} | ${rate ? `${rate}/s offered, ${connections} conn.` : connections} | ${(docs / (DURATION / 1000)).toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} | ${order.map((n) => `${n} ${cpu[n].toFixed(2)}`).join(', ')} |`,
    );
  };
  for (const k of kinds) {
    for (const c of CONNECTIONS) await measure(k, c);
    if (OFFERED) await measure(k, 64, OFFERED);
  }
  await stats?.end();
} finally {
  await s.stop();
}
console.log(
  `\n${DURATION / 1000} s each, ${COMPANIES} ${COMPANIES === 1 ? 'company' : 'companies'} (default ordners), warehouse ×${process.env.WAREHOUSE_REPLICAS ?? 1}, invoicing ×${process.env.INVOICING_REPLICAS ?? 1}, all processes on this machine:\n`,
);
console.log(
  '| document | connections | documents/s | p50 ms | p99 ms | non-2xx | CPU ms per document by process |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
if (refused.size) console.log(`\nnot 2xx: ${[...refused].map(([k, n]) => `${n} × ${k}`).join('; ')}`);
for (const r of statements) console.log(r);
