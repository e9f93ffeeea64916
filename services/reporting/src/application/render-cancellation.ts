/**
 * Renders whose client has gone (issue #22 "Printout admission that abandoned renders cannot block"):
 * the gateway publishes a cancel with the render's `renderId` when its HTTP client closes the connection
 * or the request times out. A live render's signal is aborted (its admission slot is freed at once and
 * its render thread ended); an id cancelled before its render arrived is remembered for a minute, so that
 * render is refused on arrival instead of starting.
 */
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';

const REMEMBER_MS = 60_000;

/** The error a cancelled render ends with (nobody receives it: the client has gone). */
export const renderCancelled = () =>
  new AppError(ErrorKind.timeout, ErrorCode.Timeout, 'the printout was cancelled: its client has gone');

export class RenderCancellations {
  private readonly live = new Map<string, AbortController>();
  /** Cancelled ids with the time they were cancelled, oldest first. */
  private readonly cancelled = new Map<string, number>();

  /**
   * The abort signal of the render `renderId` (a signal that never aborts without an id); call `close`
   * when the render is over.
   * @throws 504 Timeout when the render was cancelled before it arrived
   */
  open(renderId: string | undefined): { signal: AbortSignal; close(): void } {
    const controller = new AbortController();
    if (!renderId) return { signal: controller.signal, close: () => undefined };
    this.forgetOld();
    if (this.cancelled.has(renderId)) throw renderCancelled();
    this.live.set(renderId, controller);
    return {
      signal: controller.signal,
      close: () => {
        if (this.live.get(renderId) === controller) this.live.delete(renderId);
      },
    };
  }

  /** Cancels `renderId`: aborts it when it is rendering here, remembers it otherwise. */
  cancel(renderId: string): void {
    this.forgetOld();
    this.cancelled.set(renderId, Date.now());
    this.live.get(renderId)?.abort(renderCancelled());
    this.live.delete(renderId);
  }

  /** Renders in work on this replica under an id (for tests and metrics). */
  get size(): number {
    return this.live.size;
  }

  private forgetOld(): void {
    const horizon = Date.now() - REMEMBER_MS;
    for (const [id, at] of this.cancelled) {
      if (at > horizon) break;
      this.cancelled.delete(id);
    }
  }
}
