/**
 * What every document-owning service keeps the same way, each in its own schema (DESIGN §1: no shared
 * tables): ordners and their counters, accounting entries, the outbox; plus the duplicate-record-number
 * rule and the accounting-entry reply shape.
 */

import type { AccountingEntry } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, referenceNotFound, unprocessable } from '@bm/errors';
import { currentTraceparent } from '@bm/telemetry';
import { defineEntity, type EntityManager, type EntityName, p } from '@mikro-orm/postgresql';
import { cachedMasterData } from './master-data-cache.js';
import { companyFilter } from './orm.js';

/** The columns every tenant-owned entity starts with: `id` (GUID) and `companyId` (DESIGN §3). */
export const tenantColumns = () => ({ id: p.uuid().primary(), companyId: p.uuid() });

/** Ordner (folder of documents with its own record-number counter), DESIGN §4. */
export const ordnerEntity = (schema: string) =>
  defineEntity({
    name: 'Ordner',
    tableName: 'ordner',
    schema,
    filters: companyFilter,
    properties: {
      ...tenantColumns(),
      code: p.string().length(20),
      name: p.string(),
      documentType: p.string().length(20),
      numberFormat: p.string().length(50),
      reportId: p.uuid().nullable(),
      /** The company's default ordner of its document type: exactly one per type (DESIGN §5 "Copy"). */
      isDefault: p.boolean(),
    },
    uniques: [{ properties: ['companyId', 'code'] }],
    indexes: [
      {
        name: 'ordner_default_unique',
        expression: `create unique index "ordner_default_unique" on "${schema}"."ordner" ("company_id", "document_type") where "is_default"`,
      },
    ],
  });

type OrdnerEntity = ReturnType<typeof ordnerEntity>;
export type OrdnerRow = InstanceType<OrdnerEntity['class']>;

/** {@link resolveOrdner} bound to one service's ordner entity. */
export const ordnerResolver =
  (entity: OrdnerEntity) =>
  (em: EntityManager, id: string | null | undefined, code: string | undefined, documentType: string) =>
    resolveOrdner(em, entity, id, code, documentType);

/**
 * The ordner a document goes to (DESIGN §4): by `id`, else by `code`, else the company's default for the
 * document type (the lowest code). 422 ReferenceNotFound naming `ordnerId`/`ordnerCode` when there is none
 * or it holds another document type.
 */
export async function resolveOrdner(
  em: EntityManager,
  entity: OrdnerEntity,
  id: string | null | undefined,
  code: string | undefined,
  documentType: string,
): Promise<OrdnerRow> {
  const path = id ? 'ordnerId' : 'ordnerCode';
  const schema = em.getMetadata().get(entity as any).schema;
  const o = await cachedMasterData(em, `${schema}:ordner:${id ?? ''}:${code ?? ''}:${documentType}`, () =>
    id || code
      ? em.findOne(entity, id ? { id } : { code: code! }, { disableIdentityMap: true })
      : em.findOne(entity, { documentType, isDefault: true }, { disableIdentityMap: true }),
  );
  if (!o) {
    if (id || code) throw referenceNotFound(path, 'ordner');
    throw unprocessable(ErrorCode.ReferenceNotFound, `the company has no ${documentType} ordner`);
  }
  if (o.documentType !== documentType) {
    throw unprocessable(
      ErrorCode.ReferenceNotFound,
      `ordner ${o.code} holds ${o.documentType} documents, not ${documentType}`,
      { errors: [{ path, message: `not a ${documentType} ordner` }] },
    );
  }
  return o as OrdnerRow;
}

/**
 * The default-ordner rule of the ordner endpoints (DESIGN §5): one explicit default per document type,
 * set by seeding and changed only by `PUT … {isDefault: true}` (the previous default of that type is
 * cleared in the same transaction). Creating an ordner never changes the default (it becomes one only
 * when its type has none); `isDefault: false` on the default is 409 InvalidState (make another one the
 * default instead), and so is moving the default to another document type.
 */
export function defaultOrdnerRule(entity: OrdnerEntity) {
  return {
    /** The stored flag: kept or set on update, decided by the type's current default on create. */
    async isDefault(
      em: EntityManager,
      documentType: string,
      wanted: boolean | undefined,
      existing?: OrdnerRow,
    ) {
      if (existing) return wanted ?? existing.isDefault;
      return !(await em.count(entity, { documentType, isDefault: true }));
    },
    /** In the update's transaction: refuses dropping the default; clears the type's other default. */
    async beforeStore(
      em: EntityManager,
      data: { isDefault?: boolean; documentType?: string },
      existing?: OrdnerRow,
    ) {
      if (!existing) return;
      if (existing.isDefault && (!data.isDefault || data.documentType !== existing.documentType))
        throw new AppError(
          ErrorKind.conflict,
          ErrorCode.InvalidState,
          `ordner ${existing.code} is the default ${existing.documentType} ordner: make another one the default first`,
          { errors: [{ path: 'isDefault', message: 'the default ordner of its document type' }] },
        );
      if (data.isDefault && !existing.isDefault)
        await em.nativeUpdate(
          entity,
          { documentType: data.documentType, isDefault: true, id: { $ne: existing.id } },
          { isDefault: false },
        );
    },
  };
}

