import { type EntityManager, pgArray, type Statement, type WritePart } from '@bm/service-kit';
import { type BalanceRow, balancesUpdate } from './stock-ledger.repository.js';

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

const MOVEMENT = {
  columns: [
    'company_id',
    'warehouse_id',
    'item_id',
    'lot_key',
    'date_operation',
    'seq',
    'quantity',
    'value',
    'document_type',
    'document_id',
  ],
  types: ['uuid', 'uuid', 'uuid', 'uuid', 'date', 'int8', 'numeric', 'numeric', 'text', 'uuid'],
};
const LAYER = {
  columns: [
    'id',
    'company_id',
    'warehouse_id',
    'item_id',
    'lot_key',
    'date_operation',
    'seq',
    'line_no',
    'quantity',
    'unit_cost',
    'amount',
    'remaining_quantity',
    'remaining_value',
  ],
  types: [
    'uuid',
    'uuid',
    'uuid',
    'uuid',
    'uuid',
    'date',
    'int8',
    'int4',
    'numeric',
    'numeric',
    'numeric',
    'numeric',
    'numeric',
  ],
};
const CONSUMPTION = {
  columns: ['company_id', 'layer_id', 'document_id', 'date_operation', 'quantity', 'value'],
  types: ['uuid', 'uuid', 'uuid', 'date', 'numeric', 'numeric'],
};

/**
 * A posting's ledger writes as row sets (DESIGN §5; rows from `domain/ledger-writes.ts`): the keys'
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
