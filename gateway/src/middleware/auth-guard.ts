/**
 * Protection of credential checking against floods and guessing (issue #12 "Authentication under
 * attack"). Before any slow hash runs, an uncached attempt must pass:
 * - a rate per client address and a rate per username and per ClientID (attempts a second);
 * - a failed-attempt budget per client address and per username (failures per window).
 * The hashing itself runs through a bounded queue: at most `hashConcurrency` verifications at once and
 * `hashQueue` waiting; a full queue answers 429 at once instead of making every caller wait.
 * Limits come from rate-limiter-flexible (in memory, per gateway replica). Every refusal is 429
 * `TooManyRequests` with `Retry-After`.
 */
import { tooManyRequests } from '@bm/errors';
import type { Context } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface AuthGuardOptions {
  /** Uncached verifications a second per client address. */
  attemptsPerAddressPerSecond: number;
  /** Uncached verifications a second per username and per ClientID. */
  attemptsPerIdentityPerSecond: number;
  /** Failed verifications per client address within `failureWindowSeconds` before it is refused. */
  failuresPerAddress: number;
  /** Failed verifications per username within `failureWindowSeconds` before it is refused. */
  failuresPerUsername: number;
  failureWindowSeconds: number;
  /** Verifications (two scrypt hashes each) running at once. */
  hashConcurrency: number;
  /** Verifications waiting for a slot; one more is refused with 429. */
  hashQueue: number;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class AuthGuard {
  private readonly addressRate: RateLimiterMemory;
  private readonly identityRate: RateLimiterMemory;
  private readonly addressFailures: RateLimiterMemory;
  private readonly usernameFailures: RateLimiterMemory;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly o: AuthGuardOptions) {
    this.addressRate = new RateLimiterMemory({
      keyPrefix: 'addr',
      points: o.attemptsPerAddressPerSecond,
      duration: 1,
    });
    this.identityRate = new RateLimiterMemory({
      keyPrefix: 'id',
      points: o.attemptsPerIdentityPerSecond,
      duration: 1,
    });
    this.addressFailures = new RateLimiterMemory({
      keyPrefix: 'addr-fail',
      points: o.failuresPerAddress,
      duration: o.failureWindowSeconds,
    });
    this.usernameFailures = new RateLimiterMemory({
      keyPrefix: 'user-fail',
      points: o.failuresPerUsername,
      duration: o.failureWindowSeconds,
    });
  }

  /**
   * Admits one uncached verification of `username`/`clientId` from `address`, or throws 429 with the
   * seconds until it would be admitted. Costs no hash.
   */
  async admit(address: string, username: string, clientId: string): Promise<void> {
    const [addrFailed, userFailed] = await Promise.all([
      this.addressFailures.get(address),
      this.usernameFailures.get(username),
    ]);
    if (addrFailed && addrFailed.consumedPoints >= this.o.failuresPerAddress)
      throw tooManyRequests(
        'too many failed authentication attempts from this address; try again later',
        seconds(addrFailed.msBeforeNext),
      );
    if (userFailed && userFailed.consumedPoints >= this.o.failuresPerUsername)
      throw tooManyRequests(
        'too many failed authentication attempts for this username; try again later',
        seconds(userFailed.msBeforeNext),
      );
    try {
      await this.addressRate.consume(address);
      await this.identityRate.consume(`u:${username}`);
      await this.identityRate.consume(`c:${clientId}`);
    } catch (e) {
      if (e instanceof RateLimiterRes)
        throw tooManyRequests('too many authentication attempts; slow down', seconds(e.msBeforeNext));
      throw e;
    }
  }

  /** Counts a failed verification against the address's and the username's budgets. */
  async failed(address: string, username: string): Promise<void> {
    await Promise.all([this.addressFailures.penalty(address, 1), this.usernameFailures.penalty(username, 1)]);
  }

  /** Runs a verification in the bounded hashing queue; 429 at once when the queue is full. */
  async hashing<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.o.hashConcurrency) {
      if (this.waiting.length >= this.o.hashQueue)
        throw tooManyRequests('the server is busy checking credentials; retry in a moment', 1);
      await new Promise<void>((r) => this.waiting.push(r));
    } else this.active++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter (active stays), or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

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
