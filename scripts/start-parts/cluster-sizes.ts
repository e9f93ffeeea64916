/**
 * The sizes of the local clusters `pnpm start` runs (issues #25, #46): `NATS_CLUSTER` (1, 3 or 5 nats-server
 * nodes) and `PG_CLUSTER` (1 PostgreSQL, or 3 nodes under Patroni with a synchronous standby behind
 * HAProxy). Anything else stops the start with one line saying what is allowed.
 */

/** A size from `name` in the environment (default 1); throws naming the allowed values. */
function sizeOf(name: string, allowed: readonly number[]): number {
  const raw = process.env[name];
  const n = Number(raw || 1);
  if (!allowed.includes(n)) throw new Error(`${name} must be ${allowed.join(' or ')} (got ${raw})`);
  return n;
}

/** `NATS_CLUSTER` and `PG_CLUSTER`. @throws Error when one is not an allowed size */
export function clusterSizes(): { nats: number; postgres: number } {
  return { nats: sizeOf('NATS_CLUSTER', [1, 3, 5]), postgres: sizeOf('PG_CLUSTER', [1, 3]) };
}
