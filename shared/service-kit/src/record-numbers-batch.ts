/**
 * Record numbers of a whole group commit at once (issue #24; DESIGN §5 "Record numbers"): reserved with
 * the group's `begin` and settled after its documents' work ({@link reserveNumbers}), or taken in one go
 * ({@link takeRecordNumbersBatch}). The one-document variants are record-number.ts.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from './bound-query.js';
import { formatRecordNumber, restartsYearly } from './record-number-format.js';
import { pgArray, type Statement } from './set-insert.js';

/**
 * Where this process last left each counter (`schema|ordner|counter year` → last value), to predict a
 * group's candidates ({@link reserveNumbers}). Only a prediction: a wrong one costs a statement.
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

/** One counter row (an ordner and its counter year) of a reservation, with the requests it numbers. */
interface Counter {
  companyId: string;
  ordnerId: string;
  key: number;
  /** Indexes of its requests, in the requests' order. */
  parts: number[];
}

/**
 * Record numbers reserved for a group commit at its start (issue #24; DESIGN §5 "Record numbers"): see
 * {@link reserveNumbers}.
 */
export interface NumberReservation {
  /**
   * The statement that advances the counter row of every (ordner, counter year) of the requests by
   * their `n` (locking the rows, in a sorted order, until the transaction ends) and finds which of the
   * predicted candidates documents already use (numbers given by hand).
   */
  statement: Statement;
  /**
   * After the documents' work, from the statement's rows: for each request the numbers of its first
   * `used[i]` documents, consecutive per counter in the requests' order, numbers used by hand skipped;
   * and the statement (for the group's last write) that gives back what was reserved and not used, or
   * takes more when hand-used numbers were skipped. Looks up candidates the prediction missed (one
   * statement, rare).
   */
  settle(
    em: EntityManager,
    rows: unknown[],
    used: readonly number[],
  ): Promise<{ numbers: string[][]; counters?: Statement }>;
}

/**
 * Reserves the record numbers of a group commit's requests in one statement, for any number of ordners
 * and companies, at the start of the group (issue #24; DESIGN §5 "Record numbers"): the counters
 * advance by every request's `n` at once and stay locked until the commit; once the documents' work is
 * done, {@link NumberReservation.settle} numbers the documents that were not refused, consecutively, and
 * the group's last statement sets each counter to the last number used, so the numbers stay gapless.
 * The candidates are predicted from where this process last left each counter ({@link lastSeen}) and
 * looked up in the same statement; a counter whose prediction proves wrong (another replica numbered
 * meanwhile, a rolled back group, the first group after start) has its candidates looked up when
 * settling. Requests must share `schema` and `table`.
 */
export function reserveNumbers(requests: NumberRequest[]): NumberReservation {
  return new Reservation(requests);
}

/** The counters of `requests` (requests sharing an ordner and counter year share one), in lock order. */
function countersOf(requests: NumberRequest[]): Counter[] {
  const counters = new Map<string, Counter>();
  for (const [i, r] of requests.entries()) {
    const key = restartsYearly(r.ordner.numberFormat) ? r.year : 0;
    const id = `${r.ordner.id}:${key}`;
    const c = counters.get(id) ?? { companyId: r.companyId, ordnerId: r.ordner.id, key, parts: [] };
    c.parts.push(i);
    counters.set(id, c);
  }
  return [...counters.values()].sort((a, b) =>
    a.ordnerId < b.ordnerId ? -1 : a.ordnerId > b.ordnerId ? 1 : a.key - b.key,
  );
}

/** The reservation of {@link reserveNumbers}: its statement, then its settlement. */
class Reservation implements NumberReservation {
  private readonly schema: string;
  private readonly table: string;
  private readonly sorted: Counter[];
  /**
   * Where each counter's prediction starts. Checked against the counter's answer, not against
   * {@link lastSeen} then: another transaction of this process numbering the same counter meanwhile
   * moves the mark while this statement waits for its row, and its end is exactly where this one's
   * numbers start.
   */
  private readonly predictedStart = new Map<Counter, number>();
  readonly statement: Statement;

