/**
 * Record numbers (DESIGN §5 "Record numbers"; the same rule for invoices, §6): generated from an
 * ordner's counter per year of the document's date, gapless and safe under concurrency because the
 * counter row stays locked until the document's transaction ends and rolls back with it. Numbers are
 * taken by record-numbers-batch.ts (a group's, with its `begin`); this module formats them and checks
 * a number given by hand.
 */

import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from './bound-query.js';
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
