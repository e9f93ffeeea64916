/**
 * The metrics targets file of `pnpm start` (issue #25): `.local/metrics-targets.json` in Prometheus
 * `file_sd_configs` form, one target per process and replica, labelled with its service and instance.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes `file` from `ports` (`warehouse-1` → port) on `host` (loopback when every interface): whole, to a
 * temporary file then renamed, so Prometheus never reads half of it.
 */
export function writeTargets(
  file: string,
  ports: ReadonlyMap<string, number>,
  host: string,
  fixed: readonly FixedTarget[] = [],
): void {
  const targets = [
    ...[...ports].map(([instance, p]) => ({
      targets: [`${host === '0.0.0.0' ? '127.0.0.1' : host}:${p}`],
      labels: { service: instance.replace(/-\d+$/, ''), instance },
    })),
    ...fixed.map((f) => ({ targets: [f.target], labels: { service: f.job, instance: f.instance } })),
  ];
  writeFileSync(`${file}.tmp`, `${JSON.stringify(targets, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** A server's own exporter on a port it was configured with (Patroni, HAProxy: issue #46). */
export interface FixedTarget {
  job: string;
  instance: string;
  /** `host:port`. */
  target: string;
}

/**
 * The metrics ports of `pnpm start`'s processes (issue #43): each process binds port 0 (or, after a
 * restart, the port it had) and writes what it bound to its port file; the targets file lists what was
 * bound. No port is picked in advance, so none can be taken by another process first. A process that died
 * before it bound one asks for any port at its next start.
 */
export class MetricsPorts {
  private readonly ports = new Map<string, number>();
  private fixed: readonly FixedTarget[] = [];

  constructor(
    private readonly dir: string,
    private readonly targetsFile: string,
    private readonly host: string,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Lists the exporters of servers on fixed ports (the PostgreSQL cluster's) beside the processes. */
  addFixed(targets: readonly FixedTarget[]): void {
    this.fixed = targets;
    writeTargets(this.targetsFile, this.ports, this.host, this.fixed);
  }

  /**
   * The environment of `instance`'s next start, and the watch of its port file; `exited()` when the
   * process ends.
   */
  launch(instance: string): { env: Record<string, string>; exited(): void } {
    const portFile = join(this.dir, `metrics-${instance}.port`);
    rmSync(portFile, { force: true });
    // Rewritten at every (re)start, as before issue #43: a restart with a known port lists it at once.
    writeTargets(this.targetsFile, this.ports, this.host, this.fixed);
    let bound = false;
    const watch = setInterval(() => {
      const p = Number(existsSync(portFile) ? readFileSync(portFile, 'utf8').trim() : Number.NaN);
      if (!Number.isInteger(p) || p <= 0) return;
      clearInterval(watch);
      bound = true;
      this.ports.set(instance, p);
      writeTargets(this.targetsFile, this.ports, this.host, this.fixed);
    }, 100);
    return {
      env: { METRICS_PORT: String(this.ports.get(instance) ?? 0), METRICS_PORT_FILE: portFile },
      exited: () => {
        clearInterval(watch);
        if (!bound) this.ports.delete(instance);
      },
    };
  }

  /** Waits (at most `withinMs`) until every one of `instances` has bound its port. */
  async bound(instances: readonly string[], withinMs = 10_000): Promise<void> {
    for (let t = 0; t < withinMs && instances.some((x) => !this.ports.has(x)); t += 100)
      await new Promise((r) => setTimeout(r, 100));
  }
}
