/**
 * Protection of credential checking against guessing and floods without locking out the owner (issues
 * #12 and #22, OWASP Authentication Cheat Sheet "Account lockout"). Usernames are not secret, so nothing
 * counted per username alone may refuse a request from an address that has not itself been failing.
 *
 * An uncached credential tuple from `address` goes through, in this order:
 * 1. **Known good**: a tuple that verified from this address within `knownGoodDays` (kept as an HMAC of
 *    the four values and the address under a process key, never the secret; per replica) skips every
 *    budget and takes the priority lane of the hashing queue.
 * 2. **Attempt rate per address** (per second, in memory, per replica): a flood is refused before any
 *    database read.
 * 3. **Failure budgets** (shared by all gateway replicas through PostgreSQL, `identity.auth_failure`;
 *    per process when no store is given): failed verifications per address, and per (username,
 *    address). Verifications of one (username, address) run one after another, so from one address at
 *    most `failuresPerUsernameAddress` verifications of a username run a hash per window, however many
 *    are sent at once (+1 per further replica in flight).
 * 4. **A username under attack** (more than `usernameUnderAttackAfter` failures in the window from
 *    anywhere) is verified at most `usernameUnderAttackPerMinute` times a minute **for addresses that have
 *    themselves failed**; an address with no failure is never slowed by it.
 * 5. **Hashing** runs in the bounded, address-fair {@link FairHashQueue}.
 *
 * Every refusal is 429 `TooManyRequests` with `Retry-After` and costs no hash.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { tooManyRequests } from '@bm/errors';
import { authRefusals } from '@bm/telemetry';
import type { Context } from 'hono';
import { LRUCache } from 'lru-cache';
import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { FairHashQueue } from './hash-queue.js';

/** Where the shared failure counts live (created by the identity migration Migration20261125000000). */
export const AUTH_FAILURE_TABLE = { schemaName: 'identity', tableName: 'auth_failure' } as const;

export interface AuthGuardOptions {
  /** Uncached verifications a second per client address (per replica). */
  attemptsPerAddressPerSecond: number;
  /** Failed verifications per client address within `failureWindowSeconds` before it is refused. */
  failuresPerAddress: number;
  /** Failed verifications of one username from one address within the window before it is refused. */
  failuresPerUsernameAddress: number;
  /** Failures of one username (from anywhere) within the window after which it counts as under attack. */
  usernameUnderAttackAfter: number;
  /** Verifications a minute of a username under attack from addresses that have failed themselves. */
  usernameUnderAttackPerMinute: number;
  failureWindowSeconds: number;
  /** How long a tuple that verified from an address is admitted from it at once, days. */
  knownGoodDays: number;
  /** HMAC key of the known-good tuples; random per process when absent. */
  knownGoodKey?: string;
  /** Verifications (two scrypt hashes each) running at once. */
  hashConcurrency: number;
  /** Verifications waiting for a slot in all; one more is refused with 429. */
  hashQueue: number;
  /** Verifications waiting for a slot per client address. */
  hashQueuePerAddress: number;
  /** PostgreSQL pool for the failure counts shared by replicas; without it they are per process. */
  store?: Pool;
}

/** What the caller hands to {@link AuthGuard.verify}: the tuple's parts and the client's address. */
export interface Attempt {
  address: string;
  username: string;
  /** Every credential header value (Authorization, ClientID, ClientSecret, CompanyID), for the HMAC. */
  tuple: string[];
}

/** `ok`: the credentials are right (whether or not the user may use the company); `failed`: wrong. */
export type Outcome = 'ok' | 'failed';

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
/** Keys are hashed: no username or address is stored in clear, and any length fits the column. */
const digest = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 32);

/** A count of failures per key within a window: in PostgreSQL (memory as insurance), or in memory. */
function failureCounter(o: AuthGuardOptions, keyPrefix: string, points: number, duration: number) {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (!o.store) return memory;
  return new RateLimiterPostgres({
    storeClient: o.store,
    storeType: 'pool',
    ...AUTH_FAILURE_TABLE,
    tableCreated: true,
    keyPrefix,
    points,
    duration,
    // While PostgreSQL is unreachable the counts continue in memory instead of failing every login.
    insuranceLimiter: memory,
  });
}

