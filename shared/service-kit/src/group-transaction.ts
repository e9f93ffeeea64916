/**
 * The transaction of one group of the group commit (group-commit.ts, DESIGN §5 "Record numbers"): the
 * `begin` with the group's reads and its numbers' reservation pipelined behind it; each document's work,
 * under its own savepoint where it needs one (a refused document rolls back alone, one that lost a lock
 * race is handed back for a later group), in rounds where documents share a lock; then the reserved
 * numbers for the documents left, consecutively per counter, and ONE statement with every document's
 * rows, the writes the documents deferred to the group (merged per kind) and the counters' last values,
 * the commit pipelined behind it, and each document answered. Where a failure cannot be pinned on one
 * document under a savepoint, nothing of the group is stored and its documents are tried again (each
 * alone when the shared writes failed).
 */
import { AppError } from '@bm/errors';
import { deadlinePassed } from '@bm/messaging';
import { groupCommitSize, groupCommitWait } from '@bm/telemetry';
import type { EntityManager } from '@mikro-orm/postgresql';
import { driverStatements, execPipelined } from './bound-query.js';
import { underDeadline } from './deadline.js';
import { type BeginStatements, withBeginStatements } from './prepared-statements.js';
import { type NumberRequest, reserveNumbers } from './record-numbers-batch.js';
import {
  combinedStatement,
  executeAll,
  type InsertPart,
  insertStatements,
  type Statement,
} from './set-insert.js';

/** Times a document refused by a deadlock or serialization failure is tried again in a later group. */
export const MAX_RETRIES = 3;

/**
 * Rows of one kind of write (`kind`: e.g. `warehouse.stock_movement insert`) that a document hands to its
 * group instead of writing them itself: the group merges the rows of every document's parts of one kind
 * and writes them with one statement (`build`), in the group's last statement.
 */
export interface WritePart {
  kind: string;
  rows: unknown[];
  build: (rows: unknown[]) => Statement;
}

/**
 * A read a group makes once for all its documents (their periods' locks and states, their stock keys'
 * balances), built from what they declared (`peers`, {@link GroupTx.peers}). A document kind lists its
 * reads in `groupCommit`'s `opts.reads`; their statements (prepared, with bind parameters) then go right
 * behind the group's `begin`, pipelined in the same write (issue #24: the round trips of a group are its
 * critical path), each statement on a snapshot of its own, so a read after a lock sees the rows as
 * locked. A document gets the result with {@link GroupTx.read}; a failed read fails the first document
 * that asks for it.
 */
export interface GroupRead<T> {
  /** Names the read within its group (one result per group and key). */
  key: string;
  /** The statements (none: nothing to read), run in this order. */
  statements(peers: readonly unknown[]): Statement[];
  /**
   * The result from each statement's rows; may read more through `tx` (a rare case the statements could
   * not cover, e.g. a balance row that does not exist yet).
   */
  result(rows: unknown[][], tx: EntityManager, peers: readonly unknown[]): T | Promise<T>;
}

/** The shared transaction as a document's work sees it. */
export interface GroupTx {
  tx: EntityManager;
  /**
   * Runs `fn` once per group for `key` (a period's share lock and check): later documents of the group
   * get the same result. What a document did under its savepoint is forgotten if it rolls back.
   */
  once<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * A document with `lazySavepoint` calls this before its first write that a later refusal of the
   * document must undo (its savepoint is taken then, not before its work). No-op when it has one.
   */
  savepoint(): Promise<void>;
  /**
   * Hands the document's writes of rows under `locks` (its stock keys) to the group: they are stored
   * with the group's last statement if the document's work succeeds, merged with other documents' of
   * the same kind; forgotten if it fails. Rows of one kind must not repeat another document's rows:
   * a document sharing locks with earlier ones reads after their writes ({@link flushThen}, by round).
   */
  defer(locks: readonly string[], parts: WritePart[]): void;
  /**
   * The group's result of `read` (see {@link GroupRead}): made with the `begin` when the documents
   * declared it, else now, once per group. Rejects with the read's error.
   */
  read<T>(read: GroupRead<T>): Promise<T>;
  /**
   * Writes every deferred part now and then runs `statements` (reads that must see those writes), in
   * one round trip (pipelined, as a {@link GroupRead}); resolves to each statement's rows.
   * A failure fails the whole group (nothing of it is stored; its documents are tried again).
   */
  flushThen(statements: Statement[]): Promise<unknown[][]>;
  /**
   * What each document of the group declared (`opts.info` of `groupCommit`), in the group's order, so
   * that the first can read for all (one statement instead of one per document); `self` is this one's.
   */
  peers: readonly unknown[];
  /**
   * Each document's round (in the order of `peers`): 0 when no earlier document of the group shares a
   * declared lock with it, else one more than the highest round of those that do. The group is in
   * round order, and the documents of one round share no lock (group-commit.ts `inRounds`).
   */
  rounds: readonly number[];
  self: number;
}

