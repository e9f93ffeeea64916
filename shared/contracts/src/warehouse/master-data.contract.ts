/**
 * Warehouse-owned master data (DESIGN §4): warehouses, units, items and their lot numbers.
 * Subjects `warehouse.<resource>.<verb>`.
 */
import { defineContract } from '../contract.js';
import { CodeList, CodeListInput, crudContracts } from '../crud.js';
import {
  Bool,
  DateOnly,
  Decimal4,
  decimal,
  Guid,
  Page,
  PageQuery,
  Text,
  UpdateOf,
  z,
} from '../primitives.js';

/** Stock valuation method of a warehouse (DESIGN §5). */
export const ValuationMethod = z.enum(['FIFO', 'WeightedAverage', 'Custom']);
export type ValuationMethod = z.infer<typeof ValuationMethod>;

/** Warehouse. Accounts default to the Slovak chart: 132 goods in stock, 504 cost of goods sold. */
export const WarehouseInput = z.object({
  code: Text(20),
  name: Text(),
  valuationMethod: ValuationMethod.default('FIFO'),
  allowNegativeStock: Bool().default(false),
  accounted: Bool().default(false),
  stockAccount: Text(20).default('132'),
  expenseAccount: Text(20).default('504'),
});
export const Warehouse = z.object({
  id: Guid(),
  code: z.string(),
  name: z.string(),
  valuationMethod: ValuationMethod,
  allowNegativeStock: z.boolean(),
  accounted: z.boolean(),
  stockAccount: z.string(),
  expenseAccount: z.string(),
});
export type Warehouse = z.infer<typeof Warehouse>;
const warehouseCrud = crudContracts('warehouse.warehouses', WarehouseInput, Warehouse);
/**
 * Warehouses. `PUT` may omit `valuationMethod` (the stored one is kept); changing it once the warehouse
 * has a movement is 409 InvalidState (DESIGN §5 "valuationMethod").
 */
export const warehouses = {
  ...warehouseCrud,
  update: defineContract({
    subject: 'warehouse.warehouses.update',
    request: UpdateOf(WarehouseInput.extend({ valuationMethod: ValuationMethod.optional() })),
    reply: Warehouse,
  }),
};

/**
 * Unit of measure (`ks`, `kg`, ...). `uneceCode` (issue #21) is its UN/ECE Recommendation 20/21 code
 * (`H87` piece, `KGM`, `MTR`, `HUR`), the e-invoice's unit code (BT-130); a unit without one is `C62`.
 */
export const UnitInput = CodeListInput.extend({
  uneceCode: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{2,3}$/, { message: 'expected a UN/ECE Recommendation 20/21 code, e.g. H87, KGM, HUR' })
    .nullable()
    .optional(),
});
export const Unit = CodeList.extend({ uneceCode: z.string().nullable() });
export const units = crudContracts('warehouse.units', UnitInput, Unit);

/** Item of the price list. `unitId` or `unitCode` names its unit; `vatRate` in percent. */
export const ItemInput = z.object({
  code: Text(30),
  name: Text(),
  unitId: Guid().nullable().optional(),
  unitCode: z.string().trim().max(20).nullable().optional(),
  sellPrice: Decimal4().default('0'),
  vatRate: decimal(2).nullable().optional(),
  kind: z.enum(['stock', 'service']).default('stock'),
  hasLotNumbers: Bool().default(false),
  /**
   * Extension (issue #37): the goods' customs-tariff code (combined nomenclature, 4 to 10 digits), the TK a
   * domestic reverse-charge supply carries in the control statement; a sales row may override it.
   */
  commodityCode: z
    .string()
    .trim()
    .regex(/^\d{4,10}$/, { message: 'expected 4 to 10 digits of the customs tariff' })
    .nullable()
    .optional(),
});
export const Item = z.object({
  id: Guid(),
  code: z.string(),
  name: z.string(),
  unitId: Guid().nullable(),
  unitCode: z.string().nullable(),
  sellPrice: Decimal4(),
  vatRate: decimal(2).nullable(),
  kind: z.enum(['stock', 'service']),
  hasLotNumbers: z.boolean(),
  commodityCode: z.string().nullable(),
});
export type Item = z.infer<typeof Item>;
export const items = crudContracts('warehouse.items', ItemInput, Item);

/** Lot number of an item. */
export const LotNumberInput = z.object({ number: Text(50), expiryDate: DateOnly().nullable().optional() });
export const LotNumber = z.object({
  id: Guid(),
  itemId: Guid(),
  number: z.string(),
  expiryDate: DateOnly().nullable(),
});
export type LotNumber = z.infer<typeof LotNumber>;
/** `POST /1.6/items/{id}/lot-numbers`: 404 for an unknown item, 409 for a number the item already has. */
export const createLotNumber = defineContract({
  subject: 'warehouse.lot-numbers.create',
  request: z.object({ itemId: Guid(), data: LotNumberInput }),
  reply: LotNumber,
});
/** `GET /1.6/items/{id}/lot-numbers`. */
export const listLotNumbers = defineContract({
  subject: 'warehouse.lot-numbers.list',
  request: PageQuery.extend({ itemId: Guid() }),
  reply: Page(LotNumber),
});

/** A warehouse by id or code, for documents of other services (404 when the company has none). */
export const resolveWarehouse = defineContract({
  subject: 'warehouse.warehouses.resolve',
  request: z.object({ id: Guid().nullable().optional(), code: z.string().nullable().optional() }),
  reply: Warehouse,
});

/** Items and units by ids and codes in one request (no per-row requests); unknown ones are simply absent. */
export const resolveCatalog = defineContract({
  subject: 'warehouse.catalog.resolve',
  request: z.object({
    itemIds: z.array(Guid()).max(5000).default([]),
    itemCodes: z.array(z.string()).max(5000).default([]),
    unitIds: z.array(Guid()).max(5000).default([]),
    unitCodes: z.array(z.string()).max(5000).default([]),
  }),
  reply: z.object({ items: z.array(Item), units: z.array(Unit) }),
});

/**
 * `warehouse.periods.close` (DESIGN §5 "Period"): sent by invoicing inside its period-close transaction.
 * The warehouse marks its own copy of the period closed under an exclusive row lock, which waits for the
 * cards being stored in that period (they hold a share lock); it replies once no card can commit into
 * the period any more. Request `{periodId}`; reply `{closed: true}`.
 */
export const closeWarehousePeriod = defineContract({
  subject: 'warehouse.periods.close',
  request: z.object({ periodId: Guid() }),
  reply: z.object({ closed: z.literal(true) }),
});

/**
 * `warehouse.periods.documents-outside` (DESIGN §5 "Period"): how many warehouse cards booked in the
 * period have a dateAccounting outside `dateFrom`..`dateTo` (invoicing asks before it moves or shrinks a
 * period). Reply `{count}`.
 */
export const countCardsOutsidePeriod = defineContract({
  subject: 'warehouse.periods.documents-outside',
  request: z.object({ periodId: Guid(), dateFrom: DateOnly(), dateTo: DateOnly() }),
  reply: z.object({ count: z.number().int() }),
});
