/**
 * Issue #24 benchmark: this checkout beside an earlier commit, in one run on one machine. Two stacks are
 * up at once (each its own PostgreSQL, nats-server and processes; the earlier commit's from a git
 * worktree), each prepared and warmed up, then measured in turn, best of `ROUNDS` rounds: issue cards
 * and sales invoices per second through the gateway at `CONNECTIONS` connections, CPU milliseconds per
 * document of every process of that stack, and how busy the machine's cores were.
 * Usage: pnpm bench compare   (BASE_REF: the earlier commit, default the one before issue #24's work;
 *        DURATION_MS 10000; CONNECTIONS 32; ROUNDS 2; COMPANIES 1 (20: the documents spread over 20))
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cpuPerDocument, cpuSnapshot, machineBusy, machineTicks, stackGroups } from './cpu.js';
import {
  type BenchCompany,
  issueCardBody,
  prepareCompany,
  salesInvoiceBody,
  stockedSalesInvoiceBody,
} from './load.js';
import { startBenchStack } from './support.js';

/** The last commit before issue #24's work: the "commit before" of its acceptance. */
const DEFAULT_BASE = '3f051a0';
const BASE_REF = process.env.BASE_REF ?? DEFAULT_BASE;
const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const COMPANIES = Number(process.env.COMPANIES ?? 1);
const ITEMS = COMPANIES > 1 ? 50 : 1000;
const CORES = cpus().length;

const repo = join(import.meta.dirname, '..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

/** A worktree of `ref` with its dependencies installed (kept under `.local/` for the next run). */
function worktreeOf(ref: string): string {
  const sha = git('rev-parse', '--short', ref);
  const dir = join(repo, '.local', `bench-${sha}`);
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(join(repo, '.local'), { recursive: true });
    git('worktree', 'add', '--force', '--detach', dir, sha);
  }
  if (!existsSync(join(dir, 'node_modules')))
    execFileSync('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], {
      cwd: dir,
      stdio: 'inherit',
    });
  return dir;
}

type Stack = Awaited<ReturnType<typeof startBenchStack>>;

