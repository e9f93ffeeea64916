/**
 * Probes of the gateway (issue #12 "Cheap probes"): liveness without any I/O, readiness (database, NATS
 * link, at least one responder per service) computed at most once a second and shared by every caller
 * meanwhile, so a probe flood costs one check a second, not one per request.
 */
import { isLinkDown, type NatsConnection } from '@bm/messaging';
import { type BackupState, backupState } from './ops-status.js';

/** The body of `GET /health/ready` (and `GET /health`): 200 when `status` is `ok`, else 503. */
export interface Readiness {
  status: 'ok' | 'degraded';
  /**
   * `read-only`: the server answers but is a standby (a failover under way, issue #46): writes answer 503
   * until the new primary takes them.
   */
  database: 'ok' | 'unreachable' | 'read-only';
  /** Since when the database has not been writable (ISO 8601), while it is not `ok`. */
  databaseSince?: string;
  nats: 'ok' | 'closed' | 'disconnected';
  /** Service name → replicas that answered the NATS service ping (0: none). */
  services: Record<string, number>;
  /**
   * The local stack's backups (issue #36), when `pnpm start` runs them: `mode` `synchronous` (RPO 0) or
   * `degraded` with the `reason`; the status code does not depend on it (writes carry on).
   */
  backup?: BackupState;
}

export interface ReadinessDeps {
  nc: NatsConnection;
  /**
   * Rejects when the identity database is unreachable; resolves to `read-only` when it answers as a
   * standby (anything else: writable).
   */
  pingDb: () => Promise<unknown>;
  services: readonly string[];
  /** How long one result is reused, ms (at most 1 s by issue #12). */
  maxAgeMs?: number;
  /** How long the service ping waits for the first replica, ms. */
  pingTimeoutMs?: number;
  /** `OPS_STATUS_DIR` (issue #36). */
  opsStatusDir?: string;
}

/**
 * Counts the replicas of `service` that answer `$SRV.PING.<service>`: waits up to `timeoutMs` for the
 * first and then 20 ms of silence for the others.
 */
async function countResponders(nc: NatsConnection, service: string, timeoutMs: number): Promise<number> {
  let n = 0;
  try {
    const replies = await nc.requestMany(`$SRV.PING.${service}`, undefined, {
      strategy: 'stall',
      stall: 20,
      maxWait: timeoutMs,
    } as Parameters<NatsConnection['requestMany']>[2]);
    for await (const m of replies) if (!m.headers?.get('Nats-Service-Error-Code') && m.data.length) n++;
  } catch {
    /* no responders: 0 */
  }
  return n;
}

/** Returns the readiness check: a function whose result is at most `maxAgeMs` old. */
export function readiness(d: ReadinessDeps): () => Promise<Readiness> {
  const maxAge = Math.min(d.maxAgeMs ?? 1000, 1000);
  let cached: { at: number; value: Promise<Readiness> } | undefined;
  /** When the database stopped being writable (null while it is). */
  let notWritableSince: string | null = null;
  const check = async (): Promise<Readiness> => {
    const nats = d.nc.isClosed() ? 'closed' : isLinkDown(d.nc) ? 'disconnected' : 'ok';
    const [database, counts] = await Promise.all([
      d.pingDb().then(
        (r) => (r === 'read-only' ? ('read-only' as const) : ('ok' as const)),
        () => 'unreachable' as const,
      ),
      nats === 'ok'
        ? Promise.all(d.services.map((s) => countResponders(d.nc, s, d.pingTimeoutMs ?? 300)))
        : d.services.map(() => 0),
    ]);
    const services = Object.fromEntries(d.services.map((s, i) => [s, counts[i]]));
    const ok = database === 'ok' && nats === 'ok' && counts.every((n) => n > 0);
    const backup = backupState(d.opsStatusDir);
    notWritableSince = database === 'ok' ? null : (notWritableSince ?? new Date().toISOString());
    return {
      status: ok ? 'ok' : 'degraded',
      database,
      ...(notWritableSince ? { databaseSince: notWritableSince } : {}),
      nats,
      services,
      ...(backup ? { backup } : {}),
    };
  };
  return () => {
    const now = performance.now();
    if (!cached || now - cached.at >= maxAge) cached = { at: now, value: check() };
    return cached.value;
  };
}
