/**
 * Lookups other services ask invoicing for: the accounting period of a document (DESIGN §5 "Period")
 (the sales-invoice copy source is served with the invoices; the company profile by company.handlers.ts).
 */
import { resolvePeriod } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { resolvePeriodLocal } from '../references/index.js';

type X = { em: Ctx['em'] };

export function registerLookups(kit: ServiceKit): void {
  /** The period of a warehouse card: see {@link resolvePeriodLocal}. */
  serve<typeof resolvePeriod, X>(
    kit.service,
    resolvePeriod,
    ({ periodId, date, dateOperation }, ctx) =>
      resolvePeriodLocal(ctx.em, periodId, date, 'dateAccounting', dateOperation),
    kit.serveOpts,
  );
}
