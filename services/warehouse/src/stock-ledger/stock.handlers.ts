/** The stock report endpoint (`GET /1.6/warehouses/{id}/stock`, DESIGN §5). Transport only. */
import { getStock } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { stockReport } from './stock-report.js';

type X = { em: Ctx['em'] };

/** Registers the stock report. */
export function registerStock(kit: ServiceKit): void {
  serve<typeof getStock, X>(
    kit.service,
    getStock,
    (q, ctx) => stockReport(ctx, q.warehouseId, q.date, q.itemId),
    kit.serveOpts,
  );
}