  constructor(private readonly requests: NumberRequest[]) {
    ({ schema: this.schema, table: this.table } = requests[0]);
    this.sorted = countersOf(requests);
    const ask: [string, string][] = [];
    for (const c of this.sorted) {
      const seen = lastSeen.get(this.seenKey(c));
      if (seen === undefined) continue;
      this.predictedStart.set(c, seen + 1);
      for (let k = 0; k < this.total(c); k++) ask.push([c.companyId, this.candidate(c, seen + 1 + k)]);
    }
    this.statement = this.reserveStatement(ask);
  }

  private total(c: Counter): number {
    return c.parts.reduce((n, i) => n + this.requests[i].n, 0);
  }

  private seenKey(c: Counter): string {
    return `${this.schema}|${c.ordnerId}|${c.key}`;
  }

  /** The candidate of sequence value `seq` for a counter (its requests share the ordner's format). */
  private candidate(c: Counter, seq: number): string {
    const r = this.requests[c.parts[0]];
    return formatRecordNumber(r.ordner.numberFormat, r.year, seq);
  }

  /** Advances every counter by its requests' total and finds which of the `ask` candidates are used. */
  private reserveStatement(ask: [string, string][]): Statement {
    const s = this.schema;
    return {
      sql: `with u as (select * from unnest(?::uuid[], ?::uuid[], ?::int[], ?::int[]) with ordinality as u("c", "o", "y", "w", "n")),
       c as (
         insert into "${s}"."ordner_counter" ("company_id", "ordner_id", "year", "last_value")
         select u."c", u."o", u."y", u."w" + case when u."y" = 0
                  then coalesce((select max(t."last_value") from "${s}"."ordner_counter" t where t."ordner_id" = u."o"), 0)
                  else 0 end
           from u order by u."n"
         on conflict ("ordner_id", "year") do update
           set "last_value" = "ordner_counter"."last_value" + (select u."w" from u where u."o" = excluded."ordner_id" and u."y" = excluded."year")
         returning "ordner_id", "year", "last_value"),
       h as (${usedAmong(this.table)})
       select 'c' as "k", c."ordner_id"::text as "a", c."year"::text as "b", c."last_value"::text as "v" from c
       union all select 'h', h."company_id"::text, h."record_number", null from h`,
      params: [
        pgArray(this.sorted.map((c) => c.companyId)),
        pgArray(this.sorted.map((c) => c.ordnerId)),
        pgArray(this.sorted.map((c) => c.key)),
        pgArray(this.sorted.map((c) => this.total(c))),
        pgArray(ask.map((x) => x[0])),
        pgArray(ask.map((x) => x[1])),
      ],
    };
  }

  async settle(em: EntityManager, rows: unknown[], used: readonly number[]) {
    const answer = rows as { k: 'c' | 'h'; a: string; b: string; v: string | null }[];
    const last = new Map(answer.filter((r) => r.k === 'c').map((r) => [`${r.a}:${r.b}`, Number(r.v)]));
    const byHand = new UsedNumbers(
      em,
      this.table,
      answer.filter((r) => r.k === 'h').map((r) => `${r.a}:${r.b}`),
    );
    const range = new Map<Counter, { start: number; end: number }>();
    const unchecked: [string, string][] = [];
    for (const c of this.sorted) {
      const end = last.get(`${c.ordnerId}:${c.key}`)!;
      const start = end - this.total(c) + 1;
      range.set(c, { start, end });
      for (let seq = start; seq <= end; seq++) {
        if (this.predictedStart.get(c) === start)
          byHand.known.add(`${c.companyId}:${this.candidate(c, seq)}`);
        else unchecked.push([c.companyId, this.candidate(c, seq)]);
      }
    }
    await byHand.lookUp(unchecked);
    const numbers = this.requests.map(() => [] as string[]);
    const ends: { c: Counter; value: number }[] = [];
    for (const c of this.sorted) {
      const { start, end } = range.get(c)!;
      const lastUsed = await this.number(c, start, used, numbers, byHand);
      if (lastUsed !== end) ends.push({ c, value: lastUsed });
      remember(this.seenKey(c), lastUsed);
    }
    return { numbers, counters: this.counterStatement(ends) };
  }

