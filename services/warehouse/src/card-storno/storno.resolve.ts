/**
 * What a storno needs before its transaction (issue #38; docs/architecture.md "Adding a document kind"):
 * the card to reverse with its rows, its warehouse and ordner, the reversal's date and its accounting
 * period (over NATS, like every card's), and the ledger lines of the reversal. ORM reads and the period
 * request only; the rules are card-storno/reversal.rules.ts.
 */

import { AppError, ErrorCode, notFound, unprocessable } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { type Dec, dec } from '@bm/money';
import type { Ctx, OrdnerRow, ServiceKit } from '@bm/service-kit';
import { findPeriod, resolveOrdner, resolveWarehouse, type WarehouseRow } from '../master-data/index.js';
import {
  IssueCardEntity,
  IssueCardRowEntity,
  ItemEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
} from '../schema/entities.js';
import { type CardStockInfo, cardStockInfo } from '../stock-ledger/index.js';
import { reversalDate } from './reversal.rules.js';

export type IssueCardRow = InstanceType<typeof IssueCardEntity.class>;
export type ReceiptCardRow = InstanceType<typeof ReceiptCardEntity.class>;
export type IssueRowRow = InstanceType<typeof IssueCardRowEntity.class>;
export type ReceiptRowRow = InstanceType<typeof ReceiptCardRowEntity.class>;

/** One line of the reversal: a row of the original (quantity positive here; stored negative). */
export interface StornoLine {
  line: number;
  itemId: string;
  lotNumberID: string | null;
  quantity: Dec;
  costPrice: Dec;
  /** The original row's amount (EUR, 2 decimals). */
  amount: Dec;
}

/** A storno with every reference resolved: the input of the storno kinds. */
export interface ResolvedStorno<C, R> {
  ctx: Ctx;
  companyId: string;
  card: C;
  rows: R[];
  lines: StornoLine[];
  warehouse: WarehouseRow;
  ordner: OrdnerRow;
  /** The reversal's dateOperation (and dateAccounting), `YYYY-MM-DD`. */
  date: string;
  periodId: string;
  /** The reversal card's id (chosen now, so the original can point at it). */
  reversalId: string;
  /** Item codes, for a shortfall's message. */
  items: Map<string, { code: string }>;
  /** Its stock keys and period, as a card declares them to its group (stock-ledger `cardStockInfo`). */
  stockInfo: CardStockInfo;
}

/**
 * Resolves a storno of the card `id` of `type` on `date` (today when not given).
 * @throws 404 NotFound; 409 InvalidState (reversed already, or a reversal); 400 ValidationFailed
 *   (`date` before the card's date); 422 PeriodNotFound, PeriodClosed naming the period and `date`.
 */
export async function resolveStorno(
  kit: ServiceKit,
  ctx: Ctx,
  type: 'IssueCard',
  id: string,
  date: string | undefined,
): Promise<ResolvedStorno<IssueCardRow, IssueRowRow>>;
export async function resolveStorno(
  kit: ServiceKit,
  ctx: Ctx,
  type: 'ReceiptCard',
  id: string,
  date: string | undefined,
): Promise<ResolvedStorno<ReceiptCardRow, ReceiptRowRow>>;
export async function resolveStorno(
  kit: ServiceKit,
  ctx: Ctx,
  type: 'IssueCard' | 'ReceiptCard',
  id: string,
  date: string | undefined,
): Promise<ResolvedStorno<IssueCardRow | ReceiptCardRow, IssueRowRow | ReceiptRowRow>> {
  const em = ctx.em;
  const issue = type === 'IssueCard';
  const card = issue
    ? await em.findOne(IssueCardEntity, { id }, { disableIdentityMap: true })
    : await em.findOne(ReceiptCardEntity, { id }, { disableIdentityMap: true });
  if (!card) throw notFound(issue ? 'Issue card' : 'Receipt card');
  const on = reversalDate(
    {
      recordNumber: card.recordNumber,
      dateOperation: card.dateOperation,
      reversalId: card.reversalId ?? null,
      reversalOf: card.reversalOf ?? null,
    },
    date,
    todayIn(ctx.timeZone),
  );
  const rows = issue
    ? await em.find(IssueCardRowEntity, { issueCardId: id }, { orderBy: { rowNo: 'asc' } })
    : await em.find(ReceiptCardRowEntity, { receiptCardId: id }, { orderBy: { rowNo: 'asc' } });
  const [warehouse, ordner, period, items] = await Promise.all([
    resolveWarehouse(em, card.warehouseId, undefined),
    resolveOrdner(em, card.ordnerId, undefined, type),
    findPeriod(kit, ctx, null, on, on).catch(onDate),
    em.find(ItemEntity, { id: { $in: [...new Set(rows.map((r) => r.itemId))] } }),
  ]);
  const lines = rows.map((r, i) => ({
    line: i,
    itemId: r.itemId,
    lotNumberID: r.lotNumberId ?? null,
    quantity: dec(r.quantity),
    costPrice: dec(r.costPrice),
    amount: dec(r.amount),
  }));
  return {
    ctx,
    companyId: ctx.companyId!,
    card,
    rows,
    lines,
    warehouse,
    ordner,
    date: on,
    periodId: period.id,
    reversalId: crypto.randomUUID(),
    items: new Map(items.map((i) => [i.id, { code: i.code }])),
    // A reversal's ledger lines are all additions or withdrawals at known costs: no FIFO layers read ahead.
    stockInfo: cardStockInfo(ctx.companyId!, period.id, warehouse.id, 'receipt', lines),
  };
}

/** A period refusal of the reversal's date names `date` (the detail names the period). */
function onDate(e: unknown): never {
  if (e instanceof AppError && (e.code === ErrorCode.PeriodClosed || e.code === ErrorCode.PeriodNotFound))
    throw unprocessable(e.code as ErrorCode, e.message, { errors: [{ path: 'date', message: e.message }] });
  throw e;
}
