/**
 * Warehouse master data (DESIGN §4): warehouses, units (with their UN/ECE code, issue #21), items and lot
 * numbers. Every entity carries `companyId` and the company filter.
 */
import { companyFilter, tenantColumns } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { SCHEMA } from './schema.js';

export const WarehouseEntity = defineEntity({
  name: 'Warehouse',
  tableName: 'warehouse',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
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
  properties: {
    ...tenantColumns(),
    code: p.string().length(30),
    name: p.string(),
    /** UN/ECE Recommendation 20/21 code (issue #21), the e-invoice's unit code. */
    uneceCode: p.string().length(3).nullable(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const ItemEntity = defineEntity({
  name: 'Item',
  tableName: 'item',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    code: p.string().length(30),
    name: p.string(),
    unitId: p.uuid().nullable(),
    sellPrice: p.decimal('string').precision(18).scale(4),
    vatRate: p.decimal('string').precision(5).scale(2).nullable(),
    kind: p.string().length(10),
    hasLotNumbers: p.boolean(),
    commodityCode: p.string().length(10).nullable(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const LotNumberEntity = defineEntity({
  name: 'LotNumber',
  tableName: 'lot_number',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    itemId: p.uuid(),
    number: p.string().length(50),
    expiryDate: p.date().nullable(),
  },
  uniques: [{ properties: ['companyId', 'itemId', 'number'] }],
});
