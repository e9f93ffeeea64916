/** The reporting service: registers its endpoints on NATS (queue group `reporting`). */
import { type RunningService, startService } from '@bm/service-kit';
import type { Config } from './config.js';
import { registerReports } from './handlers/reports.handlers.js';
import { ormOptions } from './persistence/orm-options.js';

/** Starts one replica of the reporting service. */
export function startReporting(config: Config): Promise<RunningService> {
  return startService({
    name: 'reporting',
    databaseUrl: config.DATABASE_URL,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    orm: ormOptions,
    register: registerReports,
  });
}
