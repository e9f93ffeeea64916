/**
 * Issue #46 "a flood must not cost the others the machine", in one run through a real gateway process:
 * a client on 127.0.0.2 makes first calls with valid credentials (never cached: AUTH_CACHE_TTL_MS=1, so
 * each runs the password hash) alone, and during a flood of wrong credentials from 127.0.0.1 over 64
 * keep-alive connections (autocannon), once with the tarpit off (AUTH_TARPIT_MS=0: every 429 at once,
 * as before) and once with it on (the default: held up to 1 s). The flooding address's failure budget is
 * used up first (shared in PostgreSQL, it stays used up across the gateway's restarts), so both floods
 * meet the same refusals; only their timing differs.
 * Usage: pnpm bench auth-flood   (CALLS per series, default 15; FLOOD_CONNECTIONS, default 64)
 */
import { request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import { pct, startBenchStack } from './support.js';

const CALLS = Number(process.env.CALLS ?? 15);
const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 64);

const s = await startBenchStack();
const port = Number(new URL(s.baseUrl).port);
const credentialHeaders = { ...s.headers } as Record<string, string>;
delete credentialHeaders['Content-Type'];

/** One first call from 127.0.0.2 on a new connection; resolves to [status, ms]. */
const firstCall = () =>
  new Promise<[number, number]>((resolve, reject) => {
    const t0 = performance.now();
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress: '127.0.0.2',
        path: '/1.6/units',
        headers: { ...credentialHeaders, Connection: 'close' },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve([res.statusCode ?? 0, performance.now() - t0]));
      },
    );
    req.on('error', reject);
    req.end();
  });

/** `CALLS` first calls one after another; the p50 and the statuses. */
async function series(): Promise<{ p50: number; statuses: number[] }> {
  const out: [number, number][] = [];
  for (let i = 0; i < CALLS; i++) out.push(await firstCall());
  return {
    p50: pct(
      out.map(([, t]) => t).sort((a, b) => a - b),
      50,
    ),
    statuses: out.map(([st]) => st),
  };
}

const random = () => Math.random().toString(36).slice(2);

/** Floods until `until` resolves (after the flood has answered `warm` requests); its request rate and statuses. */
async function flood<T>(warm: number, until: () => Promise<T>) {
  const statuses: Record<string, number> = {};
  const instance = autocannon({
    url: `${s.baseUrl}/1.6/units`,
    connections: CONNECTIONS,
    duration: 600,
    requests: [
      {
        setupRequest: (req: any) => ({
          ...req,
          headers: {
            Authorization: `Basic ${Buffer.from(`u${random()}:${random()}`).toString('base64')}`,
            ClientID: `cli_${random()}`,
            ClientSecret: random(),
            CompanyID: s.creds.companyId,
          },
        }),
      },
    ],
  });
  (instance as unknown as NodeJS.EventEmitter).on('response', (_c: unknown, status: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const answered = () => Object.values(statuses).reduce((a, b) => a + b, 0);
  while (answered() < warm) await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  const n0 = answered();
  const value = await until();
  const perSecond = ((answered() - n0) * 1000) / (performance.now() - t0);
  (instance as unknown as { stop(): void }).stop();
  await instance;
  return { value, perSecond, statuses };
}

const gatewayReady = async () => (await fetch(`${s.baseUrl}/health/live`)).ok;
const rows: string[] = [];
try {
  // Warm-up: the flooding address uses up its failure budget (its guesses hashed, then 401/429).
  await s.restart('gateway/src/main.ts', { AUTH_CACHE_TTL_MS: '1' }, gatewayReady);
  await firstCall();
  const warm = await flood(CONNECTIONS, async () => {
    await new Promise((r) => setTimeout(r, 8000));
  });
  console.log(`warm-up flood: ${JSON.stringify(warm.statuses)}`);

  const alone = await series();
  rows.push(
    `| alone (before) | – | ${alone.p50.toFixed(1)} | 1.00× | ${alone.statuses.every((x) => x === 200)} |`,
  );
  for (const [label, holdMs] of [
    ['flood, tarpit off (AUTH_TARPIT_MS=0)', '0'],
    ['flood, tarpit on (default 1000 ms)', '1000'],
  ] as const) {
    await s.restart('gateway/src/main.ts', { AUTH_CACHE_TTL_MS: '1', AUTH_TARPIT_MS: holdMs }, gatewayReady);
    await firstCall();
    const f = await flood(CONNECTIONS * 2, series);
    rows.push(
      `| ${label} | ${f.perSecond.toFixed(0)} | ${f.value.p50.toFixed(1)} | ${(f.value.p50 / alone.p50).toFixed(2)}× | ${f.value.statuses.every((x) => x === 200)} |`,
    );
  }
  const after = await series();
  rows.push(
    `| alone (after) | – | ${after.p50.toFixed(1)} | ${(after.p50 / alone.p50).toFixed(2)}× | ${after.statuses.every((x) => x === 200)} |`,
  );
} finally {
  await s.stop();
}
console.log(
  `\n${CONNECTIONS} flood connections from 127.0.0.1; ${CALLS} first calls per row from 127.0.0.2:\n`,
);
console.log('| series | flood requests/s | first call p50 ms | vs alone | all 200 |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
