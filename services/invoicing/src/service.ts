/** The invoicing service: endpoints on NATS (queue group `invoicing`), outbox relay, stock-issued consumer. */
import {
  type OutboxRelay,
  type RunningService,
  type ServiceConfig,
  startOutboxRelay,
  startService,
} from '@bm/service-kit';
import type { InvoicingDeps } from './commands/deps.js';
import { startStockIssuedConsumer } from './consumers/stock-issued.consumer.js';
import { SCHEMA } from './persistence/entities.js';
import { ormOptions } from './persistence/orm-options.js';
import { registerCompany } from './transport/company.handlers.js';
import { registerEInvoices } from './transport/e-invoice.handlers.js';
import { registerInbox } from './transport/inbox.handlers.js';
import { registerInvoices } from './transport/invoices.handlers.js';
import { registerLookups } from './transport/lookups.handlers.js';
import { registerMasterData } from './transport/master-data.handlers.js';
import { registerPeriods } from './transport/period.handlers.js';
import { registerProvision } from './transport/provision.handler.js';
import { registerVatFilings } from './vat-filings/handlers.js';

export interface InvoicingService extends RunningService {
  relay: () => OutboxRelay | undefined;
}

/** Starts one replica of the invoicing service. */
export async function startInvoicing(config: ServiceConfig): Promise<InvoicingService> {
  let relay: OutboxRelay | undefined;
  const running = await startService({
    name: 'invoicing',
    config,
    orm: ormOptions,
    register: (kit) => {
      const deps: InvoicingDeps = { kit, kickOutbox: () => relay?.kick() };
      registerMasterData(kit);
      registerPeriods(kit);
      registerProvision(kit);
      registerLookups(kit);
      registerInvoices(deps);
      registerEInvoices(deps);
      registerInbox(deps);
      registerCompany(kit);
      registerVatFilings(kit);
    },
    afterStart: async (kit) => {
      relay = startOutboxRelay({ orm: kit.orm, nc: kit.nc, log: kit.log, schema: SCHEMA });
      const stopConsumer = startStockIssuedConsumer(kit);
      return async () => {
        await stopConsumer();
        await relay!.stop();
      };
    },
  });
  return { ...running, relay: () => relay };
}
