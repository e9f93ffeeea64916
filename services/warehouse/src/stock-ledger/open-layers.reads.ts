/**
 * Open FIFO layers of the stock ledger in PostgreSQL (DESIGN §5): the first layers of keys read in one
 * statement (with values of the ledger sequence for a group commit, issue #24), the rest read per key
 * when a document needs them. SQL only; the rules are in `rules/`.
 */
import { type Dec, dec } from '@bm/money';
import { type EntityManager, execBound, pgArray, type Statement } from '@bm/service-kit';
import { LAYER_COLUMNS, type LayerRow, layerKey, lotKeyOf, lotOf, type StockKey } from './balances.js';
import type { Layer } from './rules/fifo.js';
import { stockKey } from './rules/ledger-replay.js';

/** A layer row as the domain's {@link Layer} (exact decimals). */
export const toLayer = (l: LayerRow): Layer => ({
  id: l.id,
  unitCost: dec(l.unitCost),
  remainingQuantity: dec(l.remainingQuantity),
  remainingValue: dec(l.remainingValue),
});

/**
 * Open FIFO layers, oldest first, loaded only until they cover `needed` (work proportional to the
 * layers consumed, not to history: the partial index holds only layers with stock left).
 */
export async function openLayers(
  em: EntityManager,
  companyId: string,
  warehouseId: string,
  key: StockKey,
  needed: Dec,
): Promise<LayerRow[]> {
  const out: LayerRow[] = [];
  let covered = dec(0);
  for (let batch = 8; ; batch *= 4) {
    const rows = await em.execute<LayerRow[]>(
      `select ${LAYER_COLUMNS} from "warehouse"."valuation_layer"
        where "company_id" = ? and "warehouse_id" = ? and "item_id" = ? and "lot_key" = ? and "remaining_quantity" > 0
        order by "date_operation", "seq", "line_no" limit ${batch} offset ${out.length}`,
      [companyId, warehouseId, key.itemId, lotKeyOf(key.lotNumberID)],
    );
    for (const r of rows) {
      out.push(r);
      covered = covered.plus(dec(r.remainingQuantity));
    }
    if (rows.length < batch || covered.gte(needed)) return out;
  }
}

/** Open layers read per key in the first, batched query (more are read per key only when needed). */
export const FIRST_BATCH = 8;

/**
 * The first {@link FIRST_BATCH} open layers of several keys in one query (a lateral join per key on the
 * partial index), as plain rows. A document with five rows costs one round trip, not five.
 */
export async function prefetchOpenLayers(
  em: EntityManager,
  companyId: string,
  warehouseId: string,
  keys: StockKey[],
): Promise<Map<string, LayerRow[]>> {
  if (!keys.length) return new Map();
  const r = await openLayersAndSeqs(
    em,
    keys.map((k) => ({ companyId, warehouseId, ...k })),
    0,
  );
  return new Map(
    keys.map((k) => [stockKey(k.itemId, k.lotNumberID), r.layers.get(layerKey(warehouseId, k))!]),
  );
}

/**
 * The statement reading the first {@link FIRST_BATCH} open layers of keys of any warehouses and, with
 * `seqs` > 0, drawing that many ascending values of the ledger sequence (one row even without layers).
 * Run after the keys' balances are locked (the values then order the documents as their commits do);
 * {@link openLayersFrom} reads its rows.
 */
export function openLayersStatement(
  keys: (StockKey & { companyId: string; warehouseId: string })[],
  seqs: number,
): Statement {
  // One statement text for any number of keys (the keys as arrays), so it is prepared once.
  const layers = `select l.*, k."warehouse_id" as "warehouseId"
       from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[]) as k("company_id", "warehouse_id", "item_id", "lot_key")
       cross join lateral (
         select ${LAYER_COLUMNS} from "warehouse"."valuation_layer" v
          where v."company_id" = k."company_id" and v."warehouse_id" = k."warehouse_id" and v."item_id" = k."item_id"
            and v."lot_key" = k."lot_key" and v."remaining_quantity" > 0
          order by v."date_operation", v."seq", v."line_no" limit ${FIRST_BATCH}) l`;
  const params: unknown[] = [
    pgArray(keys.map((k) => k.companyId)),
    pgArray(keys.map((k) => k.warehouseId)),
    pgArray(keys.map((k) => k.itemId)),
    pgArray(keys.map((k) => lotKeyOf(k.lotNumberID))),
  ];
  if (!seqs) return { sql: layers, params };
  return {
    sql: `with s as (select array_agg(nextval('"warehouse"."ledger_seq"')::text order by g) as "seqs"
                    from generate_series(1, ?::int) g)
       select s."seqs", l.* from s left join (${layers}) l on true`,
    params: [seqs, ...params],
  };
}

/** The layers (by {@link layerKey}; every key of `keys` present, with no layers as `[]`) and drawn ledger values of {@link openLayersStatement}'s rows. */
export function openLayersFrom(
  keys: (StockKey & { warehouseId: string })[],
  rows: unknown[],
): { layers: Map<string, LayerRow[]>; seqs: string[] } {
  const out = new Map<string, LayerRow[]>(keys.map((k) => [layerKey(k.warehouseId, k), []]));
  const typed = rows as (LayerRow & { warehouseId: string; seqs?: string[] })[];
  for (const { seqs: _, warehouseId, ...layer } of typed)
    if (layer.id)
      out.get(layerKey(warehouseId, { itemId: layer.itemId, lotNumberID: lotOf(layer.lotKey) }))?.push(layer);
  return { layers: out, seqs: typed[0]?.seqs ?? [] };
}

/** {@link openLayersStatement} run: the layers of `keys` and `seqs` ledger values. */
export async function openLayersAndSeqs(
  em: EntityManager,
  keys: (StockKey & { companyId: string; warehouseId: string })[],
  seqs: number,
): Promise<{ layers: Map<string, LayerRow[]>; seqs: string[] }> {
  const { sql, params } = openLayersStatement(keys, seqs);
  return openLayersFrom(keys, await execBound(em, sql, params));
}
