/**
 * Record numbers (DESIGN §5 "Record numbers"; the same rule for invoices, §6): generated from an
 * ordner's counter per year of the document's date, gapless and safe under concurrency because the
 * counter row stays locked until the document's transaction ends and rolls back with it.
 */

import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from './bound-query.js';
import { pgArray } from './set-insert.js';

/**
 * Formats record number `seq` of `year` with an ordner's format: `{yyyy}`, `{yy}` and one `{seq}` /
 * `{seq:N}` (zero-padded to N). `formatRecordNumber('VY{yyyy}{seq:5}', 2025, 7)` → `VY202500007`.
 */
export function formatRecordNumber(format: string, year: number, seq: number): string {
  return format
    .replace(/\{yyyy\}/g, String(year).padStart(4, '0'))
    .replace(/\{yy\}/g, String(year % 100).padStart(2, '0'))
    .replace(/\{seq(?::(\d{1,2}))?\}/g, (_m, width?: string) =>
      String(seq).padStart(width ? Number(width) : 1, '0'),
    );
}

/** Whether a number format restarts every year (it shows the year); a year-less one runs on for ever. */
export const restartsYearly = (format: string) => /\{yy(yy)?\}/.test(format);

/**
 * Takes the next record number of an ordner for `year` from `<schema>.ordner_counter`. A format with
 * `{yyyy}`/`{yy}` counts per year; a year-less format (`OF{seq:6}`) has one counter (stored under year 0),
 * which starts where the ordner's per-year counters of earlier versions ended, so a new year never walks
 * the numbers already used. A number that a client already used by hand (`exists`) is skipped. Call it as
 * late as possible in the transaction: documents of the same ordner wait for each other from here to the
 * commit.
 */
export async function takeRecordNumber(
  em: EntityManager,
  schema: string,
  companyId: string,
  ordner: { id: string; numberFormat: string },
  year: number,
  exists: (n: string) => Promise<boolean>,
): Promise<string> {
  const [n] = await takeRecordNumbers(em, schema, companyId, ordner, year, 1, async ([candidate]) =>
    (await exists(candidate)) ? new Set([candidate]) : new Set(),
  );
  return n;
}

/**
 * Takes the next `n` record numbers of an ordner for `year` at once (group commit, issue #13): one
 * counter statement and one look-up of numbers already used by hand (`used` returns those of the
 * candidates that exist), repeated only when some were used. The numbers are consecutive apart from those
 * skipped because a client used them. Same counter and rules as {@link takeRecordNumber}; the counter row
 * stays locked until the transaction ends.
 */
export async function takeRecordNumbers(
  em: EntityManager,
  schema: string,
  companyId: string,
  ordner: { id: string; numberFormat: string },
  year: number,
  n: number,
  used: (candidates: string[]) => Promise<Set<string>>,
): Promise<string[]> {
  const key = restartsYearly(ordner.numberFormat) ? year : 0;
  const out: string[] = [];
  while (out.length < n) {
    const want = n - out.length;
    const first =
      key === 0
        ? `? + coalesce((select max("last_value") from "${schema}"."ordner_counter" where "ordner_id" = ?), 0)`
        : '?';
    const params =
      key === 0
        ? [companyId, ordner.id, key, want, ordner.id, want]
        : [companyId, ordner.id, key, want, want];
    const [row] = await execBound<{ last_value: number }>(
      em,
      `insert into "${schema}"."ordner_counter" ("company_id", "ordner_id", "year", "last_value") values (?, ?, ?, ${first})
       on conflict ("ordner_id", "year") do update set "last_value" = "ordner_counter"."last_value" + ?
       returning "last_value"`,
      params,
    );
    const last = Number(row.last_value);
    const candidates = Array.from({ length: want }, (_, i) =>
      formatRecordNumber(ordner.numberFormat, year, last - want + 1 + i),
    );
    const taken = await used(candidates);
    out.push(...candidates.filter((c) => !taken.has(c)));
  }
  return out;
}

/**
 * Which of `candidates` documents of `table` (e.g. `"warehouse"."issue_card"`) of the company already
 * use as their record number: one query, for {@link takeRecordNumbers}.
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
      return (
        given ||
        takeRecordNumber(
          em,
          o.schema,
          o.companyId,
          o.ordner,
          Number(o.date.slice(0, 4)),
          async (n) => (await usedRecordNumbers(em, o.table, o.companyId, [n])).size > 0,
        )
      );
    },
  };
}
