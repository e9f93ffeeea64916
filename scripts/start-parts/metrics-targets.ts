/**
 * The metrics targets file of `pnpm start` (issue #25): `.local/metrics-targets.json` in Prometheus
 * `file_sd_configs` form, one target per process and replica, labelled with its service and instance.
 */
import { renameSync, writeFileSync } from 'node:fs';

/**
 * Writes `file` from `ports` (`warehouse-1` → port) on `host` (loopback when every interface): whole, to a
 * temporary file then renamed, so Prometheus never reads half of it.
 */
export function writeTargets(file: string, ports: ReadonlyMap<string, number>, host: string): void {
  const targets = [...ports].map(([instance, p]) => ({
    targets: [`${host === '0.0.0.0' ? '127.0.0.1' : host}:${p}`],
    labels: { service: instance.replace(/-\d+$/, ''), instance },
  }));
  writeFileSync(`${file}.tmp`, `${JSON.stringify(targets, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