  /**
   * Numbers the first `used[i]` documents of each of `c`'s requests from `start` on, skipping numbers
   * used by hand; returns the last sequence value used (`start - 1` when none).
   */
  private async number(
    c: Counter,
    start: number,
    used: readonly number[],
    numbers: string[][],
    byHand: UsedNumbers,
  ): Promise<number> {
    let seq = start;
    let lastUsed = start - 1;
    for (const i of c.parts) {
      while (numbers[i].length < used[i]) {
        const x = this.candidate(c, seq);
        // Past the reservation (numbers used by hand were skipped): the next few are looked up at once.
        if (!byHand.known.has(`${c.companyId}:${x}`))
          await byHand.lookUp(
            Array.from(
              { length: 8 },
              (_, d) => [c.companyId, this.candidate(c, seq + d)] as [string, string],
            ),
          );
        if (!byHand.taken.has(`${c.companyId}:${x}`)) {
          numbers[i].push(x);
          lastUsed = seq;
        }
        seq++;
      }
    }
    return lastUsed;
  }

  /** Sets the counters whose reservation was not used exactly to their last number used. */
  private counterStatement(ends: { c: Counter; value: number }[]): Statement | undefined {
    if (!ends.length) return undefined;
    return {
      sql: `update "${this.schema}"."ordner_counter" c set "last_value" = u."v"
             from unnest(?::uuid[], ?::int[], ?::int[]) as u("o", "y", "v")
            where c."ordner_id" = u."o" and c."year" = u."y"`,
      params: [
        pgArray(ends.map((e) => e.c.ordnerId)),
        pgArray(ends.map((e) => e.c.key)),
        pgArray(ends.map((e) => e.value)),
      ],
    };
  }
}

/** Which (company, record number) pairs documents already use (numbers given by hand), as far as known. */
class UsedNumbers {
  /** `company:number` pairs whose use is known (looked up with the counter, or later). */
  readonly known = new Set<string>();
  readonly taken: Set<string>;

  constructor(
    private readonly em: EntityManager,
    private readonly table: string,
    taken: string[],
  ) {
    this.taken = new Set(taken);
  }

  /** Looks up whether `pairs` (company, number) are used by hand: one statement. */
  async lookUp(pairs: [string, string][]): Promise<void> {
    if (!pairs.length) return;
    const found = await execBound<{ company_id: string; record_number: string }>(
      this.em,
      usedAmong(this.table),
      [pgArray(pairs.map((a) => a[0])), pgArray(pairs.map((a) => a[1]))],
    );
    for (const f of found) this.taken.add(`${f.company_id}:${f.record_number}`);
    for (const [co, n] of pairs) this.known.add(`${co}:${n}`);
  }
}

/**
 * Record numbers for `requests` in one go (every document used): {@link reserveNumbers}, settled at once,
 * with the counters' correction made when hand-used numbers were skipped. Returns each request's numbers,
 * consecutive per counter in the requests' order.
 */
export async function takeRecordNumbersBatch(
  em: EntityManager,
  requests: NumberRequest[],
): Promise<string[][]> {
  if (!requests.length) return [];
  const r = reserveNumbers(requests);
  const rows = await execBound(em, r.statement.sql, r.statement.params);
  const { numbers, counters } = await r.settle(
    em,
    rows,
    requests.map((q) => q.n),
  );
  if (counters) await execBound(em, counters.sql, counters.params);
  return numbers;
}
