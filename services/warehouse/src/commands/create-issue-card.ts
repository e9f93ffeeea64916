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

import type { IssueCard, IssueCardInput, IssueCardRow, SourceType } from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import { dec, fmt, sum } from '@bm/money';
import {
  awaitingNumber,
  type Ctx,
  checkGivenRecordNumber,
  type DocumentDeps,
  type EntityManager,
  type GroupTx,
  groupCommit,
  type Prepared,
} from '@bm/service-kit';
import { type PostingLine, planPosting, storePosting } from '../application/ledger-posting.js';
import {
  closedPeriods,
  requireCostPrices,
  resolveOrdner,
  resolveRows,
  resolveWarehouse,
} from '../application/references.js';
import { stockKey, type ValuationMethod } from '../domain/ledger-replay.js';
import { operationCanceled } from '../domain/shortfall.js';
import { issueEntries } from '../domain/warehouse-accounting.js';
import { lockPeriodStates, periodClosedMeanwhile } from '../persistence/period-state.repository.js';
import { layerKey } from '../persistence/stock-ledger.repository.js';
import { checkPartner, findPeriod, findReportId } from '../ports/references.port.js';
import { issueCardWriteSet } from '../store/issue-card.writer.js';
import { type CardStockInfo, isCardStock, readCardStock } from '../store/stock-state.reads.js';
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
 * Values a resolved issue card as of its `dateOperation` and, with `store`, stores it in its ordner's group
 * commit (locks per item and lot, ledger, layers, balances under its savepoint; then record number, card,
 * rows, entries and outbox event with the group).
 * @throws 422 OperationCanceledException with `shortfalls`; 409 DuplicateRecordNumber.
 */
export async function valueAndStore(
  deps: WarehouseDeps,
  ctx: Ctx,
  r: ResolvedIssue,
  store: boolean,
): Promise<IssueCard> {
  const { input, ordner, warehouse, resolved, method } = r;
  const { dateCreated, dateOperation, dateAccounting } = r.dates;
  const em = ctx.em;
  const opts = { store };
  const reportId = r.reportId;
  const sourceType = r.sourceType;
  const period = { id: r.periodId };
  const lines: PostingLine[] = input.rows.map((row, i) => ({
    line: i,
    itemId: resolved[i].item.id,
    lotNumberID: resolved[i].lotNumberID,
    quantity: dec(row.quantity ?? '1'),
    costPrice: method === 'Custom' ? dec(row.costPrice!) : undefined,
  }));
  const items = new Map(resolved.map((x) => [x.item.id, x.item]));
  const cardId = crypto.randomUUID();
  const keys = [
    ...new Map(
      lines.map((l) => [stockKey(l.itemId, l.lotNumberID), { itemId: l.itemId, lotNumberID: l.lotNumberID }]),
    ).values(),
  ];
  /** The card's stock keys in its warehouse: its declared locks in the group commit. */
  const locks = keys.map((k) => layerKey(warehouse.id, k));
  const stockInfo: CardStockInfo = {
    kind: 'issue-card-stock',
    companyId: ctx.companyId!,
    periodId: r.periodId,
    warehouseId: warehouse.id,
    fifo: method === 'FIFO',
    keys,
    locks,
  };

  const prepare = async (tx: EntityManager, g?: GroupTx): Promise<Prepared<IssueCard>> => {
    // The period stays open until this card commits: closing it waits for this share lock (DESIGN §5).
    // The group locks the periods of all its cards at once, until the shared transaction ends.
    if (g) {
      const periods = g.peers.filter(isCardStock);
      const closed = await g.once('periods', () => lockPeriodStates(tx, periods));
      if (closed.has(period.id)) throw periodClosedMeanwhile();
    }
    // Its balances (locked when storing), first open layers and place in the ledger; read by the
    // group's first card for every card of the group that shares no key (store/stock-state.reads.ts).
    const { balances, prefetched, seq } = await readCardStock(
      tx,
      ctx.companyId!,
      { ...stockInfo, dateOperation },
      { store: opts.store, g },
    );
    const plan = await planPosting(
      tx,
      ctx.companyId!,
      warehouse,
      { kind: 'issue', docId: cardId, date: dateOperation, lines },
      balances,
      prefetched,
      (shortfalls) => {
        throw operationCanceled(shortfalls, items);
      },
    );
    const valued = lines.flatMap((l) => plan.issued.get(l.line)!.map((p) => ({ line: l.line, ...p })));

    const rows: IssueCardRow[] = valued.map((v) => {
      const src = input.rows[v.line];
      const item = resolved[v.line].item;
      return {
        itemId: item.id,
        code: src.code ?? item.code,
        name: src.name ?? item.name,
        unitId: resolved[v.line].unitId,
        lotNumberID: resolved[v.line].lotNumberID,
        quantity: fmt(v.quantity),
        sellPrice: src.sellPrice ?? item.sellPrice,
        costPrice: fmt(v.costPrice),
        amount: fmt(v.amount),
      };
    });
    const totalCost = sum(valued.map((r) => r.amount));
    const entries = (recordNumber: string | null) => issueEntries(warehouse, totalCost, recordNumber);
    const header = {
      ordnerId: ordner.id,
      warehouseId: warehouse.id,
      partnerId: input.partnerId,
      tags: input.tags ?? [],
      partnerAddress: input.partnerAddress ?? null,
      dateCreated,
      dateAccounting,
      dateOperation,
      periodId: period.id,
      itemsComment: input.itemsComment ?? null,
      reportId,
      sourceId: input.sourceId ?? null,
      sourceType: sourceType ?? null,
    };
    if (!opts.store)
      return {
        value: {
          ...header,
          recordNumber: null,
          rows,
          totalCost: fmt(totalCost),
          accountingEntries: entries(null),
        },
      };

    const companyId = ctx.companyId!;
    const table = '"warehouse"."issue_card"';
    const given = input.recordNumber?.trim() || undefined;
    await checkGivenRecordNumber(tx, table, companyId, given);
    const now = new Date();
    await storePosting(tx, ctx, plan, seq, balances, (ids) => closedPeriods({ ...ctx, em: tx }, ids), {
      beforeWrite: g?.savepoint,
      defer: g && ((parts) => g.defer(locks, parts)),
    });
    /** The card, its rows, entries and event under its record number (one statement for the group). */
    const finish = (recordNumber: string) =>
      issueCardWriteSet({
        cardId,
        companyId,
        header: { ...header, warehouseId: warehouse.id, dateOperation },
        recordNumber,
        rows,
        lines: valued.map((v) => v.line),
        totalCost: fmt(totalCost),
        entries: entries(recordNumber),
        createdAt: now,
      });
    // Numbered with the group after every card's work (DESIGN §5); a given number is stored at once.
    return awaitingNumber({ table, companyId, ordner, date: dateOperation, given }, finish);
  };
  if (!opts.store) {
    const preview = await prepare(em);
    if (!('value' in preview)) throw new Error('a preview stores nothing and takes no number');
    return preview.value;
  }
  // Issue cards (of any companies and ordners) arriving together share one transaction; a card takes its
  // savepoint only before writes it cannot hand to the group (a repost). Its stock keys are declared, so
  // groups of this process never wait for each other's balance locks.
  const card = await groupCommit('warehouse:issue-card', em, (g) => prepare(g.tx, g), {
    locks,
    lazySavepoint: true,
    info: stockInfo,
  });
  deps.kickOutbox();
  return card;
}
