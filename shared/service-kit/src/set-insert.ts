/**
 * Set-based inserts on the write path (issue #13: the profile showed one round trip per statement and
 * MikroORM's unit of work as the main costs of storing a document). {@link insertAll} stores rows of
 * several entities in ONE statement: a chain of data-modifying CTEs, each `insert … values (…)` for one
 * row or `insert … select from unnest(…)` for many. Column names and types come from the ORM's metadata,
 * so the entities stay the one description of the tables. The rows are plain objects keyed by property
 * name; every row of one entity must have the same keys. The ORM does not manage what is inserted here.
 */

import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { execBound } from './bound-query.js';

const NEEDS_ESCAPE = /[\\"]/;
/** One element of an array literal: quoted, with `\` and `"` escaped (only texts holding one are rewritten). */
const element = (v: unknown): string => {
  if (v === null || v === undefined) return 'NULL';
  const s = String(v);
  return NEEDS_ESCAPE.test(s) ? `"${s.replace(/[\\"]/g, '\\$&')}"` : `"${s}"`;
};

/** A PostgreSQL array literal of `values` (every element quoted; null as NULL), for `?::type[]`. */
export const pgArray = (values: readonly unknown[]): string => {
  let out = '{';
  for (let i = 0; i < values.length; i++) out += (i ? ',' : '') + element(values[i]);
  return `${out}}`;
};

/** Rows of one entity to insert. */
export interface InsertPart {
  entity: EntityName<any>;
  rows: Record<string, unknown>[];
}

interface Column {
  prop: string;
  field: string;
  type: string;
}

/** One value as the text PostgreSQL parses for `type` (inside an array literal). */
function asText(v: unknown, type: string): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (type === 'jsonb' || type === 'json') return JSON.stringify(v);
  return v;
}

/** One value as a bind parameter of `?::type`. */
function asParam(v: unknown, type: string): unknown {
  if (v === null || v === undefined) return null;
  if (type === 'jsonb' || type === 'json') return JSON.stringify(v);
  if (type.endsWith('[]')) return pgArray(v as unknown[]);
  return v;
}

/** The columns and SQL text of an insert of one entity with given keys, one row or many (see below). */
interface InsertShape {
  columns: Column[];
  sql: string;
}
/** Shapes by entity, then by `one|many` and the rows' keys: built once per shape (issue #24 profile). */
const shapes = new Map<unknown, Map<string, InsertShape>>();

function shapeOf(em: EntityManager, part: InsertPart, keys: string[]): InsertShape {
  const many = part.rows.length > 1;
  const id = `${many ? 'many' : 'one'}|${keys.join(',')}`;
  let byEntity = shapes.get(part.entity);
  if (!byEntity) {
    byEntity = new Map();
    shapes.set(part.entity, byEntity);
  }
  const known = byEntity.get(id);
  if (known) return known;
  const meta = em.getMetadata().get(part.entity as any);
  const columns: Column[] = keys.map((k) => {
    const p = meta.properties[k];
    if (!p?.fieldNames?.[0] || !p.columnTypes?.[0])
      throw new Error(`insertAll: ${meta.className} has no column for ${k}`);
    return { prop: k, field: p.fieldNames[0], type: p.columnTypes[0] };
  });
  const table = `"${meta.schema}"."${meta.tableName}"`;
  const cols = columns.map((c) => `"${c.field}"`).join(', ');
  // An array column (tags) travels as a text[] of array literals, cast back row by row.
  const isArray = (c: Column) => c.type.endsWith('[]');
  const sql = many
    ? `insert into ${table} (${cols}) select ${columns.map((c, i) => (isArray(c) ? `u.c${i}::${c.type}` : `u.c${i}`)).join(', ')}
      from unnest(${columns.map((c) => (isArray(c) ? '?::text[]' : `?::${c.type}[]`)).join(', ')}) as u(${columns.map((_, i) => `c${i}`).join(', ')})`
    : `insert into ${table} (${cols}) values (${columns.map((c) => `?::${c.type}`).join(', ')})`;
  const shape = { columns, sql };
  byEntity.set(id, shape);
  return shape;
}

function statementOf(em: EntityManager, part: InsertPart): Statement {
  const { columns, sql } = shapeOf(em, part, Object.keys(part.rows[0]));
  if (part.rows.length === 1) {
    const row = part.rows[0];
    return { sql, params: columns.map((c) => asParam(row[c.prop], c.type)) };
  }
  return {
    sql,
    params: columns.map((c) =>
      pgArray(
        part.rows.map((r) =>
          c.type.endsWith('[]')
            ? r[c.prop] == null
              ? null
              : pgArray(r[c.prop] as unknown[])
            : asText(r[c.prop], c.type),
        ),
      ),
    ),
  };
}

/** The insert statement of each part that has rows (see {@link insertAll}). */
export function insertStatements(em: EntityManager, parts: InsertPart[]): Statement[] {
  return parts.filter((p) => p.rows.length).map((p) => statementOf(em, p));
}

/** Inserts every part's rows in one statement (parts without rows are skipped). */
export async function insertAll(em: EntityManager, parts: InsertPart[]): Promise<void> {
  await executeAll(em, insertStatements(em, parts));
}

/** One SQL statement with its `?` parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * Runs independent writes (inserts, updates of different rows) as one statement: all but the last as
 * data-modifying CTEs (issue #13: one round trip for a document's ledger writes). They share one
 * snapshot and do not see each other's rows, so a write must not depend on another one of the same call.
 */
export async function executeAll(em: EntityManager, statements: Statement[]): Promise<void> {
  if (!statements.length) return;
  const { sql, params } = combinedStatement(statements);
  await execBound(em, sql, params);
}

/** Independent writes as ONE statement (see {@link executeAll}); `statements` must not be empty. */
export function combinedStatement(statements: Statement[]): Statement {
  const last = statements.at(-1)!;
  const head = statements.slice(0, -1);
  const sql = head.length
    ? `with ${head.map((s, i) => `w${i} as (${s.sql})`).join(', ')} ${last.sql}`
    : last.sql;
  return { sql, params: [...head.flatMap((s) => s.params), ...last.params] };
}
