/** The warehouse service: registers its endpoints on NATS (queue group `warehouse`) and runs its outbox relay. */
import {
  type DocumentDeps,
  type OutboxRelay,
  type RunningService,
  type ServiceConfig,
  startOutboxRelay,
  startService,
} from '@bm/service-kit';
import { registerCardLists } from './card-list/card-list.handlers.js';
import { registerStorno } from './card-storno/storno.handlers.js';
import { registerIssueCards } from './issue-card/issue-card.handlers.js';
import { registerMasterData } from './master-data/master-data.handlers.js';
import { registerProvision } from './master-data/provision.handler.js';
import { registerReceiptCards } from './receipt-card/receipt-card.handlers.js';
import { SCHEMA } from './schema/entities.js';
import { ormOptions } from './schema/orm-options.js';
import { registerStock } from './stock-ledger/stock.handlers.js';

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
      const deps: DocumentDeps = { kit, kickOutbox: () => relay?.kick() };
      registerMasterData(kit);
      registerProvision(kit);
      registerIssueCards(deps);
      registerReceiptCards(deps);
      registerStorno(deps);
      registerCardLists(kit);
      registerStock(kit);
    },
    afterStart: async (kit) => {
      relay = startOutboxRelay({ orm: kit.orm, nc: kit.nc, log: kit.log, schema: SCHEMA });
      return () => relay!.stop();
    },
  });
  return { ...running, relay: () => relay };
}
