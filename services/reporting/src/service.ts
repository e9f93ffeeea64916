/** The reporting service: report definitions and printouts on NATS (queue group `reporting`), rendering in a worker pool. */
import { type RunningService, type ServiceConfig, startService } from '@bm/service-kit';
import { Piscina } from 'piscina';
import type { ReportingDeps } from './application/printout.service.js';
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
  config: ServiceConfig & Partial<Pick<Config, 'REPORT_WORKERS'>>,
): Promise<RunningService> {
  const pool = createRenderPool(config.REPORT_WORKERS ?? 2);
  return startService({
    name: 'reporting',
    config,
    orm: ormOptions,
    register: (kit) => {
      const deps: ReportingDeps = { kit, pool };
      registerReports(kit);
      registerPrintouts(deps);
    },
    afterStart: async () => async () => {
      await pool?.destroy();
    },
  });
}
