/**
 * The issue card as a document kind (INTERFACE §2.1, §2.2; DESIGN §5; issue #38), read top to bottom:
 * declared with its stock keys and period (the group locks and reads them with its `begin`), its state
 * the stock of its keys as of `dateOperation`, decided by valuing its rows by the warehouse's method
 * (422 OperationCanceledException where stock would go negative and that is not allowed), its ledger
 * writes handed to the group (a back-dated card reposts under its savepoint), its rows written by
 * issue-card.writer.ts once the group has numbered it. {@link issueCard} is the use case: resolve, then
 * preview or store.
 */
import type { IssueCard, IssueCardInput, SourceType } from '@bm/contracts';
import { dec } from '@bm/money';
import {
  type Ctx,
  checkGivenRecordNumber,
  type DocumentDeps,
  type DocumentKind,
  type EntityManager,
  numberingOf,
  runDocument,
} from '@bm/service-kit';
import {
  type CardStock,
  type CardStockInfo,
  cardGroupReads,
  cardStockInfo,
  operationCanceled,
  type PostingLine,
  planPosting,
  readCardStock,
  storePostingInGroup,
} from '../stock-ledger/index.js';
import { decideIssueCard, type IssueCardWriteSet } from './issue-card.decision.js';
import { type ResolvedIssue, resolveIssue } from './issue-card.resolve.js';
import { issueCardPreview, issueCardWriter, storedIssueCardReply } from './issue-card.writer.js';

const TABLE = '"warehouse"."issue_card"';

/** An issue card ready to store: resolved, with its new id, ledger lines and stock keys. */
export interface PreparedIssue extends ResolvedIssue {
  ctx: Ctx;
  companyId: string;
  cardId: string;
  lines: PostingLine[];
  stockInfo: CardStockInfo;
  /** A record number given by the client. */
  given: string | undefined;
}

/** `POST /1.6/warehouses/issue-cards` (and the stored copy) as a document kind (service-kit `runDocument`). */
export const issueCardKind: DocumentKind<PreparedIssue, CardStock, IssueCardWriteSet, IssueCard> = {
  key: 'warehouse:issue-card',
  declare: (p) => ({
    numbering: numberingOf({
      table: TABLE,
      companyId: p.companyId,
      ordner: p.ordner,
      date: p.dates.dateOperation,
      given: p.given,
    }),
    locks: p.stockInfo.locks,
    info: p.stockInfo,
    reads: cardGroupReads,
    // A card takes its savepoint only before writes it cannot hand to the group (a repost).
    lazySavepoint: true,
  }),
  read: (p, g) =>
    readCardStock(g.tx, p.companyId, { ...p.stockInfo, dateOperation: p.dates.dateOperation }, g),
  async decide(p, stock, g) {
    const { plan, writeSet } = await valueIssue(p, stock, g.tx);
    await checkGivenRecordNumber(g.tx, TABLE, p.companyId, p.given);
    await storePostingInGroup(g, p.ctx, plan, stock);
    return writeSet;
  },
  writer: issueCardWriter,
  reply: storedIssueCardReply,
};

/**
 * Creates (`store: true`) or previews (`store: false`) an issue card. The preview has no ids, no record
 * number, and stores nothing. Errors: see `createIssueCard` in the contracts.
 */
export async function issueCard(
  deps: DocumentDeps,
  ctx: Ctx,
  input: IssueCardInput,
  opts: { store: boolean; sourceType?: SourceType | null },
): Promise<IssueCard> {
  const r = await resolveIssue(deps, ctx, input, opts.sourceType);
  if (opts.store) return storeResolvedIssue(deps, ctx, r);
  const p = prepareIssue(ctx, r);
  const stock = await readCardStock(ctx.em, p.companyId, {
    ...p.stockInfo,
    dateOperation: p.dates.dateOperation,
  });
  return issueCardPreview((await valueIssue(p, stock, ctx.em)).writeSet);
}

/** Stores an issue card whose references are resolved (the benchmarks call it in-process). */
export async function storeResolvedIssue(deps: DocumentDeps, ctx: Ctx, r: ResolvedIssue): Promise<IssueCard> {
  const reply = await runDocument(issueCardKind, ctx.em, prepareIssue(ctx, r));
  deps.kickOutbox();
  return reply;
}

/** The card's ledger lines (quantity 1 when not sent; the caller's cost under Custom) and stock keys. */
function prepareIssue(ctx: Ctx, r: ResolvedIssue): PreparedIssue {
  const companyId = ctx.companyId!;
  const lines: PostingLine[] = r.input.rows.map((row, i) => ({
    line: i,
    itemId: r.resolved[i].item.id,
    lotNumberID: r.resolved[i].lotNumberID,
    quantity: dec(row.quantity ?? '1'),
    costPrice: r.method === 'Custom' ? dec(row.costPrice!) : undefined,
  }));
  return {
    ...r,
    ctx,
    companyId,
    cardId: crypto.randomUUID(),
    lines,
    stockInfo: cardStockInfo(companyId, r.periodId, r.warehouse.id, r.method, lines),
    given: r.input.recordNumber?.trim() || undefined,
  };
}

/**
 * The card valued on `stock` (its posting planned: 422 OperationCanceledException with `shortfalls`
 * where stock would go negative and that is not allowed) and its write set.
 */
async function valueIssue(p: PreparedIssue, stock: CardStock, tx: EntityManager) {
  const items = new Map(p.resolved.map((x) => [x.item.id, x.item]));
  const plan = await planPosting(
    tx,
    p.companyId,
    p.warehouse,
    { kind: 'issue', docId: p.cardId, date: p.dates.dateOperation, lines: p.lines },
    stock.balances,
    stock.prefetched,
    (shortfalls) => {
      throw operationCanceled(shortfalls, items);
    },
  );
  return { plan, writeSet: decideIssueCard(p, { cardId: p.cardId, companyId: p.companyId }, plan.issued) };
}
