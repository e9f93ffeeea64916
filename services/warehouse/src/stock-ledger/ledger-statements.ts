import { type EntityManager, pgArray, type Statement, type WritePart } from '@bm/service-kit';
import { type BalanceRow, balancesUpdate } from './balances.js';

/**
 * The statement inserting rows into one table (`insert … select from unnest(…)`, one statement however
 * many rows); `withId` prepends a generated id column. Undefined when there are no rows.
 */
export function insertStatement(
  table: string,
  columns: string[],
  types: string[],
  rows: unknown[][],
  withId = true,
): Statement | undefined {
  if (!rows.length) return undefined;
  const cols = (withId ? ['id', ...columns] : columns).map((c) => `"${c}"`).join(', ');
  const sel = columns.map((_, c) => `u.c${c}`).join(', ');
  return {
    sql: `insert into "warehouse"."${table}" (${cols})
     select ${withId ? 'gen_random_uuid(), ' : ''}${sel}
       from unnest(${types.map((t) => `?::${t}[]`).join(', ')}) as u(${columns.map((_, c) => `c${c}`).join(', ')})`,
    params: columns.map((_, c) => pgArray(rows.map((r) => r[c]))),
  };
}

/** Inserts rows with one statement (see {@link insertStatement}). */
export async function insertRows(
  tx: EntityManager,
  ...args: Parameters<typeof insertStatement>
): Promise<void> {
  const st = insertStatement(...args);
  if (st) await tx.execute(st.sql, st.params);
}

/** Columns of a table written by {@link insertStatement}, as `[column, type]` pairs. */
const columnsOf = (pairs: [string, string][]) => ({
  columns: pairs.map((p) => p[0]),
  types: pairs.map((p) => p[1]),
});
const KEY: [string, string][] = [
  ['company_id', 'uuid'],
  ['warehouse_id', 'uuid'],
  ['item_id', 'uuid'],
  ['lot_key', 'uuid'],
  ['date_operation', 'date'],
  ['seq', 'int8'],
];
const MOVEMENT = columnsOf([
  ...KEY,
  ['quantity', 'numeric'],
  ['value', 'numeric'],
  ['document_type', 'text'],
  ['document_id', 'uuid'],
]);
const LAYER = columnsOf([
  ['id', 'uuid'],
  ...KEY,
  ['line_no', 'int4'],
  ['quantity', 'numeric'],
  ['unit_cost', 'numeric'],
  ['amount', 'numeric'],
  ['remaining_quantity', 'numeric'],
  ['remaining_value', 'numeric'],
]);
const CONSUMPTION = columnsOf([
  ['company_id', 'uuid'],
  ['layer_id', 'uuid'],
  ['document_id', 'uuid'],
  ['date_operation', 'date'],
  ['quantity', 'numeric'],
  ['value', 'numeric'],
]);

/**
 * A posting's ledger writes as row sets (DESIGN §5; rows from `rules/ledger-writes.ts`): the keys'
 * balances, the movements, new layers and consumptions, and the layers' remaining stock. Each part
 * builds one statement for any number of rows, so a group commit merges its documents' parts per kind
 * (service-kit `WritePart`); rows of one part must be of different balances and layers.
 */
export function ledgerWriteParts(
  balances: BalanceRow[],
  rows: {
    movements: unknown[][];
    layers: unknown[][];
    consumptions: unknown[][];
    layerUpdates: [string, string, string][];
  },
): WritePart[] {
  const insert =
    (table: string, spec: { columns: string[]; types: string[] }, withId: boolean) => (r: unknown[]) =>
      insertStatement(table, spec.columns, spec.types, r as unknown[][], withId)!;
  const parts: WritePart[] = [
    {
      kind: 'warehouse.stock_balance update',
      rows: balances,
      build: (r) => balancesUpdate(r as BalanceRow[])!,
    },
    {
      kind: 'warehouse.stock_movement insert',
      rows: rows.movements,
      build: insert('stock_movement', MOVEMENT, true),
    },
    {
      kind: 'warehouse.valuation_layer insert',
      rows: rows.layers,
      build: insert('valuation_layer', LAYER, false),
    },
    {
      kind: 'warehouse.layer_consumption insert',
      rows: rows.consumptions,
      build: insert('layer_consumption', CONSUMPTION, true),
    },
    {
      kind: 'warehouse.valuation_layer remaining',
      rows: rows.layerUpdates,
      build: (r) => ({
        sql: `update "warehouse"."valuation_layer" l set "remaining_quantity" = u.q, "remaining_value" = u.v
           from unnest(?::uuid[], ?::numeric[], ?::numeric[]) as u(id, q, v) where l."id" = u.id`,
        params: [0, 1, 2].map((c) => pgArray((r as string[][]).map((u) => u[c]))),
      }),
    },
  ];
  return parts.filter((p) => p.rows.length);
}

/**
 * Removes what a repost replays of one stock key (`key`: company, warehouse, item, lot key): the layer
 * consumptions of the later issue cards `laterIssueIds`, and the layers and movements dated after `date`
 * (`YYYY-MM-DD`). The replay then writes them anew.
 */
export async function deleteReplayed(
  tx: EntityManager,
  key: [string, string, string, string],
  laterIssueIds: string[],
  date: string,
): Promise<void> {
  await tx.execute(
    `delete from "warehouse"."layer_consumption" c using "warehouse"."valuation_layer" l
      where c."layer_id" = l."id" and c."document_id" = any(?::uuid[])
        and l."company_id" = ? and l."warehouse_id" = ? and l."item_id" = ? and l."lot_key" = ?`,
    [pgArray(laterIssueIds), ...key],
  );
  await tx.execute(
    `delete from "warehouse"."valuation_layer"
      where "company_id" = ? and "warehouse_id" = ? and "item_id" = ? and "lot_key" = ? and "date_operation" > ?`,
    [...key, date],
  );
  await tx.execute(
    `delete from "warehouse"."stock_movement"
      where "company_id" = ? and "warehouse_id" = ? and "item_id" = ? and "lot_key" = ? and "date_operation" > ?`,
    [...key, date],
  );
}
