/**
 * The bounded queue credential verifications run in (issues #12, #22): at most `concurrency` at once,
 * `queue` waiting in all and `perAddress` per client address; waiters are served known-good first, then
 * address by address in turn, so one address's burst delays another address's first call by at most one
 * verification per busy address. A full queue answers 429 at once instead of making every caller wait.
 */
import { tooManyRequests } from '@bm/errors';
import { authRefusals } from '@bm/telemetry';

export interface HashQueueLimits {
  /** Verifications (two scrypt hashes each) running at once. */
  concurrency: number;
  /** Verifications waiting in all; one more is refused. */
  queue: number;
  /** Verifications waiting per client address. */
  perAddress: number;
}

export class FairHashQueue {
  private active = 0;
  private waitingCount = 0;
  private readonly priority: (() => void)[] = [];
  /** Waiters per address, served round-robin (Map order: the address served last goes to the end). */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limits: HashQueueLimits) {}

  /**
   * Runs `fn` when a slot is free; `priority` (a known-good tuple) waits ahead of every address.
   * @throws 429 TooManyRequests (Retry-After 1) at once when the queue, in all or for `address`, is full
   */
  async run<T>(address: string, priority: boolean, fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limits.concurrency) {
      if (priority) await new Promise<void>((r) => this.priority.push(r));
      else {
        const mine = this.waiting.get(address) ?? [];
        if (this.waitingCount >= this.limits.queue || mine.length >= this.limits.perAddress) {
          authRefusals.inc({ reason: 'queue_full' });
          throw tooManyRequests('the server is busy checking credentials; retry in a moment', 1);
        }
        this.waitingCount++;
        if (!mine.length) this.waiting.set(address, mine);
        await new Promise<void>((r) => mine.push(r));
      }
    } else this.active++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter (active stays), or is freed.
      const next = this.next();
      if (next) next();
      else this.active--;
    }
  }

  private next(): (() => void) | undefined {
    const urgent = this.priority.shift();
    if (urgent) return urgent;
    for (const [address, queue] of this.waiting) {
      const waiter = queue.shift();
      this.waiting.delete(address);
      if (queue.length) this.waiting.set(address, queue);
      if (waiter) {
        this.waitingCount--;
        return waiter;
      }
    }
    return undefined;
  }
}
