/**
 * Issue #12 "Cheap probes", in one run through a real gateway process at 16 connections (autocannon):
 * `GET /health/live` (no I/O), `GET /health/ready` (cached for at most 1 s), the same readiness with the
 * cache off (HEALTH_CACHE_MS=0: database ping, NATS link and one service ping per probe), and
 * `GET /1.6/openapi.json` (built once).
 * Usage: pnpm bench health   (DURATION_MS, CONCURRENCY to tune; prints a markdown table)
 */
import autocannon from 'autocannon';
import { startBenchStack } from './support.js';

const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);

const s = await startBenchStack();
const rows: string[] = [];
const run = async (label: string, path: string) => {
  const r = await autocannon({
    url: `${s.baseUrl}${path}`,
    connections: CONCURRENCY,
    duration: DURATION / 1000,
  });
  rows.push(
    `| ${label} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`,
  );
  return r;
};
try {
  await run('GET /health/live', '/health/live');
  await run('GET /health/ready (cached ≤ 1 s)', '/health/ready');
  await run('GET /health (= ready)', '/health');
  await run('GET /1.6/openapi.json (built once)', '/1.6/openapi.json');
  await s.restart(
    'gateway/src/main.ts',
    { HEALTH_CACHE_MS: '0' },
    async () => (await fetch(`${s.baseUrl}/health/live`)).ok,
  );
  await run('GET /health/ready, cache off (every probe checks)', '/health/ready');
} finally {
  await s.stop();
}
console.log(`\n${CONCURRENCY} connections, ${DURATION / 1000} s each, one gateway process:\n`);
console.log('| probe | requests/s | p50 ms | p99 ms | non-2xx |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
