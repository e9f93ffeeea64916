/**
 * References of invoices (DESIGN §2: an unknown id or code, or another company's, is 422
 * ReferenceNotFound): local master data of invoicing, and warehouses, items and units asked from the
 * warehouse service over NATS in one request each.
 */
import { type Item, type Period, resolveCatalog, resolveWarehouse } from '@bm/contracts';
import { AppError, ErrorCode, referenceNotFound, unprocessable } from '@bm/errors';
import { type RequestContext, request } from '@bm/messaging';
import { cachedMasterData, type EntityManager, ordnerResolver, type ServiceKit } from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import {
  BankAccountEntity,
  CodeListEntity,
  CompanyProfileEntity,
  OrdnerEntity,
  PartnerEntity,
  PeriodEntity,
} from '../persistence/entities.js';

export type PartnerRow = InstanceType<typeof PartnerEntity.class>;
export type ProfileRow = InstanceType<typeof CompanyProfileEntity.class>;

export async function companyProfile(em: EntityManager): Promise<ProfileRow> {
  const p = await cachedMasterData(em, 'invoicing:profile', () =>
    em.findOne(CompanyProfileEntity, {}, { disableIdentityMap: true }),
  );
  if (!p) throw unprocessable(ErrorCode.ReferenceNotFound, 'the company has no tax profile');
  return p;
}

/** The ordner by id or code (or the company's default for the type); it must hold `documentType`. */
export const resolveOrdner = ordnerResolver(OrdnerEntity);

export async function resolvePartner(
  em: EntityManager,
  id: string | null | undefined,
): Promise<PartnerRow | null> {
  if (!id) return null;
  const p = await cachedMasterData(em, `invoicing:partner:${id}`, () =>
    em.findOne(PartnerEntity, { id }, { disableIdentityMap: true }),
  );
  if (!p) throw referenceNotFound('partnerId', 'partner');
  return p;
}

/**
 * The accounting period of a document (DESIGN §5 "Period"): `periodId` if given, else the period that
 * contains `date` (the document's dateAccounting). A given `periodId` must contain `date` (422
 * ValidationFailed naming periodId). `operationDate` (warehouse cards' dateOperation), when given, must
 * not lie in a closed period either.
 * @throws 422 PeriodNotFound (unknown id, no period on the date), PeriodClosed, ValidationFailed
 */
export async function resolvePeriodLocal(
  em: EntityManager,
  periodId: string | null | undefined,
  date: string,
  field = 'dateAccounting',
  operationDate?: string | null,
): Promise<Period> {
  // Cached: a period closed meanwhile is still refused, by the share lock and check inside the
  // document's transaction (lockOpenPeriod).
  const p = await cachedMasterData(em, `invoicing:period:${periodId ?? `@${date}`}`, () =>
    periodId
      ? em.findOne(PeriodEntity, { id: periodId }, { disableIdentityMap: true })
      : em.findOne(
          PeriodEntity,
          { dateFrom: { $lte: date }, dateTo: { $gte: date } },
          { disableIdentityMap: true },
        ),
  );
  const path = periodId ? 'periodId' : field;
  if (!p)
    throw unprocessable(
      ErrorCode.PeriodNotFound,
      periodId ? 'the period does not exist' : `no accounting period contains ${date}`,
      { errors: [{ path, message: 'no such period' }] },
    );
  if (periodId && (date < p.dateFrom || date > p.dateTo))
    throw unprocessable(ErrorCode.ValidationFailed, `period ${p.code} does not contain ${field} ${date}`, {
      errors: [
        {
          path: 'periodId',
          message: `period ${p.code} (${p.dateFrom} – ${p.dateTo}) does not contain ${date}`,
        },
      ],
    });
  if (p.closed)
    throw unprocessable(ErrorCode.PeriodClosed, `period ${p.code} is closed`, {
      errors: [{ path, message: `period ${p.code} is closed` }],
    });
  if (operationDate && (operationDate < p.dateFrom || operationDate > p.dateTo)) {
    const op = await em.findOne(PeriodEntity, {
      dateFrom: { $lte: operationDate },
      dateTo: { $gte: operationDate },
    });
    if (op?.closed)
      throw unprocessable(ErrorCode.PeriodClosed, `period ${op.code} is closed`, {
        errors: [{ path: 'dateOperation', message: `period ${op.code} is closed` }],
      });
  }
  return { id: p.id, code: p.code, dateFrom: p.dateFrom, dateTo: p.dateTo, closed: p.closed };
}

/**
 * Inside a document's transaction: takes a share lock on the period (closing takes the exclusive one)
 * and checks again that it is open, so no document lands in a period closed meanwhile.
 * @throws 422 PeriodClosed naming `path`.
 */
export async function lockOpenPeriod(
  tx: EntityManager,
  periodId: string,
  path = 'dateAccounting',
): Promise<void> {
  const p = await tx.findOne(
    PeriodEntity,
    { id: periodId },
    { lockMode: LockMode.PESSIMISTIC_READ, refresh: true },
  );
  if (!p || p.closed)
    throw unprocessable(ErrorCode.PeriodClosed, `period ${p?.code ?? periodId} is closed`, {
      errors: [{ path, message: `period ${p?.code ?? periodId} is closed` }],
    });
}

/** Checks the code-list ids of a document (payment type, delivery type, cost center/unit, person, project). */
export async function checkCodeLists(
  em: EntityManager,
  refs: Record<string, [list: string, id: string | null | undefined]>,
): Promise<void> {
  const wanted = Object.entries(refs).filter(([, [, id]]) => !!id);
  if (!wanted.length) return;
  const found = await em.find(CodeListEntity, { id: { $in: wanted.map(([, [, id]]) => id!) } });
  for (const [path, [list, id]] of wanted) {
    if (!found.some((f) => f.id === id && f.list === list)) throw referenceNotFound(path, list);
  }
}

/** The bank account: the given one, else the company's default (null when it has none). */
export async function resolveBankAccount(
  em: EntityManager,
  id: string | null | undefined,
): Promise<string | null> {
  if (id) {
    const known = await cachedMasterData(em, `invoicing:bank-account:${id}`, async () =>
      (await em.count(BankAccountEntity, { id })) ? true : null,
    );
    if (!known) throw referenceNotFound('bankAccountId', 'bank account');
    return id;
  }
  const byDefault = await cachedMasterData(em, 'invoicing:bank-account:default', async () => ({
    id: (await em.findOne(BankAccountEntity, { isDefault: true }, { disableIdentityMap: true }))?.id ?? null,
  }));
  return byDefault.id;
}

/** The warehouse by id or code, from the warehouse service. */
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

/**
 * SQL conditions of an invoice list (DESIGN §6 "filters are extensions"): the company, `dateCreated` from
 * `dateFrom` to `dateTo` (inclusive) and the partner. `alias` prefixes the columns (`i.` or none).
 */
export function invoiceListFilter(
  companyId: string,
  q: { dateFrom?: string; dateTo?: string; partnerId?: string },
  alias = '',
): { where: string[]; params: unknown[] } {
  const where = [`${alias}"company_id" = ?`];
  const params: unknown[] = [companyId];
  const add = (sql: string, value: unknown) => {
    where.push(`${alias}${sql}`);
    params.push(value);
  };
  if (q.dateFrom) add('"date_created" >= ?', q.dateFrom);
  if (q.dateTo) add('"date_created" <= ?', q.dateTo);
  if (q.partnerId) add('"partner_id" = ?', q.partnerId);
  return { where, params };
}
