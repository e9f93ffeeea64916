/**
 * Issue #46 benchmark: what the synchronous standby costs, side by side in one run. Two stacks run at
 * once (each with its own nats-server), only one under load at a time:
 * - **single node**: one durable local PostgreSQL (as `pnpm start` runs it, without backups);
 * - **cluster**: three durable nodes under Patroni in strict synchronous mode behind HAProxy
 *   (`PG_CLUSTER=3 pnpm start`): every commit waits until the synchronous standby has flushed it, and every
 *   connection goes through HAProxy.
 * Issue cards and sales invoices per second at `CONNECTIONS` connections, rounds alternating between the
 * two, best of `ROUNDS`.
 * Usage: pnpm bench pg-cluster   (DURATION_MS 10000; CONNECTIONS 32; ROUNDS 2)
 */
import autocannon from 'autocannon';
import { issueCardBody, prepareCompany, salesInvoiceBody } from './load.js';
import { startBenchStack } from './support.js';

const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

const stacks = {
  'single node': await startBenchStack({ durable: true }),
  'cluster, synchronous standby': await startBenchStack({ durable: true, pgCluster: 3 }),
};
type Config = keyof typeof stacks;
const companies = new Map<Config, Awaited<ReturnType<typeof prepareCompany>>>();
for (const [name, s] of Object.entries(stacks) as [Config, (typeof stacks)[Config]][])
  companies.set(name, await prepareCompany(s, s.headers, 1000));
const kinds = [
  { label: 'issue cards', path: '/1.6/warehouses/issue-cards', body: issueCardBody },
  { label: 'sales invoices', path: '/1.6/sales/invoices', body: salesInvoiceBody },
] as const;

async function measure(config: Config, kind: (typeof kinds)[number], ms: number) {
  const s = stacks[config];
  const co = companies.get(config)!;
  const t0 = performance.now();
  const r = await autocannon({
    url: `${s.baseUrl}${kind.path}`,
    connections: CONNECTIONS,
    duration: ms / 1000,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: any) => ({ ...req, headers: co.headers, body: kind.body(co, s.today) }),
      },
    ],
  });
  return {
    perSecond: r['2xx'] / ((performance.now() - t0) / 1000),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors,
  };
}

try {
  const configs = Object.keys(stacks) as Config[];
  // Warm-up: each stack's caches, prepared statements and pools.
  for (const c of configs) for (const k of kinds) await measure(c, k, 3000);
  const best = new Map<string, Awaited<ReturnType<typeof measure>>>();
  for (let round = 1; round <= ROUNDS; round++)
    for (const k of kinds)
      for (const c of configs) {
        const r = await measure(c, k, DURATION);
        const key = `${k.label}|${c}`;
        console.log(
          `round ${round} ${k.label}, ${c}: ${r.perSecond.toFixed(0)}/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}`,
        );
        if (!best.has(key) || r.perSecond > best.get(key)!.perSecond) best.set(key, r);
      }
  console.log(
    `\n${DURATION / 1000} s per run, best of ${ROUNDS}, ${CONNECTIONS} connections, durable PostgreSQL:\n`,
  );
  console.log('| document | database | documents/s | p50 ms | p99 ms | non-2xx |');
  console.log('|---|---|---|---|---|---|');
  for (const k of kinds)
    for (const c of configs) {
      const r = best.get(`${k.label}|${c}`)!;
      console.log(`| ${k.label} | ${c} | ${r.perSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
    }
  console.log('');
  for (const k of kinds) {
    const single = best.get(`${k.label}|single node`)!;
    const cluster = best.get(`${k.label}|cluster, synchronous standby`)!;
    console.log(
      `${k.label}: the cluster does ${(cluster.perSecond / single.perSecond).toFixed(2)}× the documents per second`,
    );
  }
} finally {
  for (const s of Object.values(stacks)) await s.stop();
}