/** Where a document's record number comes from (DESIGN §5 "Record numbers"). */
export interface Numbering {
  schema: string;
  companyId: string;
  ordner: { id: string; numberFormat: string };
  /** Year of the date that decides the number (dateOperation of cards, dateCreated of invoices). */
  year: number;
  /** The documents' table (`"warehouse"."issue_card"`), whose numbers used by hand are skipped. */
  table: string;
  /** A number given by the client (already checked free): stored at once, under the savepoint. */
  given?: string;
}

/**
 * A store's writer of one kind of document (`store/*.writer.ts`): the rows that store `writeSet` under
 * `recordNumber`. Pure, no I/O; the group commit calls it once the number is taken.
 */
export type DocumentWriter<W> = (writeSet: W, recordNumber: string) => InsertPart[];

/**
 * What a document's work hands the group (step 2): what it decided (`writeSet`, plain data: everything
 * but the record number, ids included) and the writer that turns it and its number into rows. Where its
 * number comes from it declared before (`groupCommit`'s `opts.numbering`).
 */
export interface AwaitingNumber<W> {
  writeSet: W;
  writer: DocumentWriter<W>;
}

/**
 * `fn` (what a document is stored as under its record number: rows, entries) computed once per write set
 * and number: a writer and the command's reply after the commit call it with the same write set, and get
 * the same rows (ids included) without building them twice.
 */
export function oncePerWriteSet<W extends object, R>(
  fn: (w: W, recordNumber: string) => R,
): (w: W, recordNumber: string) => R {
  const done = new WeakMap<W, { recordNumber: string; value: R }>();
  return (w, recordNumber) => {
    const hit = done.get(w);
    if (hit?.recordNumber === recordNumber) return hit.value;
    const value = fn(w, recordNumber);
    done.set(w, { recordNumber, value });
    return value;
  };
}

/** A stored document, as `groupCommit` resolves: its write set and the record number it was stored under. */
export interface Stored<W> {
  writeSet: W;
  recordNumber: string;
}

/**
 * Where a document's number comes from, as `groupCommit`'s `opts.numbering` takes it: documents of
 * `table` (`"<schema>"."<name>"`, e.g. `"warehouse"."issue_card"`; the counter's schema comes from it),
 * the year from `date` (`YYYY-MM-DD`: dateOperation of cards, dateCreated of invoices); `given` is a
 * number the client gave (checked free by the document's work).
 */
export function numberingOf(n: {
  table: string;
  companyId: string;
  ordner: { id: string; numberFormat: string };
  date: string;
  given?: string | null;
}): Numbering {
  const schema = /^"([^"]+)"\./.exec(n.table)?.[1];
  if (!schema) throw new Error(`numberingOf: ${n.table} is not "<schema>"."<table>"`);
  return {
    schema,
    table: n.table,
    companyId: n.companyId,
    ordner: n.ordner,
    year: Number(n.date.slice(0, 4)),
    given: n.given?.trim() || undefined,
  };
}

/** One document waiting for, or in, a group. */
export interface Job {
  /** Row locks the document will take (stock keys), for {@link startGroups}. */
  locks: readonly string[];
  em: EntityManager;
  work: (g: GroupTx) => Promise<AwaitingNumber<unknown>>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  deadline: number | undefined;
  tries: number;
  /** `performance.now()` when it was queued: its wait is a metric (issue #25). */
  queuedAt: number;
  /**
   * The work takes its savepoint itself ({@link GroupTx.savepoint}) before its first write that must be
   * undone if it is refused; until then a refusal leaves nothing to undo (reads and row locks only).
   */
  lazySavepoint: boolean;
  /** Stored in a group of its own: its group's shared writes failed and the culprit is not known. */
  solo: boolean;
  /**
   * Its round in its group (group-commit.ts `inRounds`): 0 when no earlier document of the group shares
   * a declared lock with it, else one more than the highest round of those that do.
   */
  round?: number;
  /** What the document declares to the other documents of its group ({@link GroupTx.peers}). */
  info?: unknown;
  /** The reads its group makes with its `begin` ({@link GroupRead}). */
  reads: readonly GroupRead<unknown>[];
  /** Where its number comes from (reserved with the group's `begin` unless given by hand). */
  numbering: Numbering;
}

