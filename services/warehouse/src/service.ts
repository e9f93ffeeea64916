/** The warehouse service: registers its endpoints on NATS (queue group `warehouse`) and runs its outbox relay. */
import {
  type OutboxRelay,
  type RunningService,
  type ServiceConfig,
  startOutboxRelay,
  startService,
} from '@bm/service-kit';
import { registerStorno } from './card-storno/storno.handlers.js';
import type { WarehouseDeps } from './commands/create-issue-card.js';
import { SCHEMA } from './persistence/entities.js';
import { ormOptions } from './persistence/orm-options.js';
import { registerDocuments } from './transport/documents.handlers.js';
import { registerMasterData } from './transport/master-data.handlers.js';
import { registerProvision } from './transport/provision.handler.js';

export interface WarehouseService extends RunningService {
  relay: () => OutboxRelay | undefined;
}

/** Starts one replica of the warehouse service. */
export async function startWarehouse(config: ServiceConfig): Promise<WarehouseService> {
  let relay: OutboxRelay | undefined;
  const running = await startService({
    name: 'warehouse',
    config,
    orm: ormOptions,
    register: (kit) => {
      const deps: WarehouseDeps = { kit, kickOutbox: () => relay?.kick() };
      registerMasterData(kit);
      registerProvision(kit);
      registerDocuments(deps);
      registerStorno(deps);
    },
    afterStart: async (kit) => {
      relay = startOutboxRelay({ orm: kit.orm, nc: kit.nc, log: kit.log, schema: SCHEMA });
      return () => relay!.stop();
    },
  });
  return { ...running, relay: () => relay };
}
