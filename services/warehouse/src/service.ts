/** The warehouse service: registers its endpoints on NATS (queue group `warehouse`). */
import { type RunningService, startService } from '@bm/service-kit';
import type { Config } from './config.js';
import { registerMasterData } from './handlers/master-data.handlers.js';
import { registerProvision } from './handlers/provision.handler.js';
import { ormOptions } from './persistence/orm-options.js';

/** Starts one replica of the warehouse service. */
export function startWarehouse(config: Config): Promise<RunningService> {
  return startService({
    name: 'warehouse',
    databaseUrl: config.DATABASE_URL,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    orm: ormOptions,
    register: (kit) => {
      registerMasterData(kit);
      registerProvision(kit);
    },
  });
}