/**
 * Since the process started: groups committed, documents stored by them, the most documents one group
 * began with, and groups that began with documents of more than one company (tests and benchmarks).
 */
export const groupCommitStats = { groups: 0, documents: 0, largest: 0, mixed: 0 };

const sqlStateOf = (e: unknown): string | undefined => (e as any)?.code ?? (e as any)?.cause?.code;
/** A document that lost a lock race to another transaction, not one refused for its own data. */
const isRace = (e: unknown) => {
  const s = sqlStateOf(e);
  return s === '40P01' || s === '40001';
};
/** An error PostgreSQL raised (it aborted the transaction), as opposed to a rule of the document. */
const isSqlError = (e: unknown) => {
  const s = sqlStateOf(e);
  return !(e instanceof AppError) && typeof s === 'string' && /^[0-9A-Z]{5}$/.test(s);
};

/**
 * The transaction failed where no savepoint could isolate one document: a document's own statement
 * (`job`) outside a savepoint, or the group's shared writes (`job` undefined: culprit unknown).
 */
class GroupAborted extends Error {
  constructor(
    readonly error: unknown,
    readonly job?: Job,
  ) {
    super('group aborted');
  }
}

/** Deferred write parts merged per kind, in first-seen order, as one statement each. */
function mergedStatements(parts: WritePart[]): Statement[] {
  const byKind = new Map<string, WritePart>();
  for (const p of parts) {
    const into = byKind.get(p.kind);
    if (into) into.rows.push(...p.rows);
    else byKind.set(p.kind, { ...p, rows: [...p.rows] });
  }
  return [...byKind.values()].filter((p) => p.rows.length).map((p) => p.build(p.rows));
}

/** The documents of a group that take numbers from one counter request, in the group's order. */
interface NumberedJobs {
  request: NumberRequest;
  jobs: Job[];
}

/**
 * What a group does with its `begin` (issue #24): the reads its documents declared ({@link GroupRead},
 * once per key) and the reservation of the record numbers of its documents not numbered by hand
 * (record-numbers-batch.ts `reserveNumbers`, one statement per documents' table), sent right behind the
 * `begin` (`sent`, for `withBeginStatements`). Inside the transaction, `rows(tx)` is every statement's
 * rows (those that came with the `begin`, or, on a connection that does not pipeline, read now), and
 * `reads(tx)` each read's result by key, made once, when a document first asks for it.
 */
function openingOf(group: Job[], peers: readonly unknown[]) {
  const reads = [...new Map(group.flatMap((j) => j.reads).map((r) => [r.key, r])).values()].map((r) => ({
    read: r,
    statements: r.statements(peers),
  }));
  const byRequest = new Map<string, NumberedJobs>();
  for (const job of group) {
    const n = job.numbering;
    if (n.given) continue;
    const id = `${n.schema}|${n.table}|${n.companyId}|${n.ordner.id}|${n.year}`;
    const r = byRequest.get(id) ?? { request: { ...n, n: 0 }, jobs: [] };
    r.request.n++;
    r.jobs.push(job);
    byRequest.set(id, r);
  }
  const byTable = new Map<string, NumberedJobs[]>();
  for (const r of byRequest.values()) {
    const t = `${r.request.schema}|${r.request.table}`;
    byTable.set(t, [...(byTable.get(t) ?? []), r]);
  }
  const numbering = [...byTable.values()].map((list) => ({
    list,
    reservation: reserveNumbers(list.map((r) => r.request)),
  }));
  const all = [...reads.flatMap((r) => r.statements), ...numbering.map((n) => n.reservation.statement)];
  const sent: BeginStatements = { statements: driverStatements(all) };
  let rows: Promise<unknown[][]> | undefined;
  const allRows = (tx: EntityManager) => {
    rows ??= sent.outcome ?? execPipelined(tx, all);
    return rows;
  };
  const readsOf = (tx: EntityManager): Map<string, () => Promise<unknown>> => {
    const out = new Map<string, () => Promise<unknown>>();
    let at = 0;
    for (const r of reads) {
      const from = at;
      at += r.statements.length;
      let result: Promise<unknown> | undefined;
      out.set(r.read.key, () => {
        result ??= allRows(tx).then((rs) => r.read.result(rs.slice(from, at), tx, peers));
        return result;
      });
    }
    return out;
  };
  /** Each numbered table's reservation, its requests, and the reservation statement's rows. */
  const reservations = async (tx: EntityManager) => {
    const rs = await allRows(tx);
    const first = rs.length - numbering.length;
    return numbering.map((n, k) => ({ ...n, rows: rs[first + k] }));
  };
  return { sent: all.length ? sent : undefined, rows: allRows, reads: readsOf, reservations };
}

