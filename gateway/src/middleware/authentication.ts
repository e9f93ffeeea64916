/**
 * The `/1.6` authentication middleware as the gateway builds it from its configuration (issues #12, #22,
 * #46): the {@link auth} middleware with its {@link AuthGuard} (attempt rates, failure budgets shared
 * through PostgreSQL, the fair hashing queue) and its {@link Tarpit} (refusals of sources over their
 * budget held before they are answered).
 */
import type { Pool } from 'pg';
import { type GatewayConfig, loadConfig } from '../config.js';
import type { IdentityService } from '../identity/identity.service.js';
import { auth } from './auth.js';
import { AuthGuard } from './auth-guard.js';
import { Tarpit } from './tarpit.js';

/** The authentication limits of {@link GatewayConfig} (issue #12); absent ones take their defaults. */
export type AuthLimits = Pick<
  GatewayConfig,
  | 'AUTH_ATTEMPTS_PER_ADDRESS'
  | 'AUTH_FAILURES_PER_ADDRESS'
  | 'AUTH_FAILURES_PER_USERNAME_ADDRESS'
  | 'AUTH_FAILURES_PER_USERNAME'
  | 'AUTH_UNDER_ATTACK_PER_MINUTE'
  | 'AUTH_FAILURE_WINDOW_S'
  | 'AUTH_KNOWN_GOOD_DAYS'
  | 'AUTH_KNOWN_GOOD_KEY'
  | 'AUTH_HASH_CONCURRENCY'
  | 'AUTH_HASH_QUEUE'
  | 'AUTH_HASH_QUEUE_PER_ADDRESS'
  | 'AUTH_TARPIT_MS'
  | 'AUTH_TARPIT_PER_ADDRESS'
  | 'AUTH_TARPIT_MAX'
  | 'TRUSTED_PROXIES'
>;
const AUTH_LIMIT_DEFAULTS: AuthLimits = loadConfig({});

/**
 * The authentication middleware of one gateway: `config`'s limits (defaults for absent ones), the
 * identity service's verification, and `store` for failure counts shared by replicas (per process without).
 */
export function authentication(
  config: Pick<GatewayConfig, 'AUTH_CACHE_TTL_MS'> & Partial<AuthLimits>,
  identity: IdentityService,
  store?: Pool,
) {
  const limits = { ...AUTH_LIMIT_DEFAULTS, ...config };
  return auth({
    identity,
    cacheTtlMs: config.AUTH_CACHE_TTL_MS,
    trustedProxies: limits.TRUSTED_PROXIES,
    tarpit: new Tarpit({
      holdMs: limits.AUTH_TARPIT_MS,
      maxPerAddress: limits.AUTH_TARPIT_PER_ADDRESS,
      maxHeld: limits.AUTH_TARPIT_MAX,
    }),
    guard: new AuthGuard({
      attemptsPerAddressPerSecond: limits.AUTH_ATTEMPTS_PER_ADDRESS,
      failuresPerAddress: limits.AUTH_FAILURES_PER_ADDRESS,
      failuresPerUsernameAddress: limits.AUTH_FAILURES_PER_USERNAME_ADDRESS,
      usernameUnderAttackAfter: limits.AUTH_FAILURES_PER_USERNAME,
      usernameUnderAttackPerMinute: limits.AUTH_UNDER_ATTACK_PER_MINUTE,
      failureWindowSeconds: limits.AUTH_FAILURE_WINDOW_S,
      knownGoodDays: limits.AUTH_KNOWN_GOOD_DAYS,
      knownGoodKey: limits.AUTH_KNOWN_GOOD_KEY,
      hashConcurrency: limits.AUTH_HASH_CONCURRENCY,
      hashQueue: limits.AUTH_HASH_QUEUE,
      hashQueuePerAddress: limits.AUTH_HASH_QUEUE_PER_ADDRESS,
      store,
    }),
  });
}
