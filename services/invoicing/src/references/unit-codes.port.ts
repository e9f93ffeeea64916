/** The UN/ECE codes of units, asked from the warehouse service (issue #21); never inside a transaction. */
import { resolveCatalog } from '@bm/contracts';
import { type RequestContext, request } from '@bm/messaging';
import type { ServiceKit } from '@bm/service-kit';

/** The units of `unitIds` from the warehouse's catalogue (one request). */
async function unitsOf(kit: ServiceKit, ctx: RequestContext, unitIds: string[]) {
  const ids = [...new Set(unitIds)];
  if (!ids.length) return [];
  const cat = await request(
    kit.nc,
    resolveCatalog,
    { itemIds: [], itemCodes: [], unitIds: ids, unitCodes: [] },
    ctx,
  );
  return cat.units;
}

/** UN/ECE Rec 20/21 code by unit id (units without one are absent). */
export async function uneceCodes(
  kit: ServiceKit,
  ctx: RequestContext,
  unitIds: string[],
): Promise<Map<string, string>> {
  const units = await unitsOf(kit, ctx, unitIds);
  return new Map(units.filter((u) => u.uneceCode).map((u) => [u.id, u.uneceCode!]));
}

/** The unit codes (`kg`, `ks`, …) by unit id, as the control statement's MJ wants them (issue #37). */
export async function unitCodesById(
  kit: ServiceKit,
  ctx: RequestContext,
  unitIds: string[],
): Promise<Map<string, string>> {
  return new Map((await unitsOf(kit, ctx, unitIds)).map((u) => [u.id, u.code]));
}
