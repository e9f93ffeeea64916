/**
 * Per-credentials holds (issue #43): after the provider refuses a set of credentials (`AUTH`), every call
 * with them waits out an exponential back-off (to about 15 minutes) instead of minting a token at every
 * poll and send — ePošťák locks a client out for 10 minutes after repeated failed mints and allows about
 * 200 mints a minute. After a provider's rate limit is spent (`X-RateLimit-Remaining: 0`, or a 429's
 * `Retry-After`), calls wait for its reset. Keyed like the token cache (provider, client, secret digest,
 * scope): a new secret is a new key and is tried at once.
 *
 * A held call fails at once with the error that caused the hold, without touching the network. When the
 * back-off is over, calls go through again; the first success ends the hold and tells the listeners
 * (`onRecovered`), which send what the hold kept back.
 */
import { SapiError } from './errors.js';

export interface HoldPolicy {
  /** The first wait after a refusal, ms; doubled per refusal up to `maxMs`. */
  baseMs: number;
  maxMs: number;
}

interface Hold {
  /** Refusals in a row. */
  failures: number;
  since: number;
  /** Calls wait until then. */
  until: number;
  error: SapiError;
}

/** What `GET /1.6/company/access-point` shows of a hold. */
export interface HoldView {
  category: 'AUTH' | 'RATE_LIMIT';
  since: string;
  nextTryAt: string;
  failures: number;
  error: string;
}

export class CredentialHolds {
  private readonly auth = new Map<string, Hold>();
  private readonly rate = new Map<string, number>();
  private readonly listeners = new Set<(key: string) => void>();

  constructor(public policy: HoldPolicy = { baseMs: 30_000, maxMs: 15 * 60_000 }) {}

  /** @throws SapiError (the hold's own) while `key` is held; no network is touched */
  check(key: string, now = Date.now()): void {
    const h = this.auth.get(key);
    if (h && now < h.until) {
      const e = h.error;
      throw new SapiError(
        e.status,
        e.category,
        e.code,
        `${e.message} (credentials refused ${h.failures}× since ${new Date(h.since).toISOString()}; next try at ${new Date(h.until).toISOString()})`,
        false,
        h.until - now,
        e.correlationId,
        e.fromProvider,
        true,
      );
    }
    const r = this.rate.get(key);
    if (r !== undefined && now < r)
      throw new SapiError(
        429,
        'TEMPORARY',
        'RATE-LIMIT',
        `the provider's rate limit is spent until ${new Date(r).toISOString()}`,
        true,
        r - now,
        null,
        false,
        true,
      );
  }

  /** The provider refused `key`'s credentials: the hold starts or grows (once per back-off window). */
  refused(key: string, error: SapiError, now = Date.now()): void {
    const h = this.auth.get(key);
    if (h && now < h.until) return;
    const failures = (h?.failures ?? 0) + 1;
    const wait = Math.min(this.policy.baseMs * 2 ** (failures - 1), this.policy.maxMs);
    this.auth.set(key, {
      failures,
      since: h?.since ?? now,
      until: now + Math.max(wait, error.retryAfterMs ?? 0),
      error,
    });
  }

  /** A person asked to try `key` now (the connection test): the back-off is cut short, the count kept. */
  tryNow(key: string, now = Date.now()): void {
    const h = this.auth.get(key);
    if (h) h.until = Math.min(h.until, now);
  }

  /** Calls with `key` wait until `until` (a spent rate limit). */
  pause(key: string, until: number): void {
    if (until > (this.rate.get(key) ?? 0)) this.rate.set(key, until);
  }

  /** A call with `key` succeeded: the hold ends, and the listeners hear of it when there was one. */
  succeeded(key: string): void {
    if (!this.auth.delete(key)) return;
    for (const l of this.listeners) l(key);
  }

  view(key: string, now = Date.now()): HoldView | null {
    const h = this.auth.get(key);
    if (h)
      return {
        category: 'AUTH',
        since: new Date(h.since).toISOString(),
        nextTryAt: new Date(Math.max(h.until, now)).toISOString(),
        failures: h.failures,
        error: `${h.error.code}: ${h.error.message}`,
      };
    const r = this.rate.get(key);
    return r !== undefined && now < r
      ? {
          category: 'RATE_LIMIT',
          since: new Date(now).toISOString(),
          nextTryAt: new Date(r).toISOString(),
          failures: 0,
          error: 'the provider’s rate limit is spent',
        }
      : null;
  }

  /** Calls `l` with the key of every hold that ends; returns the unsubscribe. */
  onRecovered(l: (key: string) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Forgets every hold (tests). */
  clear(): void {
    this.auth.clear();
    this.rate.clear();
  }
}

/** The holds of this process: shared by every client, like the token cache. */
export const holds = new CredentialHolds();
