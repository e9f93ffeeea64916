/**
 * Accounting periods (DESIGN §4, §5 "Period"): CRUD with the overlap and documents-inside rules, and the
 * close, which the warehouse's copy of the period takes first. Transport only: decode, check, store; the
 * warehouse is asked before any transaction begins (docs/architecture.md, issue #22).
 */
import {
  closePeriod,
  closeWarehousePeriod,
  countCardsOutsidePeriod,
  type Period,
  periods,
} from '@bm/contracts';
import { AppError, conflict, ErrorCode, ErrorKind, notFound } from '@bm/errors';
import { request, serve } from '@bm/messaging';
import { type Ctx, pick, registerCrud, type ServiceKit } from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import { PeriodEntity, PurchaseInvoiceEntity, SalesInvoiceEntity } from '../schema/entities.js';

type PeriodRow = InstanceType<typeof PeriodEntity.class>;

const periodDto = (p: PeriodRow): Period => pick(p, ['id', 'code', 'dateFrom', 'dateTo', 'closed']);

/** 409 Conflict when [dateFrom, dateTo] overlaps another period of the company (DESIGN §4). */
async function assertNoOverlap(ctx: Ctx, p: { dateFrom: string; dateTo: string }, selfId?: string) {
  // One writer of periods per company at a time, so two overlapping creates cannot both pass the check.
  await ctx.em.execute('select pg_advisory_xact_lock(hashtext(?))', [`period:${ctx.companyId}`]);
  const clash = await ctx.em.findOne(PeriodEntity, {
    dateFrom: { $lte: p.dateTo },
    dateTo: { $gte: p.dateFrom },
    ...(selfId ? { id: { $ne: selfId } } : {}),
  });
  if (clash)
    throw conflict(`the period overlaps period ${clash.code}`, [
      { path: 'dateFrom', message: `overlaps period ${clash.code}` },
    ]);
}

/**
 * A period cannot move or shrink under documents booked in it (DESIGN §5 "Period"): every sales and
 * purchase invoice and every warehouse card with this `periodId` must keep its dateAccounting inside the
 * new dates. @throws 409 InvalidState naming the count
 */
async function assertDocumentsInside(
  kit: ServiceKit,
  ctx: Ctx,
  periodId: string,
  dateFrom: string,
  dateTo: string,
): Promise<void> {
  const outside = {
    periodId,
    $or: [{ dateAccounting: { $lt: dateFrom } }, { dateAccounting: { $gt: dateTo } }],
  };
  const [sales, purchases, cards] = await Promise.all([
    ctx.em.count(SalesInvoiceEntity, outside),
    ctx.em.count(PurchaseInvoiceEntity, outside),
    request(kit.nc, countCardsOutsidePeriod, { periodId, dateFrom, dateTo }, ctx).then((r) => r.count),
  ]);
  const n = sales + purchases + cards;
  if (n)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      `${n} document(s) booked in the period would lie outside ${dateFrom} – ${dateTo}`,
      { errors: [{ path: 'dateFrom', message: 'documents booked in the period lie outside the new dates' }] },
    );
}

/** Registers the period endpoints of the invoicing service. */
export function registerPeriods(kit: ServiceKit): void {
  registerCrud(kit, periods, {
    entity: PeriodEntity,
    label: 'Period',
    orderBy: { dateFrom: 'asc' },
    assign: async (input: any, ctx, existing) => {
      if (existing?.closed) {
        throw new AppError(ErrorKind.conflict, ErrorCode.InvalidState, `period ${existing.code} is closed`);
      }
      // Asks the warehouse, so before the transaction begins (issue #22).
      if (existing && (input.dateFrom !== existing.dateFrom || input.dateTo !== existing.dateTo))
        await assertDocumentsInside(kit, ctx, existing.id, input.dateFrom, input.dateTo);
      return { ...input, closed: existing?.closed ?? false };
    },
    beforeStore: async (data: any, ctx, existing) => {
      await assertNoOverlap(ctx, data, existing?.id);
    },
    toDtos: (rows) => rows.map(periodDto),
  });
  serve<typeof closePeriod, { em: Ctx['em'] }>(
    kit.service,
    closePeriod,
    async ({ id }, ctx) => {
      if (!(await ctx.em.findOne(PeriodEntity, { id }))) throw notFound('Period');
      // The warehouse closes its copy first (its exclusive lock waits for cards being stored in the
      // period), before this transaction begins: no NATS request inside a transaction (issue #22). If
      // the step below fails, the warehouse already refuses cards in the period and a repeated close
      // completes it (closing is idempotent on both sides).
      await request(kit.nc, closeWarehousePeriod, { periodId: id }, ctx);
      // The exclusive lock waits for invoices being stored in the period (they hold a share lock).
      return ctx.em.transactional(async (tx) => {
        const p = await tx.findOne(PeriodEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!p) throw notFound('Period');
        p.closed = true;
        return periodDto(p);
      });
    },
    kit.serveOpts,
  );
}
