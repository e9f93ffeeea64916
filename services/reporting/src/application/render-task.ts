/**
 * One render of a printout in the worker pool, bounded by time and cancellable (issue #22), observed in
 * `bm_printout_render_duration_seconds{outcome}` (issue #25).
 */
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { deadlinePassed } from '@bm/messaging';
import { renderDuration, timed } from '@bm/telemetry';
import type { Piscina } from 'piscina';
import { type RenderResult, type RenderTask, render } from '../rendering/render.worker.js';
import { renderCancelled } from './render-cancellation.js';

/** The render pool (none: render in this thread) and the longest a render may take, ms. */
export interface RenderDeps {
  pool: Piscina | null;
  renderTimeoutMs?: number;
}

/**
 * Renders in the pool (or in this thread without one). In the pool the render is aborted (its worker
 * thread ended) after `renderTimeoutMs` or at the request's deadline, whichever comes first: 504; or
 * when `cancel` aborts (the client has gone, issue #22).
 */
export function renderTask(
  deps: RenderDeps,
  task: RenderTask,
  deadline?: number,
  cancel?: AbortSignal,
): Promise<RenderResult> {
  // `bm_printout_render_duration_seconds{outcome}` (issue #25).
  return timed(
    renderDuration,
    () => renderBounded(deps, task, deadline, cancel),
    (e) => ({ outcome: e === undefined ? 'ok' : cancel?.aborted ? 'cancelled' : 'failed' }),
  );
}

async function renderBounded(
  deps: RenderDeps,
  task: RenderTask,
  deadline?: number,
  cancel?: AbortSignal,
): Promise<RenderResult> {
  if (cancel?.aborted) throw renderCancelled();
  if (!deps.pool) return render(task);
  const limit = Math.min(deps.renderTimeoutMs ?? 60_000, deadline ? deadline - Date.now() : Infinity);
  if (limit <= 0) throw deadlinePassed('the printout');
  const timeout = AbortSignal.timeout(limit);
  try {
    return await deps.pool.run(task, { signal: cancel ? AbortSignal.any([timeout, cancel]) : timeout });
  } catch (e) {
    if (cancel?.aborted) throw renderCancelled();
    if ((e as Error)?.name === 'AbortError' || /aborted/i.test(String((e as Error)?.message)))
      throw new AppError(
        ErrorKind.timeout,
        ErrorCode.Timeout,
        `rendering the printout took longer than ${Math.round(limit / 1000)} s and was stopped; nothing was kept`,
      );
    throw e;
  }
}
