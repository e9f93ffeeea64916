import {
  AppError,
  ErrorCode,
  ErrorKind,
  type FieldError,
  referenceNotFound,
  unprocessable,
  validationFailed,
} from '@bm/errors';
import type { RequestContext } from '@bm/messaging';
import {
  cachedMasterData,
  type EntityManager,
  keepMasterData,
  masterDataGeneration,
  ordnerResolver,
  peekMasterData,
} from '@bm/service-kit';
import {
  ItemEntity,
  LotNumberEntity,
  OrdnerEntity,
  UnitEntity,
  WarehouseEntity,
} from '../schema/entities.js';
import { closedPeriodStates } from './period-state.js';

export type ItemRow = InstanceType<typeof ItemEntity.class>;
export type WarehouseRow = InstanceType<typeof WarehouseEntity.class>;

/** The ordner by id or code (or the company's default for the type); it must hold `documentType`. */
export const resolveOrdner = ordnerResolver(OrdnerEntity);

export async function resolveWarehouse(
  em: EntityManager,
  id: string | undefined,
  code: string | undefined,
): Promise<WarehouseRow> {
  const w = await cachedMasterData(em, `warehouse:warehouse:${id ?? ''}:${code ?? ''}`, () =>
    em.findOne(WarehouseEntity, id ? { id } : { code: code! }, { disableIdentityMap: true }),
  );
  if (!w) throw referenceNotFound(id ? 'warehouseId' : 'warehouseCode', 'warehouse');
  return w;
}

export interface RowRef {
  itemId?: string;
  itemCode?: string;
  unitId?: string | null;
  unitCode?: string;
  lotNumberID?: string | null;
}

export interface ResolvedRow {
  item: ItemRow;
  unitId: string | null;
  lotNumberID: string | null;
}

/**
 * Items, units and lots of the rows, in three queries. Errors name the row: 422 ReferenceNotFound,
 * 422 LotNumberRequired for an item with lot numbers and no `lotNumberID`, 400 for a service item.
 */
export async function resolveRows(em: EntityManager, rows: RowRef[]): Promise<ResolvedRow[]> {
  const ids = [...new Set(rows.map((r) => r.itemId).filter((x): x is string => !!x))];
  const codes = [...new Set(rows.filter((r) => !r.itemId).map((r) => r.itemCode!))];
  // Items by id from the master-data cache; the others (and any by code) in one query.
  const generation = masterDataGeneration(em);
  const items: ItemRow[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const hit = peekMasterData<ItemRow>(em, `warehouse:item:${id}`);
    if (hit) items.push(hit);
    else missing.push(id);
  }
  if (missing.length || codes.length) {
    const loaded = await em.find(
      ItemEntity,
      { $or: [{ id: { $in: missing } }, { code: { $in: codes } }] },
      { disableIdentityMap: true },
    );
    for (const item of loaded) {
      items.push(item);
      keepMasterData(em, `warehouse:item:${item.id}`, item, generation);
    }
  }
  const unitIds = [...new Set(rows.map((r) => r.unitId).filter((x): x is string => !!x))];
  const unitCodes = [...new Set(rows.map((r) => r.unitCode).filter((x): x is string => !!x))];
  const units =
    unitIds.length || unitCodes.length
      ? await em.find(UnitEntity, { $or: [{ id: { $in: unitIds } }, { code: { $in: unitCodes } }] })
      : [];
  const lotIds = [...new Set(rows.map((r) => r.lotNumberID).filter((x): x is string => !!x))];
  const lots = lotIds.length ? await em.find(LotNumberEntity, { id: { $in: lotIds } }) : [];
  const invalid: FieldError[] = [];
  const out: ResolvedRow[] = [];
  for (const [i, r] of rows.entries()) {
    const item = r.itemId ? items.find((x) => x.id === r.itemId) : items.find((x) => x.code === r.itemCode);
    if (!item) throw referenceNotFound(`rows.${i}.${r.itemId ? 'itemId' : 'itemCode'}`, 'item');
    if (item.kind === 'service')
      invalid.push({
        path: `rows.${i}.itemId`,
        message: `item ${item.code} is a service and is not kept in stock`,
      });
    let unitId = item.unitId ?? null;
    if (r.unitId) {
      if (!units.some((u) => u.id === r.unitId)) throw referenceNotFound(`rows.${i}.unitId`, 'unit');
      unitId = r.unitId;
    } else if (r.unitCode) {
      const u = units.find((x) => x.code === r.unitCode);
      if (!u) throw referenceNotFound(`rows.${i}.unitCode`, 'unit');
      unitId = u.id;
    }
    if (r.lotNumberID) {
      const lot = lots.find((l) => l.id === r.lotNumberID);
      if (!lot || lot.itemId !== item.id)
        throw referenceNotFound(`rows.${i}.lotNumberID`, `lot number of item ${item.code}`);
    } else if (item.hasLotNumbers) {
      throw unprocessable(
        ErrorCode.LotNumberRequired,
        `item ${item.code} has lot numbers: lotNumberID is required`,
        {
          errors: [{ path: `rows.${i}.lotNumberID`, message: 'required for an item with lot numbers' }],
        },
      );
    }
    out.push({ item, unitId, lotNumberID: r.lotNumberID ?? null });
  }
  if (invalid.length) throw validationFailed(invalid);
  return out;
}

/**
 * Which of `periodIds` are closed (DESIGN §5 "Repost": a revalued card must not lie in a closed
 * period): the warehouse's own copy, share-locked in the caller's transaction. A period without a row was
 * never closed: invoicing closes a period only after the warehouse has closed its copy
 * (`closeWarehousePeriod`), so the copy knows every closed period. Asks nobody: this runs inside the
 * card's transaction, where no NATS request may be made (docs/architecture.md, issue #22).
 */
export async function closedPeriods(
  ctx: RequestContext & { em: EntityManager },
  periodIds: string[],
): Promise<Set<string>> {
  return (await closedPeriodStates(ctx.em, ctx.companyId!, periodIds)).closed;
}

/** 422 CostPriceRequired for Custom valuation rows without a cost price. */
export function requireCostPrices(rows: { costPrice?: string }[]): void {
  const missing = rows.flatMap((r, i) =>
    r.costPrice === undefined
      ? [{ path: `rows.${i}.costPrice`, message: 'required under Custom valuation' }]
      : [],
  );
  if (missing.length) {
    throw new AppError(
      ErrorKind.unprocessable,
      ErrorCode.CostPriceRequired,
      'the warehouse uses Custom valuation: every row needs a costPrice',
      {
        errors: missing,
      },
    );
  }
}
