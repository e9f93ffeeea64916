/**
 * CPU time per process for the benchmarks (issue #13 "CPU per document by process"): user + system
 * time from /proc of the gateway, each service, nats-server and every PostgreSQL backend, read before and
 * after a measured run. Linux only.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds (user + system) a process has used; 0 when it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Pids whose command line matches `pattern`. */
function pidsOf(pattern: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** The process groups measured: name → how to find its pids now. */
export function processGroups(children: () => Record<string, number[]>): Record<string, () => number[]> {
  const groups: Record<string, () => number[]> = {};
  for (const name of ['gateway', 'warehouse', 'invoicing', 'reporting'])
    groups[name] = () => children()[name] ?? [];
  groups.postgresql = () => pidsOf('^postgres');
  groups.nats = () => pidsOf('nats-server');
  return groups;
}

/** Snapshot of CPU seconds per group, per pid (so backends that come and go are counted from their start). */
export function cpuSnapshot(groups: Record<string, () => number[]>): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const [name, find] of Object.entries(groups))
    out.set(name, new Map(find().map((pid) => [pid, cpuSeconds(pid)])));
  return out;
}

/** CPU milliseconds per document of each group between two snapshots (`after` re-reads the pids). */
export function cpuPerDocument(
  groups: Record<string, () => number[]>,
  before: Map<string, Map<number, number>>,
  documents: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [name, find] of Object.entries(groups)) {
    let s = 0;
    for (const pid of new Set([...find(), ...(before.get(name)?.keys() ?? [])]))
      s += Math.max(0, cpuSeconds(pid) - (before.get(name)?.get(pid) ?? 0));
    out[name] = (s * 1000) / documents;
    total += out[name];
  }
  out.total = total;
  return out;
}

/** `pid` and every process whose parent it is (a postmaster and its backends), from /proc. */
export function processAndChildren(pid: number): number[] {
  const out = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * The process groups of one bench stack whose servers keep their data in `dataDir` (`pnpm bench compare`
 * runs two stacks at once): its own processes, its PostgreSQL (postmaster and backends) and nats-server.
 */
export function stackGroups(
  children: () => Record<string, number[]>,
  dataDir: string,
): Record<string, () => number[]> {
  const pidIn = (file: string) => {
    try {
      return Number(readFileSync(file, 'utf8').split('\n')[0]) || undefined;
    } catch {
      return undefined;
    }
  };
  const groups = processGroups(children);
  groups.postgresql = () => {
    const pm = pidIn(join(dataDir, 'pgdata', 'postmaster.pid'));
    return pm ? processAndChildren(pm) : [];
  };
  groups.nats = () => {
    const n = pidIn(join(dataDir, 'nats.pid'));
    return n ? [n] : [];
  };
  return groups;
}

/** The machine's CPU counters from /proc/stat: busy and total jiffies over all cores. */
export function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user + nice + system + irq + softirq + (steal ?? 0);
  return { busy, total: busy + idle + iowait };
}

/** Share (0–1) of all cores busy between two {@link machineTicks} readings, whatever process used them. */
export const machineBusy = (a: { busy: number; total: number }, b: { busy: number; total: number }): number =>
  (b.busy - a.busy) / Math.max(1, b.total - a.total);
