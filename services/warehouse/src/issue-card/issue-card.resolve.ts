/**
 * What an issue card refers to, resolved before its transaction (INTERFACE §2.1, §2.2; DESIGN §5; the
 * transaction rule of docs/architecture.md): ordner, warehouse, items, units and lots locally; partner,
 * period and report over NATS; the source kind of a card copied from another record.
 */
import type { IssueCardInput, SourceType } from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import type { Ctx, DocumentDeps } from '@bm/service-kit';
import {
  checkPartner,
  findPeriod,
  findReportId,
  requireCostPrices,
  resolveOrdner,
  resolveRows,
  resolveWarehouse,
} from '../master-data/index.js';
import type { ValuationMethod } from '../stock-ledger/index.js';
import { findSourceType } from './copy-source.js';

/** An issue card with every reference resolved: the input of the issue card kind (issue-card.kind.ts). */
export interface ResolvedIssue {
  input: IssueCardInput;
  ordner: Awaited<ReturnType<typeof resolveOrdner>>;
  warehouse: Awaited<ReturnType<typeof resolveWarehouse>>;
  resolved: Awaited<ReturnType<typeof resolveRows>>;
  method: ValuationMethod;
  dates: { dateCreated: string; dateOperation: string; dateAccounting: string };
  periodId: string;
  reportId: string | null;
  sourceType: SourceType | null;
}

/**
 * Resolves what an issue card refers to: ordner, warehouse, items, units and lots locally; partner,
 * period and report over NATS. Errors: 422 ReferenceNotFound, LotNumberRequired, CostPriceRequired,
 * PeriodNotFound, PeriodClosed; 400 for a service item.
 */
export async function resolveIssue(
  deps: DocumentDeps,
  ctx: Ctx,
  input: IssueCardInput,
  sourceType?: SourceType | null,
): Promise<ResolvedIssue> {
  const { kit } = deps;
  const em = ctx.em;
  const dateCreated = input.dateCreated ?? todayIn(ctx.timeZone);
  const dateOperation = input.dateOperation ?? dateCreated;
  const dateAccounting = input.dateAccounting ?? dateOperation;
  const ordner = await resolveOrdner(em, input.ordnerId, input.ordnerCode, 'IssueCard');
  const warehouse = await resolveWarehouse(em, input.warehouseId, input.warehouseCode);
  const resolved = await resolveRows(em, input.rows);
  const method = warehouse.valuationMethod as ValuationMethod;
  if (method === 'Custom') requireCostPrices(input.rows);
  const [, period, reportId, source] = await Promise.all([
    checkPartner(kit, ctx, input.partnerId),
    findPeriod(kit, ctx, input.periodId, dateAccounting, dateOperation),
    findReportId(kit, ctx, input.reportId, input.reportCode, ordner),
    sourceType !== undefined ? sourceType : input.sourceId ? findSourceType(deps, ctx, input.sourceId) : null,
  ]);
  return {
    input,
    ordner,
    warehouse,
    resolved,
    method,
    dates: { dateCreated, dateOperation, dateAccounting },
    periodId: period.id,
    reportId,
    sourceType: source,
  };
}
