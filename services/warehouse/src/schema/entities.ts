/**
 * Warehouse schema entities (DESIGN §1: schema `warehouse`): master data in `master-data.entities.ts`,
 * here the documents, the stock ledger and valuation layers. Every entity carries `companyId` and the
 * company filter. Decimals map to `numeric` and are read as strings.
 */
import {
  accountingEntryEntity,
  companyFilter,
  ordnerCounterEntity,
  ordnerEntity,
  outboxEntity,
  tenantColumns,
} from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { ItemEntity, LotNumberEntity, UnitEntity, WarehouseEntity } from './master-data.entities.js';
import { SCHEMA } from './schema.js';

export * from './master-data.entities.js';
export { SCHEMA };

export const ReceiptCardEntity = defineEntity({
  name: 'ReceiptCard',
  tableName: 'receipt_card',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    ordnerId: p.uuid(),
    warehouseId: p.uuid(),
    partnerId: p.uuid().nullable(),
    recordNumber: p.string().length(30),
    dateOperation: p.date(),
    dateAccounting: p.date(),
    periodId: p.uuid().nullable(),
    totalCost: p.decimal('string').precision(18).scale(2),
    createdAt: p.datetime(),
    /** The card this one reverses (storno, issue #38); a card has one reversal at most. */
    reversalOf: p.uuid().nullable().unique(),
    /** This card's reversal, once reversed. */
    reversalId: p.uuid().nullable(),
  },
  uniques: [{ properties: ['companyId', 'recordNumber'] }],
  indexes: [
    {
      // The list's order (newest first, stable): an index walk serves any page.
      name: 'receipt_card_list_index',
      expression:
        'create index "receipt_card_list_index" on "warehouse"."receipt_card" ("company_id", "date_operation" desc, "record_number" desc, "id")',
    },
  ],
});

export const ReceiptCardRowEntity = defineEntity({
  name: 'ReceiptCardRow',
  tableName: 'receipt_card_row',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    receiptCardId: p.uuid().index(),
    rowNo: p.integer(),
    itemId: p.uuid(),
    lotNumberId: p.uuid().nullable(),
    quantity: p.decimal('string').precision(18).scale(4),
    costPrice: p.decimal('string').precision(18).scale(4),
    amount: p.decimal('string').precision(18).scale(2),
  },
});

export const IssueCardEntity = defineEntity({
  name: 'IssueCard',
  tableName: 'issue_card',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    ordnerId: p.uuid(),
    warehouseId: p.uuid(),
    partnerId: p.uuid(),
    recordNumber: p.string().length(30),
    tags: p.array(),
    partnerAddress: p.text().nullable(),
    dateCreated: p.date(),
    dateAccounting: p.date(),
    dateOperation: p.date(),
    periodId: p.uuid().nullable(),
    itemsComment: p.text().nullable(),
    reportId: p.uuid().nullable(),
    totalCost: p.decimal('string').precision(18).scale(2),
    sourceId: p.uuid().nullable(),
    sourceType: p.string().length(20).nullable(),
    createdAt: p.datetime(),
    /** The card this one reverses (storno, issue #38); a card has one reversal at most. */
    reversalOf: p.uuid().nullable().unique(),
    /** This card's reversal, once reversed. */
    reversalId: p.uuid().nullable(),
  },
  uniques: [{ properties: ['companyId', 'recordNumber'] }],
  indexes: [
    {
      // The list's order (newest first, stable): an index walk serves any page.
      name: 'issue_card_list_index',
      expression:
        'create index "issue_card_list_index" on "warehouse"."issue_card" ("company_id", "date_operation" desc, "record_number" desc, "id")',
    },
  ],
});

export const IssueCardRowEntity = defineEntity({
  name: 'IssueCardRow',
  tableName: 'issue_card_row',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    issueCardId: p.uuid().index(),
    rowNo: p.integer(),
    /** The input line (0-based) this row was valued from: a line splits into rows per cost price. */
    lineNo: p.integer(),
    itemId: p.uuid(),
    code: p.string().length(30).nullable(),
    name: p.string().nullable(),
    unitId: p.uuid().nullable(),
    lotNumberId: p.uuid().nullable(),
    quantity: p.decimal('string').precision(18).scale(4),
    sellPrice: p.decimal('string').precision(18).scale(4),
    costPrice: p.decimal('string').precision(18).scale(4),
    amount: p.decimal('string').precision(18).scale(2),
  },
});

