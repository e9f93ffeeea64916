/** The reporting service: report definitions and printouts on NATS (queue group `reporting`), rendering in a worker pool. */
import { type RunningService, type ServiceConfig, startService } from '@bm/service-kit';
import { Piscina } from 'piscina';
import type { ReportingDeps } from './application/printout.service.js';
import { RenderAdmission } from './application/render-admission.js';
import { RenderCancellations } from './application/render-cancellation.js';
import type { Config } from './config.js';
import { registerPrintouts } from './handlers/printout.handler.js';
import { registerReports } from './handlers/reports.handlers.js';
import { ormOptions } from './persistence/orm-options.js';

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
  return startService({
    name: 'reporting',
    config,
    orm: ormOptions,
    register: (kit) => {
      const deps: ReportingDeps = {
        kit,
        pool,
        admission: new RenderAdmission({
          perCompany: config.PRINTOUT_PER_COMPANY ?? 4,
          total: config.PRINTOUT_QUEUE ?? 32,
        }),
        renderTimeoutMs: config.PRINTOUT_TIMEOUT_MS ?? 30_000,
        cancellations: new RenderCancellations(),
      };
      registerReports(kit);
      registerPrintouts(deps);
    },
    afterStart: async () => async () => {
      await pool?.destroy();
    },
  });
}