/** Gapless record-number counter per ordner and year (DESIGN §5 "Record numbers"). */
export const ordnerCounterEntity = (schema: string) =>
  defineEntity({
    name: 'OrdnerCounter',
    tableName: 'ordner_counter',
    schema,
    filters: companyFilter,
    properties: {
      companyId: p.uuid(),
      ordnerId: p.uuid().primary(),
      year: p.integer().primary(),
      lastValue: p.integer(),
    },
  });

/** Accounting entries of documents (DESIGN §5 "Accounted warehouse", §6). */
export const accountingEntryEntity = (schema: string) =>
  defineEntity({
    name: 'AccountingEntry',
    tableName: 'accounting_entry',
    schema,
    filters: companyFilter,
    properties: {
      ...tenantColumns(),
      documentId: p.uuid().index(),
      lineNo: p.integer(),
      debitAccount: p.string().length(20),
      creditAccount: p.string().length(20),
      amount: p.decimal('string').precision(18).scale(2),
      description: p.string(),
    },
  });

/** Transactional outbox (DESIGN §1 "Events"), read by the relay of `outbox.ts`. */
export const outboxEntity = (schema: string) =>
  defineEntity({
    name: 'OutboxEvent',
    tableName: 'outbox',
    schema,
    properties: {
      ...tenantColumns(),
      subject: p.string(),
      payload: p.json(),
      createdAt: p.datetime(),
      publishedAt: p.datetime().nullable(),
      /** Failed publish attempts of this event (issue #12): the relay tries the least-tried first. */
      attempts: p.integer().default(0),
      /** Why the last publish failed. */
      lastError: p.text().nullable(),
      /** W3C `traceparent` of the request that wrote it (issue #25): the event's consumers join its trace. */
      traceParent: p.string().length(55).nullable(),
      /** Until when a relay holds the event while publishing it (issue #24); another relay takes it over after. */
      claimedUntil: p.datetime().nullable(),
    },
    indexes: [
      {
        name: 'outbox_unpublished_index',
        expression: `create index "outbox_unpublished_index" on "${schema}"."outbox" ("created_at") where "published_at" is null`,
      },
    ],
  });

/** Stored accounting entries in their reply shape, in line order. */
export const entryDtos = (rows: (AccountingEntry & { lineNo: number })[]): AccountingEntry[] =>
  [...rows]
    .sort((a, b) => a.lineNo - b.lineNo)
    .map((e) => ({
      debitAccount: e.debitAccount,
      creditAccount: e.creditAccount,
      amount: e.amount,
      description: e.description,
    }));

type Creatable = { create(entity: any, data: any): any };

/**
 * A document's accounting entries as stored rows (plain data, numbered from `firstLine`): what
 * {@link addEntries} creates, and what a document's write set hands the group commit's insert.
 */
export const entryRows = (companyId: string, documentId: string, entries: AccountingEntry[], firstLine = 1) =>
  entries.map((e, i) => ({ id: crypto.randomUUID(), companyId, documentId, lineNo: firstLine + i, ...e }));

/** Stores a document's accounting entries, numbered from `firstLine`; returns the rows. */
export function addEntries<R extends object>(
  em: Creatable,
  entity: EntityName<R>,
  companyId: string,
  documentId: string,
  entries: AccountingEntry[],
  firstLine = 1,
): R[] {
  return entryRows(companyId, documentId, entries, firstLine).map((row) => em.create(entity, row));
}

/** The outbox row of an event: what {@link enqueueEvent} creates, and what `insertAll` inserts. */
export const outboxRow = (companyId: string, subject: string, event: { eventId: string }) => ({
  id: event.eventId,
  companyId,
  subject,
  payload: event,
  createdAt: new Date(),
  publishedAt: null,
  attempts: 0,
  traceParent: currentTraceparent() ?? null,
});

/** Writes an event to the outbox in the current transaction (DESIGN §1 "Events"); the relay publishes it. */
export function enqueueEvent(
  em: Creatable,
  outbox: any,
  companyId: string,
  subject: string,
  event: { eventId: string },
): void {
  em.create(outbox, outboxRow(companyId, subject, event));
}
