/**
 * Benchmark harness: the whole stack on real PostgreSQL and NATS (DATABASE_URL / NATS_URL, else local
 * servers), the gateway on a real HTTP port, and a demo company with credentials.
 */
import { createLogger } from '@bm/logger';
import { type HandlerContext, todayIn } from '@bm/messaging';
import { forkFor } from '@bm/service-kit';
import { ensureDatabase, ensureInfrastructure } from '@bm/testing/infra';
import { startGateway } from '../gateway/src/main.js';
import { startInvoicing } from '../services/invoicing/src/service.js';
import { startReporting } from '../services/reporting/src/service.js';
import { startWarehouse } from '../services/warehouse/src/service.js';

export async function startBenchStack() {
  const infra = await ensureInfrastructure({ log: () => {} });
  const databaseUrl = await ensureDatabase(infra.databaseUrl, `bench_${Date.now()}`);
  const config = { DATABASE_URL: databaseUrl, NATS_URL: infra.natsUrl, LOG_LEVEL: 'warn' as const };
  const warehouse = await startWarehouse(config);
  const invoicing = await startInvoicing(config);
  const reporting = await startReporting(config);
  const adminToken = 'bench-admin-token-0123456789';
  const gateway = await startGateway({
    ...config,
    LOG_LEVEL: 'warn',
    PORT: 0,
    ADMIN_TOKEN: adminToken,
    REQUEST_TIMEOUT_MS: 30_000,
    BODY_LIMIT_BYTES: 8 * 1024 * 1024,
    AUTH_CACHE_TTL_MS: 60_000,
  });
  const baseUrl = `http://127.0.0.1:${gateway.port}`;
  const res = await fetch(`${baseUrl}/admin/companies`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench s.r.o.',
      country: 'SK',
      vatNumber: 'SK2020999999',
      iban: 'SK3112000000198742637541',
    }),
  });
  const creds = await res.json();
  const headers = {
    Authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
    ClientID: creds.clientId,
    ClientSecret: creds.clientSecret,
    CompanyID: creds.companyId,
    'Content-Type': 'application/json',
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  const log = createLogger('bench', 'warn');
  /** A per-call context for calling a service's use cases in-process (what a NATS message would get). */
  const directCtx = (): HandlerContext<any> & { em: any } => {
    const ctx = {
      companyId: creds.companyId,
      userId: 'bench',
      requestId: crypto.randomUUID(),
      timeZone: 'Europe/Bratislava',
    };
    return { ...ctx, log, em: forkFor(warehouse.kit.orm, ctx) };
  };
  return {
    baseUrl,
    headers,
    call,
    creds,
    databaseUrl,
    today: todayIn('Europe/Bratislava'),
    services: { warehouse, invoicing, reporting },
    directCtx,
    stop: async () => {
      await gateway.stop();
      await Promise.all([warehouse.stop(), invoicing.stop(), reporting.stop()]);
      await infra.stop();
    },
  };
}

/** Percentile of a sorted array. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Runs `fn` with `concurrency` loops for `ms`; returns per-call latencies (ms). */
export async function closedLoop(
  fn: () => Promise<unknown>,
  concurrency: number,
  ms: number,
): Promise<{ latencies: number[]; errors: number; seconds: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  const until = t0 + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const s = performance.now();
        try {
          await fn();
          latencies.push(performance.now() - s);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), errors, seconds: (performance.now() - t0) / 1000 };
}
