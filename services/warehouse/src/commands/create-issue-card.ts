/**
 * The create-issue-card command (INTERFACE §2.1, §2.2; DESIGN §5), one forward pass: resolve the card's
 * references (locally, and partner, period and report over NATS before any transaction), then in the
 * issue cards' group commit (service-kit `groupCommit`, issue #13, #24): read the stock state of every
 * (item, lot) as of `dateOperation` (locked by the group, store/stock-state.reads.ts), value the rows by
 * the warehouse's method (refusing with 422 OperationCanceledException where stock would go negative and
 * that is not allowed), hand the ledger writes and the card's write set (store/issue-card.writer.ts) to
 * the group, which numbers the card and writes for all its cards at once. A back-dated card takes its
 * savepoint and reposts itself. With `store: false` the same pass previews the card and stores nothing.
 */

import type { IssueCard, IssueCardInput, SourceType } from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import { dec } from '@bm/money';
import {
  type Ctx,
  checkGivenRecordNumber,
  type DocumentDeps,
  type EntityManager,
  type GroupTx,
  groupCommit,
  numberingOf,
} from '@bm/service-kit';
import { type PostingLine, planPosting, storePostingInGroup } from '../application/ledger-posting.js';
import {
  requireCostPrices,
  resolveOrdner,
  resolveRows,
  resolveWarehouse,
} from '../application/references.js';
import { decideIssueCard } from '../domain/issue-card-decision.js';
import type { ValuationMethod } from '../domain/ledger-replay.js';
import { operationCanceled } from '../domain/shortfall.js';
import { checkPartner, findPeriod, findReportId } from '../ports/references.port.js';
import { issueCardPreview, issueCardWriter, storedIssueCardReply } from '../store/issue-card.writer.js';
import { cardGroupReads, cardStockInfo, readCardStock } from '../store/stock-state.reads.js';
import { findSourceType } from './copy-source.js';

export type WarehouseDeps = DocumentDeps;

/** An issue card with every reference resolved: the input of {@link valueAndStore}. */
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
  deps: WarehouseDeps,
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

/**
 * Creates (`store: true`) or previews (`store: false`) an issue card. The preview has no ids, no record
 * number, and stores nothing. Errors: see `createIssueCard` in the contracts.
 */
export async function issueCard(
  deps: WarehouseDeps,
  ctx: Ctx,
  input: IssueCardInput,
  opts: { store: boolean; sourceType?: SourceType | null },
): Promise<IssueCard> {
  return valueAndStore(deps, ctx, await resolveIssue(deps, ctx, input, opts.sourceType), opts.store);
}

/**
 * Values a resolved issue card as of its `dateOperation` and, with `store`, stores it in the issue cards'
 * group commit: read (its stock state and period, locked by the group: store/stock-state.reads.ts),
 * decide (the valuation, `planPosting`, and the card's write set), write (the ledger's writes handed to
 * the group, a back-dated card's repost under its savepoint; the card's rows by its writer,
 * store/issue-card.writer.ts, once the group has numbered it); then the reply from what was stored.
 * @throws 422 OperationCanceledException with `shortfalls`, PeriodClosed; 409 DuplicateRecordNumber.
 */
export async function valueAndStore(
  deps: WarehouseDeps,
  ctx: Ctx,
  r: ResolvedIssue,
  store: boolean,
): Promise<IssueCard> {
  const { input, warehouse, resolved, method } = r;
  const { dateOperation } = r.dates;
  const companyId = ctx.companyId!;
  const lines: PostingLine[] = input.rows.map((row, i) => ({
    line: i,
    itemId: resolved[i].item.id,
    lotNumberID: resolved[i].lotNumberID,
    quantity: dec(row.quantity ?? '1'),
    costPrice: method === 'Custom' ? dec(row.costPrice!) : undefined,
  }));
  const items = new Map(resolved.map((x) => [x.item.id, x.item]));
  const cardId = crypto.randomUUID();
  const stockInfo = cardStockInfo(companyId, r.periodId, warehouse.id, method, lines);

  /** Read and decide: the card valued on its stock state, and its write set. */
  const decide = async (tx: EntityManager, g?: GroupTx) => {
    const stock = await readCardStock(tx, companyId, { ...stockInfo, dateOperation }, g);
    const plan = await planPosting(
      tx,
      companyId,
      warehouse,
      { kind: 'issue', docId: cardId, date: dateOperation, lines },
      stock.balances,
      stock.prefetched,
      (shortfalls) => {
        throw operationCanceled(shortfalls, items);
      },
    );
    return { stock, plan, writeSet: decideIssueCard(r, { cardId, companyId }, plan.issued) };
  };
  if (!store) return issueCardPreview((await decide(ctx.em)).writeSet);

  const table = '"warehouse"."issue_card"';
  const given = input.recordNumber?.trim() || undefined;
  // Issue cards (of any companies and ordners) arriving together share one transaction; a card takes its
  // savepoint only before writes it cannot hand to the group (a repost). Its stock keys are declared, so
  // groups of this process never wait for each other's balance locks.
  const stored = await groupCommit(
    'warehouse:issue-card',
    ctx.em,
    async (g) => {
      const { stock, plan, writeSet } = await decide(g.tx, g);
      await checkGivenRecordNumber(g.tx, table, companyId, given);
      await storePostingInGroup(g, ctx, plan, stock);
      // Numbered with the group after every card's work (DESIGN §5); a given number is stored at once.
      return { writeSet, writer: issueCardWriter };
    },
    {
      numbering: numberingOf({ table, companyId, ordner: r.ordner, date: dateOperation, given }),
      locks: stockInfo.locks,
      lazySavepoint: true,
      info: stockInfo,
      reads: cardGroupReads,
    },
  );
  deps.kickOutbox();
  return storedIssueCardReply(stored.writeSet, stored.recordNumber);
}