export class AuthGuard {
  private readonly addressRate: RateLimiterMemory;
  private readonly addressFailures;
  private readonly pairFailures;
  private readonly usernameFailures;
  private readonly underAttackRate;
  /** Refusals already known, by counter key: answered without a database read until they expire. */
  private readonly refusedUntil = new LRUCache<string, number>({ max: 100_000 });
  private readonly knownGood: LRUCache<string, true>;
  private readonly knownGoodKey: Buffer;
  /** The last verification of each (username, address) in flight: the next one waits for it. */
  private readonly pairTail = new Map<string, Promise<unknown>>();
  private readonly pairQueued = new Map<string, number>();
  private readonly hashQueue: FairHashQueue;

  constructor(private readonly o: AuthGuardOptions) {
    const window = o.failureWindowSeconds;
    this.addressRate = new RateLimiterMemory({
      keyPrefix: 'addr',
      points: o.attemptsPerAddressPerSecond,
      duration: 1,
    });
    this.addressFailures = failureCounter(o, 'fa', o.failuresPerAddress, window);
    this.pairFailures = failureCounter(o, 'fp', o.failuresPerUsernameAddress, window);
    this.usernameFailures = failureCounter(o, 'fu', o.usernameUnderAttackAfter, window);
    this.underAttackRate = failureCounter(o, 'ua', o.usernameUnderAttackPerMinute, 60);
    this.knownGood = new LRUCache({ max: 100_000, ttl: o.knownGoodDays * 86_400_000 });
    this.knownGoodKey = o.knownGoodKey ? Buffer.from(o.knownGoodKey) : randomBytes(32);
    this.hashQueue = new FairHashQueue({
      concurrency: o.hashConcurrency,
      queue: o.hashQueue,
      perAddress: o.hashQueuePerAddress,
    });
  }

  /**
   * Verifies one uncached attempt with `check` (the slow hash) if the limits admit it, and counts the
   * outcome. Resolves to what `check` resolved to.
   * @throws 429 TooManyRequests with the seconds until it would be admitted; no hash was run
   */
  async verify<T>(attempt: Attempt, check: () => Promise<{ value: T; outcome: Outcome }>): Promise<T> {
    const { address, username } = attempt;
    const good = createHmac('sha256', this.knownGoodKey)
      .update([...attempt.tuple, address].join('\u0000'))
      .digest('base64url');
    if (this.knownGood.has(good)) {
      const r = await this.hashQueue.run(address, true, check);
      if (r.outcome === 'ok') return r.value;
      // The password changed since: no longer known good, and an ordinary failure.
      this.knownGood.delete(good);
      await this.countFailure(address, username);
      return r.value;
    }
    // The cheapest refusal first: a flood is mostly answered here, from memory, before any hashing.
    try {
      await this.addressRate.consume(address);
    } catch (e) {
      throw this.refusal(e, 'too many authentication attempts from this address; slow down', 'address_rate');
    }
    const pair = digest(username, address);
    this.refuseKnown(address, pair);
    // One verification per (username, address) at a time: each sees the failures of the one before.
    const queued = this.pairQueued.get(pair) ?? 0;
    if (queued >= this.o.hashQueuePerAddress) {
      authRefusals.inc({ reason: 'pair_concurrency' });
      throw tooManyRequests('too many authentication attempts for this username at once; slow down', 1);
    }
    this.pairQueued.set(pair, queued + 1);
    const before = this.pairTail.get(pair) ?? Promise.resolve();
    const run = () => this.admitted(attempt, pair, good, check);
    const mine = before.then(run, run);
    this.pairTail.set(pair, mine);
    try {
      return await mine;
    } finally {
      const left = (this.pairQueued.get(pair) ?? 1) - 1;
      if (left) this.pairQueued.set(pair, left);
      else this.pairQueued.delete(pair);
      if (this.pairTail.get(pair) === mine) this.pairTail.delete(pair);
    }
  }

