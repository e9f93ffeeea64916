/**
 * References of invoices (DESIGN §2: an unknown id or code, or another company's, is 422
 * ReferenceNotFound): local master data of invoicing, and warehouses, items and units asked from the
 * warehouse service over NATS in one request each.
 */

import type { Period } from '@bm/contracts';
import { ErrorCode, referenceNotFound, unprocessable } from '@bm/errors';
import {
  cachedMasterData,
  type DocumentTx,
  type EntityManager,
  ordnerResolver,
  pgArray,
  type StateRead,
} from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import { paymentStatusSql } from '../payment-rules/index.js';
import {
  BankAccountEntity,
  CodeListEntity,
  CompanyProfileEntity,
  OrdnerEntity,
  PartnerEntity,
  PeriodEntity,
} from '../schema/entities.js';

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
  if (!p || p.closed) throw periodClosed(p?.code ?? periodId, path);
}

/** 422 PeriodClosed for period `code`, naming `path`. */
export const periodClosed = (code: string, path = 'dateAccounting') =>
  unprocessable(ErrorCode.PeriodClosed, `period ${code} is closed`, {
    errors: [{ path, message: `period ${code} is closed` }],
  });

/** What a new invoice declares to its group commit (`info`): its company and period. */
export interface InvoicePeriodInfo {
  kind: 'invoice-period';
  companyId: string;
  periodId: string;
}
export const isInvoicePeriod = (p: unknown): p is InvoicePeriodInfo =>
  (p as InvoicePeriodInfo)?.kind === 'invoice-period';

/**
 * {@link lockOpenPeriod} for the invoices of a whole group commit (issue #24), sent with the group's
 * `begin` (service-kit `StateRead`): one statement share-locks their periods (in the order of their ids)
 * and returns each one's code and state; each invoice gets its own period's (undefined: it does not
 * exist for its company).
 */
export const invoicePeriodsRead: StateRead<InvoicePeriodInfo, { code: string; closed: boolean } | undefined> =
  {
    key: 'periods',
    statements: (invoices) => {
      const ids = [...new Map(invoices.map((p) => [p.periodId, p])).values()];
      if (!ids.length) return [];
      return [
        {
          sql: `select "id", "code", "closed" from "invoicing"."period"
               where ("company_id", "id") in (select * from unnest(?::uuid[], ?::uuid[]))
               order by "id" for share`,
          params: [pgArray(ids.map((p) => p.companyId)), pgArray(ids.map((p) => p.periodId))],
        },
      ];
    },
    states: ([rows = []], _tx, invoices) => {
      const byId = new Map(
        (rows as { id: string; code: string; closed: boolean }[]).map((r) => [
          r.id,
          { code: r.code, closed: r.closed },
        ]),
      );
      return invoices.map((p) => byId.get(p.periodId));
    },
  };

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

/**
 * SQL conditions of an invoice list (DESIGN §6 "filters are extensions"): the company, `dateCreated` from
 * `dateFrom` to `dateTo` (inclusive) and the partner. `alias` prefixes the columns (`i.` or none).
 */
export function invoiceListFilter(
  companyId: string,
  q: { dateFrom?: string; dateTo?: string; partnerId?: string; paymentStatus?: string; overdue?: boolean },
  alias = '',
  today = '9999-12-31',
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
  // Issue #45: the payment status by all payments (payment-rules/payment-status.ts), and overdue.
  const paid = `(select coalesce(sum(x."amount"), 0) from "invoicing"."payment" x where x."company_id" = ${alias}"company_id" and x."invoice_id" = ${alias}"id")`;
  const status = paymentStatusSql(`${alias}"sum_total"`, paid);
  if (q.paymentStatus) {
    where.push(`${status} = ?`);
    params.push(q.paymentStatus);
  }
  if (q.overdue) {
    where.push(`${alias}"date_valid_to" < ? and ${status} in ('unpaid', 'partlyPaid')`);
    params.push(today);
  }
  return { where, params };
}

/**
 * Share-locks an invoice's period for its transaction: stored as a document kind (`doc`, which declared
 * {@link invoicePeriodsRead}), with the periods of all its group's invoices at once; else this one
 * ({@link lockOpenPeriod}).
 * @throws 422 PeriodClosed naming `path` when the period is closed (or not the company's)
 */
export async function lockInvoicePeriod(
  tx: EntityManager,
  doc: DocumentTx | undefined,
  periodId: string,
  path: string,
): Promise<void> {
  if (!doc) return lockOpenPeriod(tx, periodId, path);
  const locked = await doc.state(invoicePeriodsRead);
  if (!locked || locked.closed) throw periodClosed(locked?.code ?? periodId, path);
}
