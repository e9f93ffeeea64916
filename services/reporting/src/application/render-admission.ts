/**
 * Admission of printouts (issue #12 "Bounds"): at most `perCompany` printouts of one company and
 * `total` printouts of all companies are in work (fetching data, waiting for a render thread, rendering)
 * at once; one more is refused at once with 503 and `Retry-After`, so a burst of one company cannot queue
 * up minutes of work or starve the others. Per replica: N replicas admit N times as much.
 */
import { unavailable } from '@bm/errors';

export interface AdmissionLimits {
  /** Printouts of one company in work at once. */
  perCompany: number;
  /** Printouts of all companies in work at once. */
  total: number;
}

export class RenderAdmission {
  private inWork = 0;
  private readonly byCompany = new Map<string, number>();

  constructor(private readonly limits: AdmissionLimits) {}

  /**
   * Runs `fn` if admitted; 503 ServiceUnavailable with Retry-After when a limit is reached. The slot is
   * freed when `fn` settles or, earlier, when `signal` aborts (the client has gone, issue #22): a render
   * nobody waits for no longer counts, even while its last steps unwind.
   */
  async run<T>(companyId: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const mine = this.byCompany.get(companyId) ?? 0;
    if (mine >= this.limits.perCompany)
      throw unavailable(
        `this company already has ${mine} printouts in progress (at most ${this.limits.perCompany}); retry in a moment`,
        2,
      );
    if (this.inWork >= this.limits.total)
      throw unavailable('the printout queue is full; retry in a moment', 2);
    this.inWork++;
    this.byCompany.set(companyId, mine + 1);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.inWork--;
      const left = (this.byCompany.get(companyId) ?? 1) - 1;
      if (left) this.byCompany.set(companyId, left);
      else this.byCompany.delete(companyId);
    };
    signal?.addEventListener('abort', release, { once: true });
    try {
      return await fn();
    } finally {
      signal?.removeEventListener('abort', release);
      release();
    }
  }

  /** Printouts in work for `companyId` (all companies without it). */
  inProgress(companyId?: string): number {
    return companyId ? (this.byCompany.get(companyId) ?? 0) : this.inWork;
  }
}