  private async admitted<T>(
    attempt: Attempt,
    pair: string,
    good: string,
    check: () => Promise<{ value: T; outcome: Outcome }>,
  ): Promise<T> {
    const { address, username } = attempt;
    await this.admit(address, username, pair);
    const r = await this.hashQueue.run(address, false, check);
    if (r.outcome === 'ok') this.knownGood.set(good, true);
    else await this.countFailure(address, username, pair);
    return r.value;
  }

  /** Refusals this replica already knows (no database read); 429. */
  private refuseKnown(address: string, pair: string): void {
    this.refuseIfKnown(`fa:${digest(address)}`, 'too many failed authentication attempts from this address');
    this.refuseIfKnown(
      `fp:${pair}`,
      'too many failed authentication attempts for this username from this address',
    );
  }

  /** Throws 429 unless an uncached verification of `username` from `address` may run now. */
  private async admit(address: string, username: string, pair: string): Promise<void> {
    this.refuseKnown(address, pair);
    const addr = digest(address);
    const user = digest(username);
    const [addrFailed, pairFailed, userFailed] = await Promise.all([
      this.addressFailures.get(addr),
      this.pairFailures.get(pair),
      this.usernameFailures.get(user),
    ]);
    const over = (r: RateLimiterRes | null, limit: number) => (r?.consumedPoints ?? 0) >= limit;
    if (over(addrFailed, this.o.failuresPerAddress))
      this.refuse(`fa:${addr}`, addrFailed!, 'too many failed authentication attempts from this address');
    if (over(pairFailed, this.o.failuresPerUsernameAddress))
      this.refuse(
        `fp:${pair}`,
        pairFailed!,
        'too many failed authentication attempts for this username from this address',
      );
    // A username under attack slows only addresses that have failed themselves.
    if (over(userFailed, this.o.usernameUnderAttackAfter) && (addrFailed?.consumedPoints ?? 0) > 0) {
      try {
        await this.underAttackRate.consume(user);
      } catch (e) {
        throw this.refusal(
          e,
          'this username is under attack and this address has failed to authenticate; try again later',
          'username_under_attack',
        );
      }
    }
  }

  private async countFailure(address: string, username: string, pair = digest(username, address)) {
    await Promise.all([
      this.addressFailures.penalty(digest(address), 1),
      this.pairFailures.penalty(pair, 1),
      this.usernameFailures.penalty(digest(username), 1),
    ]).catch(() => undefined);
  }

  private refuseIfKnown(key: string, detail: string): void {
    const until = this.refusedUntil.get(key);
    if (until === undefined) return;
    if (until <= Date.now()) this.refusedUntil.delete(key);
    else {
      authRefusals.inc({ reason: budgetOf(key) });
      throw tooManyRequests(`${detail}; try again later`, seconds(until - Date.now()));
    }
  }

  private refuse(key: string, res: RateLimiterRes, detail: string): never {
    const ms = Math.max(res.msBeforeNext, 1000);
    this.refusedUntil.set(key, Date.now() + ms);
    authRefusals.inc({ reason: budgetOf(key) });
    throw tooManyRequests(`${detail}; try again later`, seconds(ms));
  }

  private refusal(e: unknown, detail: string, reason: string) {
    if (!(e instanceof RateLimiterRes)) return e;
    authRefusals.inc({ reason });
    return tooManyRequests(detail, seconds(e.msBeforeNext));
  }
}

/** The `bm_auth_refusals_total` reason of a remembered refusal's key (`fa:` address, `fp:` pair). */
const budgetOf = (key: string) => (key.startsWith('fa:') ? 'address_budget' : 'pair_budget');

/**
 * The client's address: the TCP peer, or with `trustedProxies` > 0 the address that many hops back in
 * `X-Forwarded-For` (only behind proxies that set it). `unknown` where there is no socket (in-process).
 */
export function clientAddress(c: Context, trustedProxies: number, peer: () => string | undefined): string {
  if (trustedProxies > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const hop = hops[hops.length - trustedProxies];
    if (hop) return hop;
  }
  return peer() ?? 'unknown';
}
