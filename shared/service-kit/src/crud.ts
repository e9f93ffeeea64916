/**
 * Generic master-data endpoints (DESIGN §4): list / get / create / update of one entity per resource,
 * always scoped to the company by the ORM filter. Codes are company-unique (409 via the unique index).
 */
import type { Crud, PageQuery } from '@bm/contracts';
import { notFound } from '@bm/errors';
import { type RequestContext, serve } from '@bm/messaging';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import type { ServiceKit } from './bootstrap.js';
import { paginate } from './orm.js';

export type Ctx = RequestContext & { em: EntityManager; log: ServiceKit['log'] };

export interface CrudAdapter<E extends object, In, Out> {
  entity: EntityName<E>;
  /** Human name for messages, e.g. `Item`. */
  label: string;
  /** Checks references and turns the input into the entity's data (create: `existing` undefined). */
  assign: (input: In, ctx: Ctx, existing?: E) => Promise<Partial<E>> | Partial<E>;
  /** Maps entities to their reply shape; batch form so lookups are one query per page. */
  toDtos: (entities: E[], ctx: Ctx) => Promise<Out[]> | Out[];
  /** List order; default `code` ascending. */
  orderBy?: Record<string, 'asc' | 'desc'>;
  /** Fixed condition of every query and value of every created row, e.g. `{list: 'persons'}`. */
  scope?: Record<string, unknown>;
  /** Runs in the create/update transaction before the row is stored (e.g. overlap checks). */
  beforeStore?: (data: Partial<E>, ctx: Ctx, existing?: E) => Promise<void>;
  /** Runs in the same transaction after the row is created or changed (e.g. child rows). */
  afterStore?: (e: E, input: In, ctx: Ctx) => Promise<void>;
}

/** Plain copy of the named fields of an entity. */
export const pick = <E extends object, K extends keyof E>(e: E, keys: readonly K[]): Picked<E, K> =>
  Object.fromEntries(keys.map((k) => [k, e[k] ?? null])) as Picked<E, K>;

/** Fields of `E` named `K`, with `undefined` (unset optional columns) read as `null`. */
export type Picked<E, K extends keyof E> = {
  [P in K]: undefined extends E[P] ? Exclude<E[P], undefined> | null : E[P];
};

/** Registers the four endpoints of a master-data resource. */
export function registerCrud<E extends object, In, Out>(
  kit: ServiceKit,
  crud: Pick<Crud<any, any, any>, 'list' | 'get' | 'create' | 'update'>,
  a: CrudAdapter<E, In, Out>,
): void {
  const on = <Q>(contract: Crud<any, any, any>['list'], fn: (q: Q, ctx: Ctx) => Promise<unknown>) =>
    serve<any, { em: EntityManager }>(kit.service, contract, fn as any, kit.serveOpts);
  on(crud.list, (q: PageQuery, ctx) => listPage(a, q, ctx));
  on(crud.get, async (q: { id: string }, ctx) => dtoOf(a, await findOne(a, q.id, ctx), ctx));
  on(crud.create, (input: In, ctx) => createOne(a, input, ctx));
  on(crud.update, (req: { id: string; data: In }, ctx) => updateOne(a, req.id, req.data, ctx));
}

const dtoOf = async <E extends object, In, Out>(a: CrudAdapter<E, In, Out>, e: E, ctx: Ctx) =>
  (await a.toDtos([e], ctx))[0];

/** The record `id` within the adapter's scope. @throws 404 NotFound naming the label */
async function findOne<E extends object, In, Out>(
  a: CrudAdapter<E, In, Out>,
  id: string,
  ctx: Ctx,
): Promise<E> {
  const e = await ctx.em.findOne(a.entity, { id, ...a.scope } as any);
  if (!e) throw notFound(a.label);
  return e as E;
}

/** A page of records (the adapter's order, default by code). */
async function listPage<E extends object, In, Out>(a: CrudAdapter<E, In, Out>, q: PageQuery, ctx: Ctx) {
  const page = await paginate(
    ctx.em,
    a.entity,
    (a.scope ?? {}) as any,
    q,
    a.orderBy ?? { code: 'asc' },
    (e) => e,
  );
  return { ...page, items: await a.toDtos(page.items as E[], ctx) };
}

/** Creates a record from `input` in one transaction (with the adapter's hooks). */
async function createOne<E extends object, In, Out>(a: CrudAdapter<E, In, Out>, input: In, ctx: Ctx) {
  const data = await a.assign(input, ctx);
  const e = await ctx.em.transactional(async (em) => {
    await a.beforeStore?.(data, { ...ctx, em });
    const created = em.create(a.entity, {
      id: crypto.randomUUID(),
      companyId: ctx.companyId,
      ...a.scope,
      ...data,
    } as any);
    await a.afterStore?.(created, input, { ...ctx, em });
    return created;
  });
  return dtoOf(a, e as E, ctx);
}

/** Replaces record `id` with `input` in one transaction (with the adapter's hooks). @throws 404 */
async function updateOne<E extends object, In, Out>(
  a: CrudAdapter<E, In, Out>,
  id: string,
  input: In,
  ctx: Ctx,
) {
  const e = await findOne(a, id, ctx);
  const data = await a.assign(input, ctx, e);
  await ctx.em.transactional(async (em) => {
    await a.beforeStore?.(data, { ...ctx, em }, e);
    em.assign(e, data as any);
    await a.afterStore?.(e, input, { ...ctx, em });
  });
  return dtoOf(a, e, ctx);
}