/** Removes a stopped stack's data folder, and its cluster where PostgreSQL kept it elsewhere (infra.ts). */
function removeData(dataDir: string): void {
  const moved = join(dataDir, 'pgdata-location');
  if (existsSync(moved)) rmSync(readFileSync(moved, 'utf8').trim(), { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
interface Side {
  label: string;
  stack: Stack;
  /** Its PostgreSQL and NATS data: removed after the run (each run used to leave 0.5 GB behind). */
  dataDir: string;
  groups: ReturnType<typeof stackGroups>;
  companies: BenchCompany[];
  turn: number;
}

/** Starts one side's stack from `root` and prepares its companies. */
async function side(label: string, root: string): Promise<Side> {
  const dataDir = join(tmpdir(), `bm-compare-${label}-${process.pid}`);
  const stack = await startBenchStack({ root, dataDir });
  try {
    const companies = [await prepareCompany(stack, stack.headers, ITEMS)];
    for (let i = 1; i < COMPANIES; i++)
      companies.push(await prepareCompany(stack, await stack.newCompany(`Bench ${i} s.r.o.`), ITEMS));
    return { label, stack, dataDir, groups: stackGroups(() => stack.pids(), dataDir), companies, turn: 0 };
  } catch (e) {
    // A stack whose set-up failed is stopped here: no process of it outlives the benchmark.
    await stack.stop();
    throw e;
  }
}

const kinds = [
  { label: 'issue cards', path: '/1.6/warehouses/issue-cards', body: issueCardBody },
  { label: 'sales invoices', path: '/1.6/sales/invoices', body: salesInvoiceBody },
  { label: 'stocked sales invoices', path: '/1.6/sales/invoices', body: stockedSalesInvoiceBody },
] as const;

interface Result {
  perSecond: number;
  cpu: Record<string, number>;
  /** Share of all cores the stack's processes used, 0–1. */
  busy: number;
  /** Share of all cores busy, whatever the process (the stack, the load generator, the rest), 0–1. */
  machine: number;
  /** CPU ms per document of this benchmark's own process: the load generator (autocannon). */
  generator: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** One measured run of `kind` against `s`. */
async function measure(s: Side, kind: (typeof kinds)[number], ms: number): Promise<Result> {
  const before = cpuSnapshot(s.groups);
  const ticks = machineTicks();
  const own = process.cpuUsage();
  const t0 = performance.now();
  const r = await autocannon({
    url: `${s.stack.baseUrl}${kind.path}`,
    connections: CONNECTIONS,
    duration: ms / 1000,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: any) => {
          const co = s.companies[s.turn++ % s.companies.length];
          return { ...req, headers: co.headers, body: kind.body(co, s.stack.today) };
        },
      },
    ],
  });
  const seconds = (performance.now() - t0) / 1000;
  const machine = machineBusy(ticks, machineTicks());
  const used = process.cpuUsage(own);
  const docs = r['2xx'];
  const cpu = cpuPerDocument(s.groups, before, Math.max(docs, 1));
  return {
    perSecond: docs / seconds,
    cpu,
    busy: (cpu.total * docs) / 1000 / seconds / CORES,
    machine,
    generator: (used.user + used.system) / 1000 / Math.max(docs, 1),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors,
  };
}

const baseRoot = worktreeOf(BASE_REF);
const head = git('rev-parse', '--short', 'HEAD');
const dirty = git('status', '--porcelain', '--untracked-files=no') ? '+changes' : '';
console.log(`base ${BASE_REF} (${baseRoot}) beside head ${head}${dirty}; ${CORES} cores`);
const base = await side('base', baseRoot);
const sides = [
  base,
  await side('head', repo).catch(async (e) => {
    await base.stack.stop();
    throw e;
  }),
];
try {
  // Warm-up: JIT, pools, caches of both.
  for (const s of sides) for (const k of kinds) await measure(s, k, 3000);
  const best = new Map<string, Result>();
  for (let round = 1; round <= ROUNDS; round++)
    for (const k of kinds)
      for (const s of sides) {
        const r = await measure(s, k, DURATION);
        const key = `${s.label} ${k.label}`;
        console.log(
          `round ${round} ${key}: ${r.perSecond.toFixed(0)}/s, ${r.cpu.total.toFixed(2)} ms CPU each, ${(r.busy * 100).toFixed(0)} % busy (machine ${(r.machine * 100).toFixed(0)} %)`,
        );
        if (!best.has(key) || r.perSecond > best.get(key)!.perSecond) best.set(key, r);
      }
  const order = ['total', 'gateway', 'warehouse', 'invoicing', 'postgresql', 'nats', 'reporting'];
  console.log(
    `\n${DURATION / 1000} s per run, best of ${ROUNDS}, ${CONNECTIONS} connections, ${COMPANIES} ${COMPANIES === 1 ? 'company' : 'companies'}:\n`,
  );
  console.log(
    '| document | commit | documents/s | p50 ms | p99 ms | non-2xx | cores busy (stack / machine) | load generator CPU ms per document | CPU ms per document by process |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const k of kinds)
    for (const s of sides) {
      const r = best.get(`${s.label} ${k.label}`)!;
      console.log(
        `| ${k.label} | ${s.label === 'base' ? BASE_REF : `${head}${dirty}`} | ${r.perSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${(r.busy * 100).toFixed(0)} % / ${(r.machine * 100).toFixed(0)} % | ${r.generator.toFixed(2)} | ${order.map((n) => `${n} ${(r.cpu[n] ?? 0).toFixed(2)}`).join(', ')} |`,
      );
    }
  console.log('');
  for (const k of kinds) {
    const b = best.get(`base ${k.label}`)!;
    const h = best.get(`head ${k.label}`)!;
    console.log(
      `${k.label}: ${(h.perSecond / b.perSecond).toFixed(2)}× the documents per second, CPU per document ${(h.cpu.total / b.cpu.total).toFixed(2)}× the base's`,
    );
  }
} finally {
  for (const s of sides) {
    await s.stack.stop();
    removeData(s.dataDir);
  }
}
