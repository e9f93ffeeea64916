/**
 * The stock ledger in PostgreSQL (DESIGN §5): balances locked per (warehouse, item, lot), FIFO layers and
 * the ledger sequence; the state of a key as of a date is in key-history.repository.ts. ORM code only; the
 * rules are in `rules/`.
 */

import { fmt } from '@bm/money';
import { type EntityManager, execBound, pgArray, type Statement } from '@bm/service-kit';
import { layerKey, stockKey } from './rules/ledger-replay.js';

/**
 * A balance row of the stock ledger (quantity 4 decimals, value 2 decimals in the company's currency, as
 * exact decimal strings; `lastDate` `YYYY-MM-DD`). Plain data, outside the unit of work: the write path
 * locks, reads and writes balances with SQL only (issue #13), so nothing of one document's work stays
 * managed for the next document of its group commit.
 */
export interface BalanceRow {
  id: string;
  itemId: string;
  lotKey: string;
  quantity: string;
  value: string;
  lastDate: string | null;
}

/** An open FIFO layer as the valuation reads it (exact decimal strings), plain data like {@link BalanceRow}. */
export interface LayerRow {
  id: string;
  itemId: string;
  lotKey: string;
  unitCost: string;
  remainingQuantity: string;
  remainingValue: string;
}

export const BALANCE_COLUMNS = `"id", "item_id" as "itemId", "lot_key" as "lotKey", "quantity"::text, "value"::text,
  to_char("last_date", 'YYYY-MM-DD') as "lastDate"`;
export const LAYER_COLUMNS = `"id", "item_id" as "itemId", "lot_key" as "lotKey", "unit_cost"::text as "unitCost",
  "remaining_quantity"::text as "remainingQuantity", "remaining_value"::text as "remainingValue"`;

/** Lot key of the ledger: the lot id, or the nil UUID for items without lots. */
export const NIL = '00000000-0000-0000-0000-000000000000';
export const lotKeyOf = (lotNumberID: string | null | undefined) => lotNumberID ?? NIL;
export const lotOf = (lotKey: string) => (lotKey === NIL ? null : lotKey);

export interface StockKey {
  itemId: string;
  lotNumberID: string | null;
}

/** A stock key of any company and warehouse. */
export type WarehouseStockKey = StockKey & { companyId: string; warehouseId: string };

/** The keys once each, in the one order every lock of balances follows (warehouse, item, lot). */
function sortedKeys(keys: WarehouseStockKey[]): WarehouseStockKey[] {
  // One sorted order for inserting and locking, so two documents with rows in opposite order never deadlock.
  const order = (k: WarehouseStockKey) => `${k.warehouseId}:${k.itemId}:${lotKeyOf(k.lotNumberID)}`;
  return [...new Map(keys.map((k) => [layerKey(k.warehouseId, k), k])).values()].sort((a, b) =>
    order(a) < order(b) ? -1 : 1,
  );
}

/**
 * The statement locking and reading the balance rows of keys of any companies and warehouses (a group
 * commit's cards), in the order of warehouse, item and lot; one statement text for any number of keys (the
 * keys as arrays, each looked up and locked through the unique index by a lateral subquery). A key without
 * a balance row yields no row ({@link lockedBalances}, {@link lockBalancesOf} create them).
 */
export function lockBalancesStatement(keys: WarehouseStockKey[]): Statement {
  const ks = sortedKeys(keys);
  return {
    sql: `select k."warehouse" as "warehouseId", b.*
         from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[]) with ordinality as k("company", "warehouse", "item", "lot", "n")
         cross join lateral (
           select ${BALANCE_COLUMNS} from "warehouse"."stock_balance" s
            where s."company_id" = k."company" and s."warehouse_id" = k."warehouse" and s."item_id" = k."item"
              and s."lot_key" = k."lot"
            for update) b
        order by k."n"`,
    params: [
      pgArray(ks.map((k) => k.companyId)),
      pgArray(ks.map((k) => k.warehouseId)),
      pgArray(ks.map((k) => k.itemId)),
      pgArray(ks.map((k) => lotKeyOf(k.lotNumberID))),
    ],
  };
}

