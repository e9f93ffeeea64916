/**
 * Lookups other services ask invoicing for: the accounting period of a document (DESIGN §5 "Period")
 (the sales-invoice copy source is served with the invoices).
 */
import { getCompanyProfile, resolvePeriod } from '@bm/contracts';
import { ErrorCode, unprocessable } from '@bm/errors';
import { serve } from '@bm/messaging';
import { type Ctx, pick, type ServiceKit } from '@bm/service-kit';
import { companyProfile } from '../application/references.js';
import { PeriodEntity } from '../persistence/entities.js';

type X = { em: Ctx['em'] };

export function registerLookups(kit: ServiceKit): void {
  /** `periodId` if given, else the period containing `date`; 422 PeriodNotFound / PeriodClosed. */
  serve<typeof resolvePeriod, X>(
    kit.service,
    resolvePeriod,
    async ({ periodId, date }, ctx) => {
      const p = periodId
        ? await ctx.em.findOne(PeriodEntity, { id: periodId })
        : await ctx.em.findOne(PeriodEntity, { dateFrom: { $lte: date }, dateTo: { $gte: date } });
      if (!p) {
        throw unprocessable(
          ErrorCode.PeriodNotFound,
          periodId ? 'the period does not exist' : `no accounting period contains ${date}`,
          {
            errors: [{ path: periodId ? 'periodId' : 'dateAccounting', message: 'no such period' }],
          },
        );
      }
      if (p.closed) {
        throw unprocessable(ErrorCode.PeriodClosed, `period ${p.code} is closed`, {
          errors: [{ path: periodId ? 'periodId' : 'dateAccounting', message: `period ${p.code} is closed` }],
        });
      }
      return pick(p, ['id', 'code', 'dateFrom', 'dateTo', 'closed']);
    },
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
