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
 * Where this process last left each counter (`schema|ordner|counter year` → last value), to predict a
 * group's candidates ({@link takeRecordNumbersBatch}). Only a prediction: a wrong one costs a statement.
 */
const lastSeen = new Map<string, number>();
const MAX_SEEN_COUNTERS = 50_000;
function remember(key: string, value: number): void {
  if (lastSeen.size >= MAX_SEEN_COUNTERS && !lastSeen.has(key)) lastSeen.clear();
  lastSeen.set(key, value);
}

/** One ordner's share of a group's numbering: `n` numbers of `year` for documents of `table`. */
export interface NumberRequest {
  schema: string;
  /** The documents' table, e.g. `"warehouse"."issue_card"`. */
  table: string;
  companyId: string;
  ordner: { id: string; numberFormat: string };
  year: number;
  n: number;
}

/**
 * Record numbers for the requests of a group commit, in one round trip for any number of ordners and
 * companies (issue #24; DESIGN §5 "Record numbers"): one statement advances the counter row of every
 * (ordner, counter year), locking them in a sorted order, and finds which candidates documents already
 * use (numbers given by hand), which are skipped and made up for by another round (rare). The candidates
 * are predicted from where this process last left each counter ({@link lastSeen}) and looked up in the
 * same statement; a counter whose prediction proves wrong (another replica numbered meanwhile, a rolled
 * back group, the first group after start) has its candidates looked up in one more statement, as
 * before. Requests must share `schema` and `table`. Returns each request's numbers, consecutive per
 * counter in the requests' order.
 */
export async function takeRecordNumbersBatch(
  em: EntityManager,
  requests: NumberRequest[],
): Promise<string[][]> {
  const out = requests.map(() => [] as string[]);
  if (!requests.length) return out;
  const { schema, table } = requests[0];
  let open = requests.map((_, i) => i);
  while (open.length) {
    // Requests sharing a counter row (one ordner, or years of a format without a year) share one row.
    const counters = new Map<string, { companyId: string; ordnerId: string; key: number; parts: number[] }>();
    for (const i of open) {
      const r = requests[i];
      const key = restartsYearly(r.ordner.numberFormat) ? r.year : 0;
      const id = `${r.ordner.id}:${key}`;
      const c = counters.get(id) ?? { companyId: r.companyId, ordnerId: r.ordner.id, key, parts: [] };
      c.parts.push(i);
      counters.set(id, c);
    }
    const sorted = [...counters.values()].sort((a, b) =>
      a.ordnerId < b.ordnerId ? -1 : a.ordnerId > b.ordnerId ? 1 : a.key - b.key,
    );
    const want = (i: number) => requests[i].n - out[i].length;
    const total = (c: (typeof sorted)[number]) => c.parts.reduce((n, i) => n + want(i), 0);
    const seenKey = (c: (typeof sorted)[number]) => `${schema}|${c.ordnerId}|${c.key}`;
    /** Each request's candidates if its counter starts after `from` (per counter, in the parts' order). */
    const candidatesFrom = (c: (typeof sorted)[number], from: number, into: Map<number, string[]>) => {
      let next = from;
      for (const i of c.parts) {
        const r = requests[i];
        into.set(
          i,
          Array.from({ length: want(i) }, () => formatRecordNumber(r.ordner.numberFormat, r.year, next++)),
        );
      }
    };
    const predicted = new Map<number, string[]>();
    for (const c of sorted) {
      const seen = lastSeen.get(seenKey(c));
      if (seen !== undefined) candidatesFrom(c, seen + 1, predicted);
    }
    const ask = [...predicted].flatMap(([i, cs]) => cs.map((x) => [requests[i].companyId, x] as const));
    const rows = await execBound<{ k: 'c' | 'h'; a: string; b: string; v: string | null }>(
      em,
      `with u as (select * from unnest(?::uuid[], ?::uuid[], ?::int[], ?::int[]) with ordinality as u("c", "o", "y", "w", "n")),
       c as (
         insert into "${schema}"."ordner_counter" ("company_id", "ordner_id", "year", "last_value")
         select u."c", u."o", u."y", u."w" + case when u."y" = 0
                  then coalesce((select max(t."last_value") from "${schema}"."ordner_counter" t where t."ordner_id" = u."o"), 0)
                  else 0 end
           from u order by u."n"
         on conflict ("ordner_id", "year") do update
           set "last_value" = "ordner_counter"."last_value" + (select u."w" from u where u."o" = excluded."ordner_id" and u."y" = excluded."year")
         returning "ordner_id", "year", "last_value"),
       h as (select "company_id", "record_number" from ${table}
              where ("company_id", "record_number") in (select * from unnest(?::uuid[], ?::text[])))
       select 'c' as "k", c."ordner_id"::text as "a", c."year"::text as "b", c."last_value"::text as "v" from c
       union all select 'h', h."company_id"::text, h."record_number", null from h`,
      [
        pgArray(sorted.map((c) => c.companyId)),
        pgArray(sorted.map((c) => c.ordnerId)),
        pgArray(sorted.map((c) => c.key)),
        pgArray(sorted.map(total)),
        pgArray(ask.map((x) => x[0])),
        pgArray(ask.map((x) => x[1])),
      ],
    );
    const last = new Map(rows.filter((r) => r.k === 'c').map((r) => [`${r.a}:${r.b}`, Number(r.v)]));
    const taken = new Set(rows.filter((r) => r.k === 'h').map((r) => `${r.a}:${r.b}`));
    const candidates = new Map<number, string[]>();
    const unchecked: (readonly [string, string])[] = [];
    for (const c of sorted) {
      const end = last.get(`${c.ordnerId}:${c.key}`)!;
      const start = end - total(c) + 1;
      const right = lastSeen.get(seenKey(c)) === start - 1;
      candidatesFrom(c, start, candidates);
      if (!right)
        for (const i of c.parts)
          for (const x of candidates.get(i)!) unchecked.push([requests[i].companyId, x]);
      remember(seenKey(c), end);
    }
    if (unchecked.length) {
      const used = await execBound<{ company_id: string; record_number: string }>(
        em,
        `select "company_id", "record_number" from ${table}
          where ("company_id", "record_number") in (select * from unnest(?::uuid[], ?::text[]))`,
        [pgArray(unchecked.map((a) => a[0])), pgArray(unchecked.map((a) => a[1]))],
      );
      for (const u of used) taken.add(`${u.company_id}:${u.record_number}`);
    }
    for (const [i, cs] of candidates)
      out[i].push(...cs.filter((c) => !taken.has(`${requests[i].companyId}:${c}`)));
    open = open.filter((i) => out[i].length < requests[i].n);
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
