/**
 * Warehouse master-data endpoints (DESIGN §4): warehouses, units, items, lot numbers and the
 * warehouse-owned ordners (IssueCard, ReceiptCard). Transport only: decode, check references, store.
 */
import {
  closeWarehousePeriod,
  countCardsOutsidePeriod,
  createLotNumber,
  defaultNumberFormat,
  type Item,
  items,
  type LotNumber,
  listLotNumbers,
  type Ordner,
  reports,
  resolveCatalog,
  resolveWarehouse,
  units,
  warehouseOrdners,
  warehouses,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, notFound, referenceNotFound, validationFailed } from '@bm/errors';
import { request, serve } from '@bm/messaging';
import { type Ctx, defaultOrdnerRule, paginate, pick, registerCrud, type ServiceKit } from '@bm/service-kit';
import {
  IssueCardEntity,
  ItemEntity,
  LotNumberEntity,
  OrdnerEntity,
  ReceiptCardEntity,
  StockMovementEntity,
  UnitEntity,
  WarehouseEntity,
} from '../schema/entities.js';
import { closePeriodState } from './period-state.js';

type ItemRow = InstanceType<typeof ItemEntity.class>;
type OrdnerRow = InstanceType<typeof OrdnerEntity.class>;
type LotRow = InstanceType<typeof LotNumberEntity.class>;
type WarehouseRow = InstanceType<typeof WarehouseEntity.class>;

const warehouseFields = [
  'id',
  'code',
  'name',
  'valuationMethod',
  'allowNegativeStock',
  'accounted',
  'stockAccount',
  'expenseAccount',
] as const;

/** Resolves `unitId`/`unitCode` of an item input to a unit id (422 ReferenceNotFound when unknown). */
async function resolveUnit(
  ctx: Ctx,
  unitId?: string | null,
  unitCode?: string | null,
): Promise<string | null> {
  if (unitId) {
    if (!(await ctx.em.count(UnitEntity, { id: unitId }))) throw referenceNotFound('unitId', 'unit');
    return unitId;
  }
  if (unitCode) {
    const u = await ctx.em.findOne(UnitEntity, { code: unitCode });
    if (!u) throw referenceNotFound('unitCode', 'unit');
    return u.id;
  }
  return null;
}

/** Maps items to their reply shape, with the unit codes looked up in one query. */
async function itemDtos(rows: ItemRow[], ctx: Ctx): Promise<Item[]> {
  const unitIds = [...new Set(rows.map((r) => r.unitId).filter((x): x is string => !!x))];
  const unitsById = new Map(
    unitIds.length
      ? (await ctx.em.find(UnitEntity, { id: { $in: unitIds } })).map((u) => [u.id, u.code])
      : [],
  );
  return rows.map((r) => ({
    ...pick(r, ['id', 'code', 'name', 'unitId', 'sellPrice', 'vatRate', 'kind', 'hasLotNumbers']),
    unitCode: r.unitId ? (unitsById.get(r.unitId) ?? null) : null,
    kind: r.kind as Item['kind'],
    commodityCode: r.commodityCode ?? null,
  }));
}

export const ordnerDto = (o: OrdnerRow): Ordner =>
  pick(o, ['id', 'code', 'name', 'documentType', 'numberFormat', 'reportId', 'isDefault']) as Ordner;
const lotDto = (l: LotRow): LotNumber => pick(l, ['id', 'itemId', 'number', 'expiryDate']);

const defaultOrdner = defaultOrdnerRule(OrdnerEntity);