/** The rows of {@link lockBalancesStatement} by {@link layerKey}. */
export function lockedBalances(rows: unknown[]): Map<string, BalanceRow> {
  const out = new Map<string, BalanceRow>();
  for (const { warehouseId, ...b } of rows as (BalanceRow & { warehouseId: string })[])
    out.set(layerKey(warehouseId, { itemId: b.itemId, lotNumberID: lotOf(b.lotKey) }), b);
  return out;
}

/**
 * {@link lockBalancesStatement} run, creating the balance rows of keys that have none (a first movement;
 * or found created by a concurrent document) and locking them too: every key's row, by {@link layerKey}.
 */
export async function lockBalancesOf(
  em: EntityManager,
  keys: WarehouseStockKey[],
): Promise<Map<string, BalanceRow>> {
  const lock = async (ks: WarehouseStockKey[]) => {
    const { sql, params } = lockBalancesStatement(ks);
    return lockedBalances(await execBound(em, sql, params));
  };
  // Usually every balance exists: one statement locks and reads them all.
  const out = await lock(keys);
  const missing = sortedKeys(keys).filter((k) => !out.has(layerKey(k.warehouseId, k)));
  if (missing.length) {
    const values = missing.map(() => '(gen_random_uuid(), ?, ?, ?, ?, 0, 0, null)').join(', ');
    await em.execute(
      `insert into "warehouse"."stock_balance" ("id", "company_id", "warehouse_id", "item_id", "lot_key", "quantity", "value", "last_date")
       values ${values} on conflict ("company_id", "warehouse_id", "item_id", "lot_key") do nothing`,
      missing.flatMap((k) => [k.companyId, k.warehouseId, k.itemId, lotKeyOf(k.lotNumberID)]),
    );
    for (const [k, b] of await lock(missing)) out.set(k, b);
  }
  return out;
}

/**
 * The statement writing the balances a posting changed (one statement however many keys; undefined for
 * none), run inside the document's transaction on rows {@link lockBalances} locked.
 */
export function balancesUpdate(balances: BalanceRow[]): Statement | undefined {
  if (!balances.length) return undefined;
  return {
    sql: `update "warehouse"."stock_balance" b set "quantity" = u.q, "value" = u.v, "last_date" = u.d
       from unnest(?::uuid[], ?::numeric[], ?::numeric[], ?::date[]) as u(id, q, v, d) where b."id" = u.id`,
    params: [
      pgArray(balances.map((b) => b.id)),
      pgArray(balances.map((b) => b.quantity)),
      pgArray(balances.map((b) => b.value)),
      pgArray(balances.map((b) => b.lastDate)),
    ],
  };
}

/** Reads balances without locking (copy preview). Missing keys read as empty stock. */
export async function readBalances(
  em: EntityManager,
  companyId: string,
  warehouseId: string,
  keys: StockKey[],
): Promise<Map<string, BalanceRow | undefined>> {
  const rows = keys.length
    ? await em.execute<BalanceRow[]>(
        `select ${BALANCE_COLUMNS} from "warehouse"."stock_balance"
          where "company_id" = ? and "warehouse_id" = ? and ("item_id", "lot_key") in (${keys.map(() => '(?::uuid, ?::uuid)').join(', ')})`,
        [companyId, warehouseId, ...keys.flatMap((k) => [k.itemId, lotKeyOf(k.lotNumberID)])],
      )
    : [];
  return new Map(rows.map((r) => [stockKey(r.itemId, lotOf(r.lotKey)), r]));
}

export { layerKey };

/** True when a movement dated `date` is not before any movement of the key (no back-dating). */
export const isCurrent = (balance: BalanceRow | undefined, date: string) =>
  !balance?.lastDate || date >= balance.lastDate;

/** `n` values of the ledger sequence (creation order of movements and layers). */
export async function nextSeqs(em: EntityManager, n: number): Promise<string[]> {
  const rows = await execBound<{ seq: string }>(
    em,
    `select nextval('"warehouse"."ledger_seq"')::text as "seq" from generate_series(1, ?)`,
    [n],
  );
  return rows.map((r) => r.seq);
}

export { fmt };
