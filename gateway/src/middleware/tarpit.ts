/**
 * The tarpit of authentication refusals (issue #46 "a flood must not cost the others the machine"): a
 * source already over its budget (its 429 `TooManyRequests` from the {@link AuthGuard}) gets that answer
 * later, not faster. A keep-alive flood sends its next request only after the answer, so each of its
 * connections sends about one request per hold instead of thousands a second, and the two cores stay
 * with the other addresses' password checks. Held answers cost a timer each; their number is bounded per
 * address and in all, and past a bound the refusal is answered at once (as before).
 */

import { authRefusalsHeld } from '@bm/telemetry';

export interface TarpitOptions {
  /** How long a refusal is held, ms (at most its Retry-After); 0 turns the tarpit off. */
  holdMs: number;
  /** Refusals held at once for one client address; more are answered at once. */
  maxPerAddress: number;
  /** Refusals held at once in all. */
  maxHeld: number;
}

export class Tarpit {
  private held = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly o: TarpitOptions) {}

  /** Refusals being held now (the gauge `bm_auth_tarpit_held`). */
  get size(): number {
    return this.held;
  }

  /**
   * Resolves after the hold (`min(holdMs, retryAfterSeconds × 1000)`), or at once when the tarpit is off
   * or full for `address` or in all. Never rejects.
   */
  async hold(address: string, retryAfterSeconds: number): Promise<void> {
    const ms = Math.min(this.o.holdMs, Math.max(retryAfterSeconds, 1) * 1000);
    const mine = this.byAddress.get(address) ?? 0;
    if (ms <= 0 || this.held >= this.o.maxHeld || mine >= this.o.maxPerAddress) return;
    this.held++;
    this.byAddress.set(address, mine + 1);
    authRefusalsHeld.inc();
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      this.held--;
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    }
  }
}
