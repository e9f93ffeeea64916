/**
 * The warehouse's NATS requests for a document's references (docs/architecture.md "The write pass":
 * every one before the pass's transaction): the partner (invoicing), the accounting period (invoicing)
 * and the report (reporting), each cached where its owner's rules allow.
 */
import { type Period, partners, resolvePeriod, resolveReport } from '@bm/contracts';
import { AppError, ErrorCode, referenceNotFound } from '@bm/errors';
import { type RequestContext, request } from '@bm/messaging';
import type { OrdnerRow, ServiceKit } from '@bm/service-kit';
import { LRUCache } from 'lru-cache';

/** NotFound from the owner becomes ReferenceNotFound naming the body field. */
const asReference = (path: string, what: string) => (e: unknown) => {
  if (e instanceof AppError && e.code === ErrorCode.NotFound) throw referenceNotFound(path, what);
  throw e;
};

/**
 * Partners this replica has seen exist, by company and id (issue #13: no call to invoicing on every card).
 * Partners are never deleted, so an id once found stays valid; an unknown one is asked every time.
 */
const knownPartners = new LRUCache<string, true>({ max: 100_000 });

/** Checks that the partner exists (422 ReferenceNotFound otherwise); asks invoicing once per partner. */
export async function checkPartner(kit: ServiceKit, ctx: RequestContext, partnerId: string): Promise<void> {
  const key = `${ctx.companyId}:${partnerId}`;
  if (knownPartners.has(key)) return;
  await request(kit.nc, partners.get, { id: partnerId }, ctx).catch(asReference('partnerId', 'partner'));
  knownPartners.set(key, true);
}

/**
 * Resolved periods, reused for {@link PERIOD_CACHE_MS} (issue #13). Only a period that contains both
 * dates of the card is kept: its closing is still checked in the card's transaction against the
 * warehouse's copy under the period lock (`lockOpenPeriodState`), so a cached answer can never let a card
 * into a closed period; what it can miss for at most that long is a change of a period's dates.
 */
const PERIOD_CACHE_MS = 5000;
const resolvedPeriods = new LRUCache<string, Period>({ max: 10_000, ttl: PERIOD_CACHE_MS });

/**
 * The accounting period of a card, resolved by invoicing (DESIGN §5 "Period"): `periodId` or the period
 * of `date` (dateAccounting); `dateOperation` must not lie in a closed period.
 * @throws 422 PeriodNotFound / PeriodClosed / ValidationFailed (periodId not containing the date)
 */
export async function findPeriod(
  kit: ServiceKit,
  ctx: RequestContext,
  periodId: string | null | undefined,
  date: string,
  dateOperation?: string,
): Promise<Period> {
  const key = `${ctx.companyId}:${periodId ?? ''}:${date}:${dateOperation ?? ''}`;
  const cached = resolvedPeriods.get(key);
  if (cached) return cached;
  const period = await request(
    kit.nc,
    resolvePeriod,
    { periodId: periodId ?? null, date, dateOperation: dateOperation ?? null },
    ctx,
  );
  const op = dateOperation ?? date;
  if (!period.closed && period.dateFrom <= op && op <= period.dateTo) resolvedPeriods.set(key, period);
  return period;
}

/** The report by id or code, else the ordner's default report. */
export async function findReportId(
  kit: ServiceKit,
  ctx: RequestContext,
  reportId: string | null | undefined,
  reportCode: string | undefined,
  ordner: OrdnerRow,
): Promise<string | null> {
  if (!reportId && !reportCode) return ordner.reportId ?? null;
  const r = await request(
    kit.nc,
    resolveReport,
    { id: reportId ?? null, code: reportCode ?? null },
    ctx,
  ).catch(asReference(reportId ? 'reportId' : 'reportCode', 'report'));
  return r.id;
}
