/**
 * Lists of issue cards and receipt cards (extension; DESIGN §2 "Lists"): newest first by
 * `dateOperation`, then `recordNumber` desc, then `id`, so pages are stable. Each page is one indexed
 * query plus a count (the company filter scopes both); rows and entries are left to `GET` by id.
 */
import {
  DEFAULT_PAGE_SIZE,
  type IssueCardListItem,
  type Page,
  type ReceiptCardListItem,
  type WarehouseDocumentListQuery,
} from '@bm/contracts';
import type { Ctx } from '@bm/service-kit';
import { cardDto } from '../issue-card/index.js';
import { receiptDto } from '../receipt-card/index.js';
import { IssueCardEntity, ReceiptCardEntity } from '../schema/entities.js';

/** The ORM filter of a list query: `dateOperation` range, warehouse, partner. */
function whereOf(q: WarehouseDocumentListQuery) {
  const dateOperation = {
    ...(q.dateFrom ? { $gte: q.dateFrom } : {}),
    ...(q.dateTo ? { $lte: q.dateTo } : {}),
  };
  return {
    ...(q.dateFrom || q.dateTo ? { dateOperation } : {}),
    ...(q.warehouseId ? { warehouseId: q.warehouseId } : {}),
    ...(q.partnerId ? { partnerId: q.partnerId } : {}),
  };
}

const order = { dateOperation: 'desc', recordNumber: 'desc', id: 'asc' } as const;

/** One page of a card table in list order, each card mapped to its list item. */
async function pageOf<E extends typeof IssueCardEntity | typeof ReceiptCardEntity, T>(
  ctx: Ctx,
  entity: E,
  q: WarehouseDocumentListQuery,
  item: (card: any) => T,
): Promise<Page<T>> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
  const [cards, totalCount] = await ctx.em.findAndCount(entity as typeof IssueCardEntity, whereOf(q), {
    orderBy: order,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return { page, pageSize, totalCount, items: cards.map(item) };
}

/** `GET /1.6/warehouses/issue-cards[/{page}]`: a page of issue cards (header and total cost). */
export function listIssueCards(ctx: Ctx, q: WarehouseDocumentListQuery): Promise<Page<IssueCardListItem>> {
  return pageOf(ctx, IssueCardEntity, q, (card) => {
    const { rows: _r, accountingEntries: _e, ...head } = cardDto(card, [], []);
    return { ...head, id: card.id };
  });
}

/** `GET /1.6/warehouses/receipt-cards[/{page}]`: a page of receipt cards (header and total cost). */
export function listReceiptCards(
  ctx: Ctx,
  q: WarehouseDocumentListQuery,
): Promise<Page<ReceiptCardListItem>> {
  return pageOf(ctx, ReceiptCardEntity, q, (card) => {
    const { rows: _r, accountingEntries: _e, ...head } = receiptDto(card, [], []);
    return head;
  });
}
