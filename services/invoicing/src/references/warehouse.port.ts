/**
 * Invoicing's NATS requests to the warehouse for an invoice's references (docs/architecture.md "The
 * write pass": before the pass's transaction): the warehouse by id or code, and the items and units of
 * the rows in one request.
 */
import { type Item, resolveCatalog, resolveWarehouse } from '@bm/contracts';
import { AppError, ErrorCode, referenceNotFound } from '@bm/errors';
import { type RequestContext, request } from '@bm/messaging';
import type { ServiceKit } from '@bm/service-kit';
import { LRUCache } from 'lru-cache';

/**
 * Warehouses this replica has seen exist, by company and id (issue #13: no call to the warehouse service
 * on every invoice). Warehouses are never deleted, so an id once found stays valid; a code is asked every
 * time (codes can change), and so is an unknown id.
 */
const knownWarehouses = new LRUCache<string, true>({ max: 100_000 });

/** The warehouse's id by id or code, asked from the warehouse service (422 ReferenceNotFound). */
export async function resolveWarehouseRemote(
  kit: ServiceKit,
  ctx: RequestContext,
  id?: string,
  code?: string,
): Promise<string> {
  if (id && knownWarehouses.has(`${ctx.companyId}:${id}`)) return id;
  const w = await request(kit.nc, resolveWarehouse, { id: id ?? null, code: code ?? null }, ctx).catch(
    (e) => {
      if (e instanceof AppError && e.code === ErrorCode.NotFound)
        throw referenceNotFound(id ? 'warehouseId' : 'warehouseCode', 'warehouse');
      throw e;
    },
  );
  knownWarehouses.set(`${ctx.companyId}:${w.id}`, true);
  return w.id;
}

export interface RowCatalogRef {
  itemId?: string | null;
  itemCode?: string;
  unitId?: string | null;
  unitCode?: string;
}

export interface ResolvedCatalogRow {
  item: Item | null;
  unitId: string | null;
}

/** Items and units of the rows, in one NATS request (422 ReferenceNotFound naming the row). */
export async function resolveRowsCatalog(
  kit: ServiceKit,
  ctx: RequestContext,
  rows: RowCatalogRef[],
): Promise<ResolvedCatalogRow[]> {
  const itemIds = [...new Set(rows.map((r) => r.itemId).filter((x): x is string => !!x))];
  const itemCodes = [...new Set(rows.filter((r) => !r.itemId && r.itemCode).map((r) => r.itemCode!))];
  const unitIds = [...new Set(rows.map((r) => r.unitId).filter((x): x is string => !!x))];
  const unitCodes = [...new Set(rows.map((r) => r.unitCode).filter((x): x is string => !!x))];
  if (!itemIds.length && !itemCodes.length && !unitIds.length && !unitCodes.length)
    return rows.map(() => ({ item: null, unitId: null }));
  const cat = await request(kit.nc, resolveCatalog, { itemIds, itemCodes, unitIds, unitCodes }, ctx);
  return rows.map((r, i) => {
    let item: Item | null = null;
    if (r.itemId || r.itemCode) {
      item =
        (r.itemId
          ? cat.items.find((x) => x.id === r.itemId)
          : cat.items.find((x) => x.code === r.itemCode)) ?? null;
      if (!item) throw referenceNotFound(`rows.${i}.${r.itemId ? 'itemId' : 'itemCode'}`, 'item');
    }
    let unitId = item?.unitId ?? null;
    if (r.unitId) {
      if (!cat.units.some((u) => u.id === r.unitId)) throw referenceNotFound(`rows.${i}.unitId`, 'unit');
      unitId = r.unitId;
    } else if (r.unitCode) {
      const u = cat.units.find((x) => x.code === r.unitCode);
      if (!u) throw referenceNotFound(`rows.${i}.unitCode`, 'unit');
      unitId = u.id;
    }
    return { item, unitId };
  });
}