/** Registers the master-data endpoints of the warehouse service. */
export function registerMasterData(kit: ServiceKit): void {
  serve<typeof closeWarehousePeriod, { em: Ctx['em'] }>(
    kit.service,
    closeWarehousePeriod,
    async ({ periodId }, ctx) => {
      await closePeriodState(ctx.em, ctx.companyId!, periodId);
      return { closed: true as const };
    },
    kit.serveOpts,
  );
  serve<typeof countCardsOutsidePeriod, { em: Ctx['em'] }>(
    kit.service,
    countCardsOutsidePeriod,
    async ({ periodId, dateFrom, dateTo }, ctx) => {
      const outside = {
        periodId,
        $or: [{ dateAccounting: { $lt: dateFrom } }, { dateAccounting: { $gt: dateTo } }],
      };
      const [issues, receipts] = await Promise.all([
        ctx.em.count(IssueCardEntity, outside),
        ctx.em.count(ReceiptCardEntity, outside),
      ]);
      return { count: issues + receipts };
    },
    kit.serveOpts,
  );
  registerCrud(kit, warehouses, {
    entity: WarehouseEntity,
    label: 'Warehouse',
    // A PUT that omits valuationMethod keeps the stored one (DESIGN §5 "valuationMethod").
    assign: (input: any, _ctx, existing?: WarehouseRow) => ({
      ...input,
      valuationMethod: input.valuationMethod ?? existing?.valuationMethod ?? 'FIFO',
    }),
    beforeStore: async (data, ctx, existing) => {
      if (!existing || data.valuationMethod === existing.valuationMethod) return;
      if (await ctx.em.count(StockMovementEntity, { warehouseId: existing.id }))
        throw new AppError(
          ErrorKind.conflict,
          ErrorCode.InvalidState,
          `the warehouse has stock movements: its valuationMethod stays ${existing.valuationMethod}`,
          {
            errors: [{ path: 'valuationMethod', message: 'cannot change once the warehouse has a movement' }],
          },
        );
    },
    toDtos: (rows) => rows.map((r) => pick(r, warehouseFields) as any),
  });
  registerCrud(kit, units, {
    entity: UnitEntity,
    label: 'Unit',
    assign: (input: any) => ({ uneceCode: null, ...input }),
    toDtos: (rows) =>
      rows.map((r) => ({ ...pick(r, ['id', 'code', 'name']), uneceCode: r.uneceCode ?? null })),
  });
  registerCrud(kit, items, {
    entity: ItemEntity,
    label: 'Item',
    assign: async ({ unitId, unitCode, ...rest }: any, ctx) => ({
      ...rest,
      commodityCode: rest.commodityCode ?? null,
      unitId: await resolveUnit(ctx, unitId, unitCode),
    }),
    toDtos: itemDtos,
  });
  registerCrud(kit, warehouseOrdners, {
    entity: OrdnerEntity,
    label: 'Ordner',
    assign: async (input: any, ctx, existing) => {
      if (input.documentType !== 'IssueCard' && input.documentType !== 'ReceiptCard') {
        throw validationFailed([
          { path: 'documentType', message: 'warehouse ordners hold IssueCard or ReceiptCard' },
        ]);
      }
      if (input.reportId)
        await request(kit.nc, reports.get, { id: input.reportId }, ctx).catch(mapRef('reportId', 'report'));
      return {
        ...input,
        reportId: input.reportId ?? null,
        numberFormat: input.numberFormat || defaultNumberFormat(input.code),
        isDefault: await defaultOrdner.isDefault(ctx.em, input.documentType, input.isDefault, existing),
      };
    },
    beforeStore: (data, ctx, existing) => defaultOrdner.beforeStore(ctx.em, data as any, existing),
    toDtos: (rows) => rows.map(ordnerDto),
  });

  serve<typeof resolveWarehouse, { em: Ctx['em'] }>(
    kit.service,
    resolveWarehouse,
    async ({ id, code }, ctx) => {
      const w = await ctx.em.findOne(WarehouseEntity, id ? { id } : { code: code ?? '' });
      if (!w) throw notFound('Warehouse');
      return pick(w, warehouseFields) as any;
    },
    kit.serveOpts,
  );
  serve<typeof resolveCatalog, { em: Ctx['em'] }>(
    kit.service,
    resolveCatalog,
    async (q, ctx) => {
      const items =
        q.itemIds.length || q.itemCodes.length
          ? await ctx.em.find(ItemEntity, {
              $or: [{ id: { $in: q.itemIds } }, { code: { $in: q.itemCodes } }],
            })
          : [];
      const unitIds = [
        ...new Set([...q.unitIds, ...items.map((i) => i.unitId).filter((x): x is string => !!x)]),
      ];
      const units =
        unitIds.length || q.unitCodes.length
          ? await ctx.em.find(UnitEntity, { $or: [{ id: { $in: unitIds } }, { code: { $in: q.unitCodes } }] })
          : [];
      return {
        items: await itemDtos(items, ctx),
        units: units.map((u) => ({ ...pick(u, ['id', 'code', 'name']), uneceCode: u.uneceCode ?? null })),
      };
    },
    kit.serveOpts,
  );

  serve<typeof createLotNumber, { em: Ctx['em'] }>(
    kit.service,
    createLotNumber,
    async ({ itemId, data }, ctx) => {
      if (!(await ctx.em.count(ItemEntity, { id: itemId }))) throw notFound('Item');
      const lot = ctx.em.create(LotNumberEntity, {
        id: crypto.randomUUID(),
        companyId: ctx.companyId!,
        itemId,
        number: data.number,
        expiryDate: data.expiryDate ?? null,
      });
      await ctx.em.flush();
      return lotDto(lot);
    },
    kit.serveOpts,
  );
  serve<typeof listLotNumbers, { em: Ctx['em'] }>(
    kit.service,
    listLotNumbers,
    async (q, ctx) => {
      if (!(await ctx.em.count(ItemEntity, { id: q.itemId }))) throw notFound('Item');
      return paginate(ctx.em, LotNumberEntity, { itemId: q.itemId }, q, { number: 'asc' }, lotDto);
    },
    kit.serveOpts,
  );
}

/** Turns a NotFound from another service into 422 ReferenceNotFound for the body field `path`. */
export const mapRef = (path: string, what: string) => (e: unknown) => {
  if (e instanceof AppError && e.code === ErrorCode.NotFound) throw referenceNotFound(path, what);
  if (e instanceof AppError && e.kind === ErrorKind.invalid) throw referenceNotFound(path, what);
  throw e;
};