/** Current stock of one (warehouse, item, lot): the row locked by every movement of that key. */
export const StockBalanceEntity = defineEntity({
  name: 'StockBalance',
  tableName: 'stock_balance',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    warehouseId: p.uuid(),
    itemId: p.uuid(),
    /** Lot number id, or the nil UUID for items without lots. */
    lotKey: p.uuid(),
    quantity: p.decimal('string').precision(18).scale(4),
    value: p.decimal('string').precision(18).scale(2),
    /** Date of the latest movement: an issue dated on or after it needs no back-dated state. */
    lastDate: p.date().nullable(),
  },
  uniques: [{ properties: ['companyId', 'warehouseId', 'itemId', 'lotKey'] }],
});

/** The stock ledger: one signed movement per document row (and per negative-stock settlement). */
export const StockMovementEntity = defineEntity({
  name: 'StockMovement',
  tableName: 'stock_movement',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    warehouseId: p.uuid(),
    itemId: p.uuid(),
    lotKey: p.uuid(),
    dateOperation: p.date(),
    /** Creation order (ledger sequence); movements are ordered by dateOperation, then seq. */
    seq: p.bigint('string'),
    quantity: p.decimal('string').precision(18).scale(4),
    value: p.decimal('string').precision(18).scale(2),
    documentType: p.string().length(30),
    documentId: p.uuid(),
  },
  indexes: [{ properties: ['companyId', 'warehouseId', 'itemId', 'lotKey', 'dateOperation', 'seq'] }],
});

/** FIFO valuation layer: what one receipt row left in stock and what of it remains. */
export const ValuationLayerEntity = defineEntity({
  name: 'ValuationLayer',
  tableName: 'valuation_layer',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    warehouseId: p.uuid(),
    itemId: p.uuid(),
    lotKey: p.uuid(),
    dateOperation: p.date(),
    /** The receipt's place in the ledger; layers are consumed by (dateOperation, seq, lineNo). */
    seq: p.bigint('string'),
    /** The receipt row (0-based) within its document. */
    lineNo: p.integer(),
    quantity: p.decimal('string').precision(18).scale(4),
    unitCost: p.decimal('string').precision(18).scale(4),
    amount: p.decimal('string').precision(18).scale(2),
    remainingQuantity: p.decimal('string').precision(18).scale(4),
    remainingValue: p.decimal('string').precision(18).scale(2),
  },
  indexes: [
    {
      // Only layers with stock left are ever scanned by a current-date issue (work ∝ layers consumed).
      name: 'valuation_layer_open_index',
      expression:
        'create index "valuation_layer_open_index" on "warehouse"."valuation_layer" ("company_id", "warehouse_id", "item_id", "lot_key", "date_operation", "seq", "line_no") where "remaining_quantity" > 0',
    },
    { properties: ['companyId', 'warehouseId', 'itemId', 'lotKey', 'dateOperation'] },
  ],
});

/** What an issue took from a layer, dated: the history that back-dated valuation reads. */
export const LayerConsumptionEntity = defineEntity({
  name: 'LayerConsumption',
  tableName: 'layer_consumption',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    layerId: p.uuid(),
    documentId: p.uuid(),
    dateOperation: p.date(),
    quantity: p.decimal('string').precision(18).scale(4),
    value: p.decimal('string').precision(18).scale(2),
  },
  indexes: [{ properties: ['layerId', 'dateOperation'] }, { properties: ['documentId'] }],
});

/**
 * The warehouse's copy of an accounting period's state (DESIGN §5 "Period"): periods are invoicing's;
 * a card holds a shared advisory lock on the period in its own transaction, and closing a period sets
 * `closed` here under the exclusive one before invoicing completes the close. The row is written when the
 * period is closed; no row means never closed.
 */
export const PeriodStateEntity = defineEntity({
  name: 'PeriodState',
  tableName: 'period_state',
  schema: SCHEMA,
  filters: companyFilter,
  properties: { ...tenantColumns(), closed: p.boolean() },
});

export const OrdnerEntity = ordnerEntity(SCHEMA);
export const OrdnerCounterEntity = ordnerCounterEntity(SCHEMA);
export const AccountingEntryEntity = accountingEntryEntity(SCHEMA);
export const OutboxEntity = outboxEntity(SCHEMA);

export const entities = [
  WarehouseEntity,
  UnitEntity,
  ItemEntity,
  LotNumberEntity,
  OrdnerEntity,
  OrdnerCounterEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
  IssueCardEntity,
  IssueCardRowEntity,
  StockBalanceEntity,
  StockMovementEntity,
  ValuationLayerEntity,
  LayerConsumptionEntity,
  PeriodStateEntity,
  AccountingEntryEntity,
  OutboxEntity,
];
