/**
 * The stock report and the warehouse's events (DESIGN §5): `GET /1.6/warehouses/{id}/stock` and
 * `events.warehouse.*`.
 *
 * Units: quantities and unit prices/costs are decimals with up to 4 places; amounts 2 places, in the
 * company currency; dates are business dates `YYYY-MM-DD` in the company's time zone.
 */
import { defineContract } from '../contract.js';
import { Amount, DateOnly, Decimal4, Guid, z } from '../primitives.js';
import { SourceType } from './issue-cards.contract.js';

/** Stock of a warehouse as of the end of `date` (default today), per item and lot. */
export const StockQuery = z.object({ date: DateOnly().optional(), itemId: Guid().optional() });
export const StockReport = z.object({
  date: DateOnly(),
  warehouseId: Guid(),
  items: z.array(
    z.object({
      itemId: Guid(),
      code: z.string(),
      lotNumberID: Guid().nullable(),
      quantity: Decimal4(),
      value: Amount(),
    }),
  ),
});
export type StockReport = z.infer<typeof StockReport>;
/** `GET /1.6/warehouses/{id}/stock?date=&itemId=`. */
export const getStock = defineContract({
  subject: 'warehouse.stock.get',
  request: StockQuery.extend({ warehouseId: Guid() }),
  reply: StockReport,
});

/** Event `events.warehouse.stock-issued` (DESIGN §5): one per stored issue card. */
export const StockIssuedEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  issueCardId: Guid(),
  recordNumber: z.string(),
  warehouseId: Guid(),
  dateOperation: DateOnly(),
  sourceId: Guid().nullable(),
  sourceType: SourceType.nullable(),
  rows: z.array(
    z.object({ itemId: Guid(), lotNumberID: Guid().nullable(), quantity: Decimal4(), costPrice: Decimal4() }),
  ),
});
export type StockIssuedEvent = z.infer<typeof StockIssuedEvent>;

/** Event `events.warehouse.stock-received`: one per stored receipt card. */
export const StockReceivedEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  receiptCardId: Guid(),
  recordNumber: z.string(),
  warehouseId: Guid(),
  dateOperation: DateOnly(),
  rows: z.array(
    z.object({ itemId: Guid(), lotNumberID: Guid().nullable(), quantity: Decimal4(), costPrice: Decimal4() }),
  ),
});
export type StockReceivedEvent = z.infer<typeof StockReceivedEvent>;

/** Event subjects (JetStream stream `EVENTS`, subjects `events.>`). */
export const EventSubjects = {
  stockIssued: 'events.warehouse.stock-issued',
  stockReceived: 'events.warehouse.stock-received',
  stockRevalued: 'events.warehouse.stock-revalued',
} as const;

/**
 * `events.warehouse.stock-revalued` (DESIGN §5 "Repost"): a back-dated receipt or issue changed the cost
 * of this stored issue card. `rows` are the card's rows after the repost; totals in the company currency
 * (2 decimals), cost prices 4 decimals. Published once per revalued card through the outbox.
 */
export const StockRevaluedEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  issueCardId: Guid(),
  recordNumber: z.string(),
  warehouseId: Guid(),
  dateOperation: DateOnly(),
  /** The back-dated document that caused the repost. */
  causedBy: Guid(),
  totalCostBefore: Amount(),
  totalCostAfter: Amount(),
  rows: z.array(
    z.object({
      itemId: Guid(),
      lotNumberID: Guid().nullable(),
      quantity: Decimal4(),
      costPrice: Decimal4(),
      amount: Amount(),
    }),
  ),
});
export type StockRevaluedEvent = z.infer<typeof StockRevaluedEvent>;
