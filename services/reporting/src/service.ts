/** The reporting service: report definitions and printouts on NATS (queue group `reporting`), rendering in a worker pool. */
import { type RunningService, type ServiceConfig, startService } from '@bm/service-kit';
import { scrapeGauge } from '@bm/telemetry';
import { Piscina } from 'piscina';
import type { ReportingDeps } from './application/printout.service.js';
import { RenderAdmission } from './application/render-admission.js';
import { RenderCancellations } from './application/render-cancellation.js';
import type { Config } from './config.js';
import { ormOptions } from './persistence/orm-options.js';
import { registerPrintouts } from './transport/printout.handler.js';
import { registerReports } from './transport/reports.handlers.js';

/** The render pool: worker threads that load the TypeScript worker through tsx. */
export function createRenderPool(threads: number): Piscina | null {
  if (threads <= 0) return null;
  return new Piscina({
    filename: new URL('./rendering/render.worker.ts', import.meta.url).href,
    minThreads: 1,
    maxThreads: threads,
    execArgv: ['--import', 'tsx'],
  });
}

/** Starts one replica of the reporting service. */
export async function startReporting(
  config: ServiceConfig &
    Partial<
      Pick<Config, 'REPORT_WORKERS' | 'PRINTOUT_PER_COMPANY' | 'PRINTOUT_QUEUE' | 'PRINTOUT_TIMEOUT_MS'>
    >,
): Promise<RunningService> {
  const pool = createRenderPool(config.REPORT_WORKERS ?? 2);
  const admission = new RenderAdmission({
    perCompany: config.PRINTOUT_PER_COMPANY ?? 4,
    total: config.PRINTOUT_QUEUE ?? 32,
  });
  // Printouts admitted and not finished (fetching, waiting for a render thread, rendering), and the
  // render tasks waiting for a thread of the pool (issue #25).
  const unobserve = scrapeGauge({
    name: 'bm_printout_render_queue_depth',
    help: 'Printouts in work (admitted) and render tasks waiting for a render thread',
    labelNames: ['state'] as const,
    read: async () => [
      { labels: { state: 'admitted' }, value: admission.inProgress() },
      { labels: { state: 'waiting_for_thread' }, value: pool?.queueSize ?? 0 },
    ],
  });
  return startService({
    name: 'reporting',
    config,
    orm: ormOptions,
    outbox: false,
    register: (kit) => {
      const deps: ReportingDeps = {
        kit,
        pool,
        admission,
        renderTimeoutMs: config.PRINTOUT_TIMEOUT_MS ?? 30_000,
        cancellations: new RenderCancellations(),
      };
      registerReports(kit);
      registerPrintouts(deps);
    },
    afterStart: async () => async () => {
      unobserve();
      await pool?.destroy();
    },
  });
}
