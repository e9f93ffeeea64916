/**
 * Master data read on every document, kept per process for a few seconds (issue #13: the profile shows
 * the ORM's reads of ordner, warehouse, items, company profile, partner, period and VAT codes as the
 * largest share of a service's CPU per document).
 *
 * Rules (docs/decisions.md "Throughput"):
 * - Entries are per company. Any master-data write this process serves (a `create`, `update`,
 *   `provision` or `close` of anything that is not a document) drops the company's entries at once, after
 *   the write ({@link invalidateAfter}); another replica's copy lives at most {@link MASTER_DATA_TTL_MS}.
 * - Only what a write can re-check decides anything: the state that races matter for (a period closed,
 *   stock, record numbers) is checked again inside the document's transaction, under its lock.
 * - A miss is never kept: an unknown id is asked every time, so a new partner or item is found at once.
 * - Values are plain data or entities read without the identity map; callers must not change them.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';

/** How long another replica may use a master-data row after it changed. */
export const MASTER_DATA_TTL_MS = 5000;

const cache = new LRUCache<string, { v: unknown }>({ max: 200_000, ttl: MASTER_DATA_TTL_MS });
/** Per company, bumped by every master-data write: older entries are never read again. */
const generations = new Map<string, number>();

/** The company an EntityManager is filtered to (`forkFor`), if any. */
export const companyOfEm = (em: EntityManager): string | undefined =>
  (em.getFilterParams('company') as { companyId?: string } | undefined)?.companyId;

/**
 * `load()` once per {@link MASTER_DATA_TTL_MS} for (company of `em`, `key`); `undefined` and `null` results
 * and errors are not kept. Without a company filter it always loads.
 */
export async function cachedMasterData<T>(
  em: EntityManager,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const companyId = companyOfEm(em);
  if (!companyId) return load();
  const k = `${companyId}:${generations.get(companyId) ?? 0}:${key}`;
  const hit = cache.get(k);
  if (hit) return hit.v as T;
  const v = await load();
  if (v !== undefined && v !== null) cache.set(k, { v });
  return v;
}

/** The cached value of (company of `em`, `key`), if any (for reads of many keys in one query). */
export function peekMasterData<T>(em: EntityManager, key: string): T | undefined {
  const companyId = companyOfEm(em);
  if (!companyId) return undefined;
  return cache.get(`${companyId}:${generations.get(companyId) ?? 0}:${key}`)?.v as T | undefined;
}

/**
 * Keeps `value` for (company of `em`, `key`) under the generation read before loading it (`generation`
 * from {@link masterDataGeneration}), so a value loaded across a write is never kept as current.
 */
export function keepMasterData(em: EntityManager, key: string, value: unknown, generation: number): void {
  const companyId = companyOfEm(em);
  if (companyId && value !== undefined && value !== null)
    cache.set(`${companyId}:${generation}:${key}`, { v: value });
}

/** The company's current generation (read it before loading what {@link keepMasterData} keeps). */
export const masterDataGeneration = (em: EntityManager): number =>
  generations.get(companyOfEm(em) ?? '') ?? 0;

/** Drops the company's cached master data (this process). */
export function invalidateMasterData(companyId: string): void {
  generations.set(companyId, (generations.get(companyId) ?? 0) + 1);
}

const DOCUMENTS = /\.(issue-cards|receipt-cards|sales-invoices|purchase-invoices|printouts)\./;

/** Whether a request subject writes master data (`warehouse.items.update`, `invoicing.periods.close`). */
export const writesMasterData = (subject: string): boolean =>
  /\.(create|update|provision|close)$/.test(subject) && !DOCUMENTS.test(subject);

/** Runs a request's handler; after a master-data write (even a failed one) drops the company's entries. */
export async function invalidateAfter<T>(
  subject: string | undefined,
  companyId: string | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  if (!subject || !companyId || !writesMasterData(subject)) return fn();
  try {
    return await fn();
  } finally {
    invalidateMasterData(companyId);
  }
}
