/**
 * Receipt cards (DESIGN §4 "Stock intake"): create, read and the list. Subjects
 * `warehouse.receipt-cards.<verb>`.
 *
 * Units: quantities and unit prices/costs are decimals with up to 4 places; amounts 2 places, in the
 * company currency; dates are business dates `YYYY-MM-DD` in the company's time zone.
 */
import { defineContract } from '../contract.js';
import { Amount, DateOnly, Decimal4, Guid, idOrCode, Page, z } from '../primitives.js';
import { AccountingEntry, Code, Qty, ReversalFields } from './document-fields.js';
import { WarehouseDocumentListQuery } from './issue-cards.contract.js';

/** Receipt-card row: stock intake of `quantity` at `costPrice` per unit. */
export const ReceiptCardRowInput = idOrCode(
  z.object({
    itemId: Guid().optional(),
    itemCode: Code().optional(),
    lotNumberID: Guid().nullable().optional(),
    quantity: Qty(),
    costPrice: Decimal4().refine((v) => !v.startsWith('-'), { message: 'costPrice must not be negative' }),
  }),
  ['itemId', 'itemCode'],
);

/** Receipt card (DESIGN §4 "Stock intake"). */
export const ReceiptCardInput = idOrCode(
  z.object({
    ordnerId: Guid().optional(),
    ordnerCode: Code().optional(),
    warehouseId: Guid().optional(),
    warehouseCode: Code().optional(),
    partnerId: Guid().nullable().optional(),
    recordNumber: z.string().trim().max(30).nullable().optional(),
    dateOperation: DateOnly().nullable().optional(),
    dateAccounting: DateOnly().nullable().optional(),
    periodId: Guid().nullable().optional(),
    rows: z.array(ReceiptCardRowInput).min(1, { message: 'at least one row is required' }).max(5000),
  }),
  ['ordnerId', 'ordnerCode'],
  ['warehouseId', 'warehouseCode'],
);
export type ReceiptCardInput = z.infer<typeof ReceiptCardInput>;

export const ReceiptCardRow = z.object({
  id: Guid(),
  itemId: Guid(),
  lotNumberID: Guid().nullable(),
  quantity: Decimal4(),
  costPrice: Decimal4(),
  amount: Amount(),
});
export const ReceiptCard = z.object({
  id: Guid(),
  ordnerId: Guid(),
  warehouseId: Guid(),
  partnerId: Guid().nullable(),
  recordNumber: z.string(),
  dateOperation: DateOnly(),
  dateAccounting: DateOnly(),
  periodId: Guid().nullable(),
  rows: z.array(ReceiptCardRow),
  totalCost: Amount(),
  accountingEntries: z.array(AccountingEntry),
  ...ReversalFields,
});
export type ReceiptCard = z.infer<typeof ReceiptCard>;

/** `POST /1.6/warehouses/receipt-cards`. */
export const createReceiptCard = defineContract({
  subject: 'warehouse.receipt-cards.create',
  request: ReceiptCardInput,
  reply: ReceiptCard,
});
/** `GET /1.6/warehouses/receipt-cards/{id}`. */
export const getReceiptCard = defineContract({
  subject: 'warehouse.receipt-cards.get',
  request: z.object({ id: Guid() }),
  reply: ReceiptCard,
});

/** A receipt card in the list: its header and total cost, without rows and entries. */
export const ReceiptCardListItem = ReceiptCard.omit({ rows: true, accountingEntries: true });
export type ReceiptCardListItem = z.infer<typeof ReceiptCardListItem>;
/** `GET /1.6/warehouses/receipt-cards[/{page}]` (extension): a page of receipt cards. */
export const listReceiptCards = defineContract({
  subject: 'warehouse.receipt-cards.list',
  request: WarehouseDocumentListQuery,
  reply: Page(ReceiptCardListItem),
});
