/**
 * Lookups other services ask invoicing for: the accounting period of a document (DESIGN §5 "Period")
 (the sales-invoice copy source is served with the invoices).
 */
import { getCompanyProfile, resolvePeriod } from '@bm/contracts';
import { serve } from '@bm/messaging';
import { type Ctx, pick, type ServiceKit } from '@bm/service-kit';
import { companyProfile, resolvePeriodLocal } from '../application/references.js';

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

  /** The supplier block of printouts. */
  serve<typeof getCompanyProfile, X>(
    kit.service,
    getCompanyProfile,
    async (_q, ctx) => {
      const p = await companyProfile(ctx.em);
      return pick(p, [
        'name',
        'country',
        'vatNumber',
        'companyNumber',
        'address',
        'currency',
        'ossRegistered',
      ]);
    },
    kit.serveOpts,
  );
}
