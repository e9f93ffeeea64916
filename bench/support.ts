/**
 * Benchmark harness: the stack as in production, each process on its own (gateway, warehouse,
 * invoicing, reporting as child processes) on real PostgreSQL and NATS (DATABASE_URL / NATS_URL, else
 * local servers), a demo company, and an in-process ORM + NATS connection for the direct baselines.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NatsUserName } from '@bm/contracts';
import { createLogger } from '@bm/logger';
import { connect, type HandlerContext, todayIn } from '@bm/messaging';
import { forkFor, initOrm, type MikroORM, natsOptions, type ServiceKit } from '@bm/service-kit';
import { ensureDatabase, ensureInfrastructure, freePort } from '@bm/testing/infra';
import { natsEnv } from '@bm/testing/nats-auth';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts the bench stack. `root`: the checkout whose processes run (default this one; `pnpm bench compare`
 * runs an older commit's from its worktree); `dataDir`: where its own PostgreSQL and nats-server keep their
 * data (default a fresh temporary directory; unless DATABASE_URL / NATS_URL are set).
 */
export async function startBenchStack(
  opts: {
    ormOptions?: any;
    root?: string;
    dataDir?: string;
    durable?: boolean;
    /** 3: its own local PostgreSQL cluster under Patroni (issue #46) instead of one server. */
    pgCluster?: number;
  } = {},
) {
  const root = opts.root ?? repoRoot;
  const infra = await ensureInfrastructure({
    log: () => {},
    dataDir: opts.dataDir,
    durable: opts.durable,
    pgCluster: opts.pgCluster,
  });
  const databaseUrl = await ensureDatabase(infra.databaseUrl, `bench_${Date.now()}`);
  const adminToken = 'bench-admin-token-0123456789';
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NATS_URL: infra.natsUrl,
    LOG_LEVEL: 'warn',
    PORT: String(port),
    ADMIN_TOKEN: adminToken,
    REQUEST_TIMEOUT_MS: '30000',
  };
  const children: ChildProcess[] = [];
  const byFile = new Map<string, ChildProcess>();
  /** The NATS user of the process in `file` (issue #12: one user per process). */
  const userOf = (file: string): NatsUserName =>
    (['warehouse', 'invoicing', 'reporting'] as const).find((s) => file.includes(`/${s}/`)) ?? 'gateway';
  const spawnProc = (file: string, extra: Record<string, string> = {}) => {
    // CPU_PROF_DIR: every process writes a V8 CPU profile there when it exits (issue #13: profile first).
    const prof = process.env.CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`] : [];
    const c = spawn(process.execPath, [...prof, '--import', 'tsx', join(root, file)], {
      cwd: root,
      env: { ...env, ...natsEnv(infra.natsCredentials, userOf(file)), ...extra },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(c);
    byFile.set(file, c);
    return c;
  };
  // Services first (they migrate their schemas), then the gateway.
  for (const s of [
    'services/warehouse/src/main.ts',
    'services/invoicing/src/main.ts',
    'services/reporting/src/main.ts',
  ])
    spawnProc(s);
  const baseUrl = `http://127.0.0.1:${port}`;
  await new Promise((r) => setTimeout(r, 1500));
  spawnProc('gateway/src/main.ts');
  for (let i = 0; ; i++) {
    if (
      await fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error('stack did not become healthy');
    await new Promise((r) => setTimeout(r, 100));
  }
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
  const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const r = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = r.headers.get('content-type')?.includes('json') ? await r.json() : await r.arrayBuffer();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
    return json as any;
  };
  const log = createLogger('bench', 'warn');
  let orm: MikroORM | undefined;
  const nc = await connect(
    natsOptions({ NATS_URL: infra.natsUrl, ...natsEnv(infra.natsCredentials, 'admin') }, 'bench'),
  );
  if (opts.ormOptions) orm = await initOrm({ ...opts.ormOptions, clientUrl: databaseUrl, log });
  /** Replicas of `service` answering the NATS service ping. */
  const countResponders = async (service: string): Promise<number> => {
    let n = 0;
    const replies = await nc
      .requestMany(`$SRV.PING.${service}`, undefined, { strategy: 'stall', stall: 50, maxWait: 500 } as any)
      .catch(() => undefined);
    if (replies) for await (const _ of replies) n++;
    return n;
  };
  /** What a service handler gets: an ORM fork with the company filter, on this process's own pool. */
  const directCtx = (): HandlerContext<any> & { em: any } => {
    const ctx = {
      companyId: creds.companyId,
      userId: 'bench',
      requestId: crypto.randomUUID(),
      timeZone: 'Europe/Bratislava',
    };
    return { ...ctx, log, em: forkFor(orm!, ctx) };
  };
  const kit = { nc, orm, log, name: 'bench', instance: 'bench' } as unknown as ServiceKit;
  return {
    baseUrl,
    headers,
    call,
    creds,
    databaseUrl,
    today: todayIn('Europe/Bratislava'),
    kit,
    directCtx,
    /** The pid of each process of the stack, by name (gateway, warehouse, invoicing, reporting). */
    pids: (): Record<string, number[]> => {
      const out: Record<string, number[]> = {};
      for (const c of children) {
        if (c.exitCode !== null || !c.pid) continue;
        const file = String(c.spawnargs.at(-1));
        const name = /services\/(\w+)\//.exec(file)?.[1] ?? 'gateway';
        out[name] = [...(out[name] ?? []), c.pid];
      }
      return out;
    },
    /** Starts one more replica of a service (e.g. `services/warehouse/src/main.ts`); resolves once it answers the NATS ping. */
    addReplica: async (file: string) => {
      const name = /services\/(\w+)\//.exec(file)![1];
      const before = (await countResponders(name)) ?? 0;
      spawnProc(file);
      for (let i = 0; i < 300 && (await countResponders(name)) <= before; i++)
        await new Promise((r) => setTimeout(r, 100));
    },
    /** Creates another company through the admin API; resolves to its request headers. */
    newCompany: async (name: string): Promise<Record<string, string>> => {
      const r = await fetch(`${baseUrl}/admin/companies`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, country: 'SK' }),
      });
      const c = await r.json();
      return {
        Authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
        ClientID: c.clientId,
        ClientSecret: c.clientSecret,
        CompanyID: c.companyId,
        'Content-Type': 'application/json',
      };
    },
    /** Restarts one process (e.g. `services/reporting/src/main.ts`) with extra environment, waiting until `ready`. */
    restart: async (file: string, extra: Record<string, string>, ready: () => Promise<boolean>) => {
      const old = byFile.get(file);
      if (old && old.exitCode === null) {
        old.kill('SIGTERM');
        await new Promise((r) => old.once('exit', r));
      }
      spawnProc(file, extra);
      for (let i = 0; i < 300 && !(await ready().catch(() => false)); i++)
        await new Promise((r) => setTimeout(r, 100));
    },
    stop: async () => {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(
        children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)),
      );
      await nc.close();
      await orm?.close();
      await infra.stop();
    },
  };
}

/** Percentile of a sorted array. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Runs `fn` with `concurrency` loops for `ms`; returns per-call latencies (ms), sorted. */
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
