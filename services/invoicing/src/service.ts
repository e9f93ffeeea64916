/** The invoicing service: registers its endpoints on NATS (queue group `invoicing`). */
import { type RunningService, startService } from '@bm/service-kit';
import type { Config } from './config.js';
import { registerLookups } from './handlers/lookups.handlers.js';
import { registerMasterData } from './handlers/master-data.handlers.js';
import { registerProvision } from './handlers/provision.handler.js';
import { ormOptions } from './persistence/orm-options.js';

/** Starts one replica of the invoicing service. */
export function startInvoicing(config: Config): Promise<RunningService> {
  return startService({
    name: 'invoicing',
    databaseUrl: config.DATABASE_URL,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    orm: ormOptions,
    register: (kit) => {
      registerMasterData(kit);
      registerProvision(kit);
      registerLookups(kit);
    },
  });
}
