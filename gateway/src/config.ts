/** Gateway configuration, parsed once from the environment (DESIGN §8). */
import { parseEnv, ServiceEnv, withOwnDatabase } from '@bm/service-kit';
import { z } from 'zod';

export const GatewayEnv = ServiceEnv.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * Address the HTTP server binds to: loopback by default, so a local start is not reachable from the
   * network (issue #9); containers set `0.0.0.0` (docker-compose.yml).
   */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Bearer token of `/admin/*`; when unset the admin endpoints answer 401. At least 16 characters. */
  ADMIN_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  /** NATS reply timeout for one request, ms. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  /** Largest accepted request body, bytes. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  /** Largest bank statement (`POST /1.6/bank/statements`, issue #45), bytes. */
  STATEMENT_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024),
  /** How long a verified credential tuple stays cached, ms. */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  /** Uncached credential checks a second per client address, per replica (issue #12). */
  AUTH_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  /** Failed checks per client address within AUTH_FAILURE_WINDOW_S before it gets 429 (issue #22). */
  AUTH_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  /**
   * Failed checks of one username from one address within AUTH_FAILURE_WINDOW_S before that pair gets
   * 429: also the most verifications of one username that one address can make run a hash per window.
   */
  AUTH_FAILURES_PER_USERNAME_ADDRESS: z.coerce.number().int().min(1).default(10),
  /** Failed checks of one username from anywhere within the window after which it is under attack. */
  AUTH_FAILURES_PER_USERNAME: z.coerce.number().int().min(1).default(20),
  /** Checks a minute of a username under attack from addresses that have failed themselves. */
  AUTH_UNDER_ATTACK_PER_MINUTE: z.coerce.number().int().min(1).default(6),
  AUTH_FAILURE_WINDOW_S: z.coerce.number().int().min(1).default(900),
  /** Days a tuple that verified from an address is admitted from it at once (issue #22). */
  AUTH_KNOWN_GOOD_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** HMAC key of the known-good tuples (at least 32 characters); random per process when unset. */
  AUTH_KNOWN_GOOD_KEY: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  /** Credential checks (scrypt) running at once; libuv runs 4 hashes at a time by default. */
  AUTH_HASH_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  /** Credential checks waiting for a slot before 429. */
  AUTH_HASH_QUEUE: z.coerce.number().int().min(0).default(32),
  /** Credential checks waiting for a slot per client address before 429 (fair queue, issue #22). */
  AUTH_HASH_QUEUE_PER_ADDRESS: z.coerce.number().int().min(1).default(4),
  /**
   * How long a 429 of a source over its authentication budget is held before it is answered, ms (at most
   * its Retry-After; 0: answered at once). A keep-alive flood then sends about one request per hold and
   * connection (issue #46).
   */
  AUTH_TARPIT_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /** Refusals held at once per client address; more are answered at once (issue #46). */
  AUTH_TARPIT_PER_ADDRESS: z.coerce.number().int().min(0).default(1024),
  /** Refusals held at once in all (issue #46). */
  AUTH_TARPIT_MAX: z.coerce.number().int().min(0).default(10_000),
  /** How long one readiness result is reused, ms (at most 1 s; 0: every probe checks, for benchmarks). */
  HEALTH_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  /** Where `pnpm start` leaves the backups' state (issue #36): readiness body and metrics read it. */
  OPS_STATUS_DIR: z.string().min(1).optional(),
  /** Proxies in front of the gateway whose X-Forwarded-For is trusted for the client address (0: none). */
  TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
});
export type GatewayConfig = z.infer<typeof GatewayEnv>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): Readonly<GatewayConfig> =>
  parseEnv(GatewayEnv, withOwnDatabase('gateway', env));
