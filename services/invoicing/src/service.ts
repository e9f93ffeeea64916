/** The invoicing service: endpoints on NATS (queue group `invoicing`), outbox relay, stock-issued consumer. */
import {
  type OutboxRelay,
  type RunningService,
  type ServiceConfig,
  startOutboxRelay,
  startService,
} from '@bm/service-kit';
import { registerBankPairing } from './bank-pairing/pairing.handlers.js';
import { registerBankStatements } from './bank-statement/bank.handlers.js';
import { registerCompany } from './company/company.handlers.js';
import { registerLookups } from './company/lookups.handlers.js';
import { registerMasterData } from './company/master-data.handlers.js';
import { registerPeriods } from './company/period.handlers.js';
import { registerProvision } from './company/provision.handler.js';
import { registerEInvoices } from './e-invoice/e-invoice.handlers.js';
import { registerInbox } from './e-invoice-inbox/inbox.handlers.js';
import { registerPaymentOrders } from './payment-order/payment-order.handlers.js';
import { registerPurchaseInvoices } from './purchase-invoice/purchase-invoice.handlers.js';
import type { InvoicingDeps } from './references/deps.js';
import { registerSalesInvoices } from './sales-invoice/sales-invoice.handlers.js';
import { startStockIssuedConsumer } from './sales-invoice/stock-issued.consumer.js';
import { SCHEMA } from './schema/entities.js';
import { ormOptions } from './schema/orm-options.js';
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
      registerSalesInvoices(deps);
      registerPurchaseInvoices(deps);
      registerEInvoices(deps);
      registerInbox(deps);
      registerCompany(kit);
      registerVatFilings(kit);
      registerBankStatements(kit);
      registerBankPairing(kit);
      registerPaymentOrders(kit);
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
