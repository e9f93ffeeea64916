/**
 * Warehouse schema entities (DESIGN §1: schema `warehouse`). Every entity carries `companyId` and the
 * company filter. Decimals map to `numeric` and are read as strings.
 */
import { companyFilter } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';

export const SCHEMA = 'warehouse';

const tenant = () => ({ id: p.uuid().primary(), companyId: p.uuid() });

export const WarehouseEntity = defineEntity({
  name: 'Warehouse',
  tableName: 'warehouse',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
    code: p.string().length(20),
    name: p.string(),
    valuationMethod: p.string().length(20),
    allowNegativeStock: p.boolean(),
    accounted: p.boolean(),
    stockAccount: p.string().length(20),
    expenseAccount: p.string().length(20),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const UnitEntity = defineEntity({
  name: 'Unit',
  tableName: 'unit',
  schema: SCHEMA,
  filters: companyFilter,
  properties: { ...tenant(), code: p.string().length(30), name: p.string() },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const ItemEntity = defineEntity({
  name: 'Item',
  tableName: 'item',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
    code: p.string().length(30),
    name: p.string(),
    unitId: p.uuid().nullable(),
    sellPrice: p.decimal('string').precision(18).scale(4),
    vatRate: p.decimal('string').precision(5).scale(2).nullable(),
    kind: p.string().length(10),
    hasLotNumbers: p.boolean(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const LotNumberEntity = defineEntity({
  name: 'LotNumber',
  tableName: 'lot_number',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
    itemId: p.uuid(),
    number: p.string().length(50),
    expiryDate: p.date().nullable(),
  },
  uniques: [{ properties: ['companyId', 'itemId', 'number'] }],
});

export const OrdnerEntity = defineEntity({
  name: 'Ordner',
  tableName: 'ordner',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
    code: p.string().length(20),
    name: p.string(),
    documentType: p.string().length(20),
    numberFormat: p.string().length(50),
    reportId: p.uuid().nullable(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const entities = [WarehouseEntity, UnitEntity, ItemEntity, LotNumberEntity, OrdnerEntity];
