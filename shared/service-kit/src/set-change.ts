/**
 * Changes of stored rows a document's writer hands back (issue #38: a change of a stored document, e.g.
 * a sales invoice's update, payment or cancellation, is written through the same writer model as a new
 * one): the rows of `entity` matching `where` get the values of `set`, or without `set` are removed.
 * Property names as in the entity; column names and types come from the ORM's metadata (set-insert.ts).
 */
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { pgArray, type Statement } from './set-insert.js';

/** An update (`set`) or removal of the rows of `entity` matching every value of `where`. */
export interface ChangePart {
  entity: EntityName<any>;
  where: Record<string, unknown>;
  set?: Record<string, unknown>;
}

/** One value as a bind parameter of `?::type`. */
function param(v: unknown, type: string): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (type === 'jsonb' || type === 'json') return JSON.stringify(v);
  if (type.endsWith('[]')) return pgArray(v as unknown[]);
  return v;
}

/** The statement of change `part`. */
export function changeStatement(em: EntityManager, part: ChangePart): Statement {
  const meta = em.getMetadata().get(part.entity as any);
  const column = (prop: string) => {
    const p = meta.properties[prop];
    if (!p?.fieldNames?.[0] || !p.columnTypes?.[0])
      throw new Error(`${meta.className} has no column for ${prop}`);
    return { field: p.fieldNames[0], type: p.columnTypes[0] };
  };
  const table = `"${meta.schema}"."${meta.tableName}"`;
  const params: unknown[] = [];
  const assign = (prop: string, v: unknown) => {
    const c = column(prop);
    params.push(param(v, c.type));
    return `"${c.field}" = ?::${c.type}`;
  };
  const set = part.set ? Object.entries(part.set).map(([k, v]) => assign(k, v)) : [];
  const where = Object.entries(part.where).map(([k, v]) => assign(k, v));
  const sql = part.set
    ? `update ${table} set ${set.join(', ')} where ${where.join(' and ')}`
    : `delete from ${table} where ${where.join(' and ')}`;
  return { sql, params };
}