/** What a group's end leaves to its scheduler: the documents to try again, and the answers to give. */
export interface GroupEnd {
  retry: Job[];
  /**
   * Answers the stored documents. The scheduler calls it after it started the next group (issue #24: the
   * documents' replies are work of this process that the next group's `begin` need not wait for).
   */
  answer(): void;
}
const noAnswers = () => undefined;

/** Stores one group; returns the documents to try again in a later group and its stored documents' answers. */
export async function commitGroup(jobs: Job[]): Promise<GroupEnd> {
  const now = Date.now();
  const group: Job[] = [];
  for (const job of jobs) {
    if (job.deadline !== undefined && job.deadline <= now) job.reject(deadlinePassed('the request'));
    else group.push(job);
  }
  if (!group.length) return { retry: [], answer: noAnswers };
  groupCommitStats.largest = Math.max(groupCommitStats.largest, group.length);
  const companies = new Set(
    group.map((j) => j.em.getFilterParams<{ companyId?: string }>('company')?.companyId),
  );
  if (companies.size > 1) groupCommitStats.mixed++;
  groupCommitSize.observe(group.length);
  const begun = performance.now();
  for (const job of group) groupCommitWait.observe((begun - job.queuedAt) / 1000);
  const deadlines = group.map((j) => j.deadline).filter((d): d is number => d !== undefined);
  const deadline = deadlines.length ? Math.min(...deadlines) : undefined;
  /** Documents not yet refused or put back: the group's outcome is theirs. */
  const open = new Set(group);
  const peers = group.map((j) => j.info);
  const rounds = group.map((j) => j.round ?? 0);
  const opening = openingOf(group, peers);
  const stored: { job: Job; value: Stored<unknown> }[] = [];
  const retry: Job[] = [];
  try {
    await underDeadline(deadline, () =>
      withBeginStatements(opening.sent, () =>
        group[0].em.transactional(async (tx) => {
          const onceDone = new Map<string, Promise<unknown>>();
          const opened = opening.reads(tx);
          // What came with the `begin` (a lock it waited for past the deadline, a deadlock) fails the
          // group as a failure of its first document would.
          try {
            await opening.rows(tx);
          } catch (e) {
            throw new GroupAborted(e, group[0]);
          }
          const waiting = new Map<Job, AwaitingNumber<unknown>>();
          /** Deferred writes of the documents done so far, and the locks they are under. */
          let pending: WritePart[] = [];
          let pendingLocks = new Set<string>();
          const flush = async () => {
            if (!pending.length) return;
            const statements = mergedStatements(pending);
            pending = [];
            pendingLocks = new Set();
            try {
              await executeAll(tx, statements);
            } catch (e) {
              throw new GroupAborted(e);
            }
          };
          for (const [i, job] of group.entries()) {
            const name = `doc_${i}`;
            let inSavepoint = false;
            const takeSavepoint = async () => {
              if (inSavepoint) return;
              // Earlier documents' deferred writes are made first: a rollback to this document's savepoint
              // must never take them with it.
              await flush();
              await tx.execute(`savepoint ${name}`);
              inSavepoint = true;
            };
            const mine: string[] = [];
            let staged: { locks: readonly string[]; parts: WritePart[] }[] = [];
            const g: GroupTx = {
              tx,
              once: <T>(k: string, fn: () => Promise<T>) => {
                let p = onceDone.get(k);
                if (!p) {
                  p = fn();
                  onceDone.set(k, p);
                  mine.push(k);
                }
                return p as Promise<T>;
              },
              read: <T>(r: GroupRead<T>) => {
                // An opening read holds for the whole group (its locks are the transaction's, outside every
                // savepoint); a later one is made once, like `once`.
                const o = opened.get(r.key);
                if (o) return o() as Promise<T>;
                return g.once(`read:${r.key}`, async () => {
                  const statements = r.statements(peers);
                  return r.result(await execPipelined(tx, statements), tx, peers);
                });
              },
              savepoint: takeSavepoint,
              defer: (locks, parts) => {
                staged.push({ locks, parts });
              },
              flushThen: async (statements) => {
                const writes = mergedStatements(pending);
                pending = [];
                pendingLocks = new Set();
                const all = writes.length ? [combinedStatement(writes), ...statements] : statements;
                if (!all.length) return [];
                try {
                  return (await execPipelined(tx, all)).slice(all.length - statements.length);
                } catch (e) {
                  throw new GroupAborted(e);
                }
              },
              peers,
              rounds,
              self: i,
            };
            // A group holds documents of several companies: each works with its own company filter.
            const company = job.em.getFilterParams('company');
            if (company) tx.setFilterParams('company', company);
            if (!job.lazySavepoint) await takeSavepoint();
            try {
              const prepared = await job.work(g);
              await tx.flush();
              const given = job.numbering.given;
              if (given) {
                // A number given by hand: the document's rows and its deferred writes are made at once,
                // under its savepoint, so a duplicate number refuses all of it (and nothing of the others).
                await takeSavepoint();
                const own = mergedStatements(staged.flatMap((d) => d.parts));
                const rows = prepared.writer(prepared.writeSet, given);
                await executeAll(tx, [...own, ...insertStatements(tx, rows)]);
                stored.push({ job, value: { writeSet: prepared.writeSet, recordNumber: given } });
              } else {
                for (const d of staged) {
                  pending.push(...d.parts);
                  for (const l of d.locks) pendingLocks.add(l);
                }
                waiting.set(job, prepared);
              }
            } catch (e) {
              if (e instanceof GroupAborted) throw e;
              staged = [];
              tx.clear();
              if (inSavepoint) {
                await tx.execute(`rollback to savepoint ${name}`);
                for (const k of mine) onceDone.delete(k);
              } else if (isSqlError(e)) {
                // PostgreSQL aborted the shared transaction and no savepoint isolates this document.
                throw new GroupAborted(e, job);
              }
              open.delete(job);
              if (isRace(e) && ++job.tries <= MAX_RETRIES) retry.push(job);
              else job.reject(e);
            }
            tx.clear();
          }
          // Step 2: the documents left take the numbers reserved with the `begin`, in the group's order
          // per counter (numbers used by hand skipped); then one statement writes every document's rows,
          // the group's deferred writes and the counters' last values (what the refused documents did
          // not use is given back), and the commit goes with it.
          const parts = new Map<unknown, InsertPart>();
          const counters: Statement[] = [];
          for (const { list, reservation, rows } of await opening.reservations(tx)) {
            const left = list.map((r) => r.jobs.filter((j) => waiting.has(j)));
            const settled = await reservation.settle(
              tx,
              rows,
              left.map((jobs) => jobs.length),
            );
            if (settled.counters) counters.push(settled.counters);
            for (const [k, jobs] of left.entries())
              for (const [i, job] of jobs.entries()) {
                const recordNumber = settled.numbers[k][i];
                const doc = waiting.get(job)!;
                for (const part of doc.writer(doc.writeSet, recordNumber)) {
                  const into = parts.get(part.entity);
                  if (into) into.rows.push(...part.rows);
                  else parts.set(part.entity, { entity: part.entity, rows: [...part.rows] });
                }
                stored.push({ job, value: { writeSet: doc.writeSet, recordNumber } });
              }
          }
          const last = [
            ...counters,
            ...mergedStatements(pending),
            ...insertStatements(tx, [...parts.values()]),
          ];
          // The group's last statement and its commit go in one write (the deadline checked first).
          try {
            await execPipelined(tx, last.length ? [combinedStatement(last)] : [], { commit: true });
          } catch (e) {
            // Past the deadline (nothing sent): every document of the group is answered with it.
            if (e instanceof AppError) throw e;
            throw new GroupAborted(e);
          }
        }),
      ),
    );
  } catch (e) {
    if (!(e instanceof GroupAborted)) {
      for (const job of open) job.reject(e);
      return { retry, answer: noAnswers };
    }
    // Nothing of the group is stored. The document whose own statement failed is answered with its
    // error (or tried again after a lock race); the others are tried again, each in a group of its own
    // when the group's shared writes failed, so that only the document they come from is refused.
    const culprit = e.job;
    if (culprit) {
      open.delete(culprit);
      if (isRace(e.error) && ++culprit.tries <= MAX_RETRIES) retry.push(culprit);
      else culprit.reject(e.error);
    }
    for (const job of open) {
      if (culprit) retry.push(job);
      else if (isRace(e.error) ? ++job.tries <= MAX_RETRIES : open.size > 1 && !job.solo) {
        job.solo = !isRace(e.error);
        retry.push(job);
      } else job.reject(e.error);
    }
    return { retry, answer: noAnswers };
  }
  groupCommitStats.groups++;
  groupCommitStats.documents += stored.length;
  return {
    retry,
    answer: () => {
      for (const s of stored) s.job.resolve(s.value);
    },
  };
}
