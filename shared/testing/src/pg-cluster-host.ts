/**
 * What the local PostgreSQL cluster (pg-cluster.ts, issue #46) needs from this machine: its ports (kept
 * across restarts), its secrets (generated once, mode 0600), the `postgres` user, and Patroni's REST API.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ClusterPorts } from './pg-cluster-config.js';
import { freePort } from './proc.js';
import { writeSecret } from './secret-file.js';

/** Reads or allocates the cluster's ports (kept across restarts: etcd's members know each other's). */
export async function clusterPorts(
  file: string,
  size: number,
): Promise<{ ports: ClusterPorts; fresh: boolean }> {
  if (existsSync(file)) return { ports: JSON.parse(readFileSync(file, 'utf8')), fresh: false };
  const many = async () => {
    const list: number[] = [];
    for (let i = 0; i < size; i++) list.push(await freePort());
    return list;
  };
  const ports: ClusterPorts = {
    etcdClient: await many(),
    etcdPeer: await many(),
    postgres: await many(),
    rest: await many(),
    primary: await freePort(),
    haproxyMetrics: await freePort(),
  };
  writeFileSync(file, `${JSON.stringify(ports, null, 2)}\n`);
  return { ports, fresh: true };
}

/** A secret kept in `file` (mode 0600), generated on first use. */
export function secret(file: string): string {
  if (!existsSync(file)) writeSecret(file, `${randomBytes(18).toString('base64url')}\n`);
  return readFileSync(file, 'utf8').trim();
}

/** The uid and gid of the `postgres` user (PostgreSQL and Patroni refuse to run as root). */
export function postgresUser(): { uid: number; gid: number; home: string } {
  const [, , uid, gid, , home] = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' })
    .trim()
    .split(':');
  return { uid: Number(uid), gid: Number(gid), home };
}

/** GET a Patroni REST path of node `i`; undefined when it does not answer within 1 s. */
export async function rest<T>(ports: ClusterPorts, i: number, path: string): Promise<T | undefined> {
  try {
    const r = await fetch(`http://127.0.0.1:${ports.rest[i]}${path}`, { signal: AbortSignal.timeout(1000) });
    return (await r.json()) as T;
  } catch {
    return undefined;
  }
}
