/**
 * Issue cards (INTERFACE §2.1, §2.2, §4.1; DESIGN §5): create, read, copy and the list. Subjects
 * `warehouse.issue-cards.<verb>`.
 *
 * Units: quantities and unit prices/costs are decimals with up to 4 places; amounts 2 places, in the
 * company currency; dates are business dates `YYYY-MM-DD` in the company's time zone.
 */
import { defineContract } from '../contract.js';
import { Amount, DateOnly, Decimal4, Guid, idOrCode, Page, PageQuery, z } from '../primitives.js';
import { AccountingEntry, Code, Qty, ReversalFields } from './document-fields.js';

/** Issue-card row as sent on create (INTERFACE §2.2 plus the insert-only `itemCode`, `unitCode`). */
export const IssueCardRowInput = idOrCode(
  z.object({
    itemId: Guid().optional(),
    itemCode: Code().optional(),
    code: z.string().max(30).nullable().optional(),
    name: z.string().max(255).nullable().optional(),
    unitId: Guid().nullable().optional(),
    unitCode: Code().optional(),
    lotNumberID: Guid().nullable().optional(),
    /** Issued quantity; 1 when not sent. */
    quantity: Qty().optional(),
    /** Selling price per unit; the item's sellPrice when not sent. */
    sellPrice: Decimal4().optional(),
    /** Cost price per unit: required under Custom valuation, replaced by the valuation otherwise. */
    costPrice: Decimal4().optional(),
  }),
  ['itemId', 'itemCode'],
);

/** Issue card as sent on create (INTERFACE §2.1 plus `ordnerCode`, `warehouseCode`, `reportCode`). */
export const IssueCardInput = idOrCode(
  z.object({
    ordnerId: Guid().optional(),
    ordnerCode: Code().optional(),
    warehouseId: Guid().optional(),
    warehouseCode: Code().optional(),
    partnerId: Guid(),
    rows: z.array(IssueCardRowInput).min(1, { message: 'at least one row is required' }).max(5000),
    recordNumber: z.string().trim().max(30).nullable().optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
    partnerAddress: z.string().max(1000).nullable().optional(),
    dateCreated: DateOnly().optional(),
    dateAccounting: DateOnly().nullable().optional(),
    dateOperation: DateOnly().nullable().optional(),
    periodId: Guid().nullable().optional(),
    itemsComment: z.string().max(4000).nullable().optional(),
    reportId: Guid().nullable().optional(),
    reportCode: Code().optional(),
    /** Extension: the record this card was made from (a copy preview posted back keeps its link). */
    sourceId: Guid().nullable().optional(),
  }),
  ['ordnerId', 'ordnerCode'],
  ['warehouseId', 'warehouseCode'],
);
export type IssueCardInput = z.infer<typeof IssueCardInput>;

export const IssueCardRow = z.object({
  id: Guid().optional(),
  itemId: Guid(),
  code: z.string().nullable(),
  name: z.string().nullable(),
  unitId: Guid().nullable(),
  lotNumberID: Guid().nullable(),
  quantity: Decimal4(),
  sellPrice: Decimal4(),
  costPrice: Decimal4(),
  /** Extension: round(quantity × costPrice), 2 decimals. */
  amount: Amount(),
});
export type IssueCardRow = z.infer<typeof IssueCardRow>;

/** The source kinds a card can be copied from (INTERFACE §4.1 copy). */
export const SourceType = z.enum(['IssueCard', 'ReceiptCard', 'SalesInvoice']);
export type SourceType = z.infer<typeof SourceType>;

/** Issue card as returned. A copy preview has no `id`, no row ids and no `recordNumber`. */
export const IssueCard = z.object({
  id: Guid().optional(),
  ordnerId: Guid(),
  warehouseId: Guid(),
  partnerId: Guid().nullable(),
  recordNumber: z.string().nullable(),
  tags: z.array(z.string()),
  partnerAddress: z.string().nullable(),
  dateCreated: DateOnly(),
  dateAccounting: DateOnly(),
  dateOperation: DateOnly(),
  periodId: Guid().nullable(),
  itemsComment: z.string().nullable(),
  reportId: Guid().nullable(),
  rows: z.array(IssueCardRow),
  /** Extension: the card's total cost (sum of row amounts). */
  totalCost: Amount(),
  sourceId: Guid().nullable(),
  sourceType: SourceType.nullable(),
  /** Extension: the card's accounting entries (accounted warehouses; empty otherwise). */
  accountingEntries: z.array(AccountingEntry),
  ...ReversalFields,
});
export type IssueCard = z.infer<typeof IssueCard>;

/**
 * One entry of `shortfalls` in the 422 OperationCanceledException problem (DESIGN §2): `requested` and
 * `available` are quantities (4 decimals) of one item and lot, `date` is where the balance would first go
 * negative.
 */
export const Shortfall = z.object({
  itemId: Guid(),
  lotNumberID: Guid().nullable(),
  requested: Decimal4(),
  available: Decimal4(),
  date: DateOnly(),
});
/** Extension members of the OperationCanceledException problem document. */
export const OperationCanceledProblem = z.object({ shortfalls: z.array(Shortfall) });

/** `POST /1.6/warehouses/issue-cards`. Errors: 400, 409 DuplicateRecordNumber, 422 OperationCanceledException (with `shortfalls`), LotNumberRequired, CostPriceRequired, ReferenceNotFound, PeriodNotFound, PeriodClosed. */
export const createIssueCard = defineContract({
  subject: 'warehouse.issue-cards.create',
  request: IssueCardInput,
  reply: IssueCard,
});
/** `GET /1.6/warehouses/issue-cards/{id}` (extension): the card with its accounting entries. */
export const getIssueCard = defineContract({
  subject: 'warehouse.issue-cards.get',
  request: z.object({ id: Guid() }),
  reply: IssueCard,
});

/** Query of the copy operation (INTERFACE §4.1 copy query parameters). */
export const CopyQuery = z.object({ sourceId: Guid(), dateOperation: DateOnly().optional() });
/** Copy into an issue card: `store: false` is the preview (nothing stored), `true` stores it. */
export const copyIssueCard = defineContract({
  subject: 'warehouse.issue-cards.copy',
  request: CopyQuery.extend({ store: z.boolean() }),
  reply: IssueCard,
});

/**
 * Query of the issue-card and receipt-card lists (extension): paging plus optional filters on
 * `dateOperation` (inclusive range), warehouse and partner. Newest first: `dateOperation` desc, then
 * `recordNumber` desc, then `id`.
 */
export const WarehouseDocumentListQuery = PageQuery.extend({
  dateFrom: DateOnly().optional(),
  dateTo: DateOnly().optional(),
  warehouseId: Guid().optional(),
  partnerId: Guid().optional(),
});
export type WarehouseDocumentListQuery = z.infer<typeof WarehouseDocumentListQuery>;

/** An issue card in the list: its header and total cost, without rows and entries. */
export const IssueCardListItem = IssueCard.omit({ rows: true, accountingEntries: true }).extend({
  id: Guid(),
});
export type IssueCardListItem = z.infer<typeof IssueCardListItem>;
/** `GET /1.6/warehouses/issue-cards[/{page}]` (extension): a page of issue cards. */
export const listIssueCards = defineContract({
  subject: 'warehouse.issue-cards.list',
  request: WarehouseDocumentListQuery,
  reply: Page(IssueCardListItem),
});
