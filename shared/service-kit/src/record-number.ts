/**
 * Record numbers (DESIGN §5 "Record numbers"; the same rule for invoices, §6): generated from an
 * ordner's counter per year of the document's date, gapless and safe under concurrency because the
 * counter row stays locked until the document's transaction ends and rolls back with it. Numbers are
 * taken by record-numbers-batch.ts (a group's, or one document's); this module formats them and checks
 * a number given by hand.
 */

import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from './bound-query.js';
import { takeRecordNumbersBatch } from './record-numbers-batch.js';
import { pgArray } from './set-insert.js';

export { formatRecordNumber, restartsYearly } from './record-number-format.js';

/**
 * Which of `candidates` documents of `table` (e.g. `"warehouse"."issue_card"`) of the company already
 * use as their record number: one query (a given number's check).
 */
export async function usedRecordNumbers(
  em: EntityManager,
  table: string,
  companyId: string,
  candidates: string[],
  exceptId?: string,
): Promise<Set<string>> {
  const rows = await execBound<{ record_number: string }>(
    em,
    `select "record_number" from ${table} where "company_id" = ? and "record_number" = any(?::text[])${exceptId ? ` and "id" <> ?` : ''}`,
    exceptId ? [companyId, pgArray(candidates), exceptId] : [companyId, pgArray(candidates)],
  );
  return new Set(rows.map((r) => r.record_number));
}

/**
 * The one check of a record number given by the client (INTERFACE §7, DESIGN §5): 409
 * DuplicateRecordNumber when another document of `table` (e.g. `"warehouse"."issue_card"`) of the company
 * uses it; `exceptId` is the document being updated. Nothing to check without a number. The unique index
 * guards the race behind this check.
 */
export async function checkGivenRecordNumber(
  em: EntityManager,
  table: string,
  companyId: string,
  given: string | null | undefined,
  exceptId?: string,
): Promise<void> {
  if (!given) return;
  if ((await usedRecordNumbers(em, table, companyId, [given], exceptId)).size)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.DuplicateRecordNumber,
      `record number ${given} is already used`,
      {
        errors: [{ path: 'recordNumber', message: 'already used' }],
      },
    );
}

export interface RecordNumbering {
  /** 409 DuplicateRecordNumber when a number given by the client is used by another document. */
  check(): Promise<void>;
  /**
   * Flushes what the transaction holds so far, then returns the given number or the next one from the
   * counter. Call it last: the counter row stays locked from here to the commit.
   */
  assign(): Promise<string>;
}

/**
 * The record-number rule of one document (DESIGN §5 "Record numbers", the same for invoices): a given
 * number is kept (and must be free), an empty one on update keeps `stored`, else the ordner's counter
 * for the year of the document's date gives the next free number.
 */
export function recordNumbering(
  em: EntityManager,
  o: {
    schema: string;
    /** The documents' table, e.g. `"invoicing"."sales_invoice"`. */
    table: string;
    companyId: string;
    ordner: { id: string; numberFormat: string };
    /** `YYYY-MM-DD` of the date that decides the year (dateOperation of cards, dateCreated of invoices). */
    date: string;
    given: string | null | undefined;
    /** The number a document being updated already has, and its id. */
    stored?: string;
    id?: string;
  },
): RecordNumbering {
  const given = o.given?.trim() || o.stored;
  return {
    check: () =>
      checkGivenRecordNumber(em, o.table, o.companyId, given && given !== o.stored ? given : undefined, o.id),
    assign: async () => {
      await em.flush();
      if (given) return given;
      // The one numbering of the write path (record-numbers-batch.ts), for one document.
      const [[n]] = await takeRecordNumbersBatch(em, [
        {
          schema: o.schema,
          table: o.table,
          companyId: o.companyId,
          ordner: o.ordner,
          year: Number(o.date.slice(0, 4)),
          n: 1,
        },
      ]);
      return n;
    },
  };
}
