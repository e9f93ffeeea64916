/**
 * Record numbers of a whole group commit at once (issue #24; DESIGN §5 "Record numbers"): see
 * {@link takeRecordNumbersBatch}. The one-document variants are record-number.ts.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from './bound-query.js';
import { formatRecordNumber, restartsYearly } from './record-number.js';
import { pgArray } from './set-insert.js';

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

/** Which of the (company, record number) pairs of two array parameters documents of `table` use. */
const usedAmong = (table: string) =>
  `select "company_id", "record_number" from ${table}
    where ("company_id", "record_number") in (select * from unnest(?::uuid[], ?::text[]))`;

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
    /**
     * Where each counter's prediction starts. Checked against the counter's answer, not against
     * {@link lastSeen} then: another transaction of this process numbering the same counter meanwhile
     * (a group of another key, or of `GROUP_COMMIT_PARALLEL` > 1) moves the mark while this statement
     * waits for its row, and its end is exactly where this one's numbers start.
     */
    const predictedStart = new Map<string, number>();
    for (const c of sorted) {
      const seen = lastSeen.get(seenKey(c));
      if (seen === undefined) continue;
      candidatesFrom(c, seen + 1, predicted);
      predictedStart.set(seenKey(c), seen + 1);
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
       h as (${usedAmong(table)})
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
      if (predictedStart.get(seenKey(c)) === start)
        // Predicted right: its candidates were looked up with the counter.
        for (const i of c.parts) candidates.set(i, predicted.get(i)!);
      else {
        candidatesFrom(c, start, candidates);
        for (const i of c.parts)
          for (const x of candidates.get(i)!) unchecked.push([requests[i].companyId, x]);
      }
      remember(seenKey(c), end);
    }
    if (unchecked.length) {
      const used = await execBound<{ company_id: string; record_number: string }>(em, usedAmong(table), [
        pgArray(unchecked.map((a) => a[0])),
        pgArray(unchecked.map((a) => a[1])),
      ]);
      for (const u of used) taken.add(`${u.company_id}:${u.record_number}`);
    }
    for (const [i, cs] of candidates)
      out[i].push(...cs.filter((c) => !taken.has(`${requests[i].companyId}:${c}`)));
    open = open.filter((i) => out[i].length < requests[i].n);
  }
  return out;
}
