/**
 * Group commit per ordner (issue #13; DESIGN §5 "Record numbers"). Every document of an ordner takes the
 * ordner's counter row, which stays locked from the number to the commit, so with one transaction per
 * document they commit one after another, each paying its own `begin`, counter, number look-up, insert
 * and `commit`. Here the documents of one key (company and ordner) that arrive while the key is busy are
 * stored together in one transaction:
 *
 * 1. each document does its work (locks, valuation, ledger writes) under its own savepoint. A document
 *    refused or failing there rolls back to its savepoint alone and is answered with its error; one that
 *    lost a deadlock or serialization race (SQLSTATE 40P01/40001) is put back for the next group (at most
 *    {@link MAX_RETRIES} times), since another transaction's locks, not its data, refused it;
 * 2. the documents left take their record numbers together, consecutively in arrival order
 *    ({@link takeRecordNumbers}: one counter statement per year), and are inserted with one statement
 *    (`insertAll`); refused documents took no number, so the numbers stay gapless;
 * 3. one commit; then each document is answered on its own. If step 2 or the commit fails (or the group's
 *    deadline, the earliest of its documents', passes), every document of the group gets that error and
 *    nothing of the group is stored.
 *
 * The counter row is locked only from step 2 to the commit, so up to {@link PARALLEL_GROUPS} groups of
 * one key do their step 1 at the same time on their own connections. A document with a number given by
 * the client is inserted in step 1, under its savepoint (the document checks the number is free).
 *
 * The unit of work is cleared after every document, so no managed entity of one document's work (or of
 * one rolled back) is seen by the next. Per process: replicas group their own documents; documents of one
 * ordner in two replicas wait for each other on the counter row, as before.
 */

import { deadlinePassed } from '@bm/messaging';
import { groupCommitSize, groupCommitWait } from '@bm/telemetry';
import type { EntityManager } from '@mikro-orm/postgresql';
import { currentDeadline, underDeadline } from './deadline.js';
import { takeRecordNumbers, usedRecordNumbers } from './record-number.js';
import { type InsertPart, insertAll } from './set-insert.js';

/** Most documents in one transaction: PostgreSQL caches 64 subtransactions per backend before overflowing. */
export const MAX_GROUP = 32;
/** Groups of one key storing at once (step 1 in parallel; the counter still orders their step 2). */
export const PARALLEL_GROUPS = 3;
/** Times a document refused by a deadlock or serialization failure is tried again in a later group. */
export const MAX_RETRIES = 3;

/** The shared transaction as a document's work sees it. */
export interface GroupTx {
  tx: EntityManager;
  /**
   * Runs `fn` once per group for `key` (a period's share lock and check): later documents of the group
   * get the same result. What a document did under its savepoint is forgotten if it rolls back.
   */
  once<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** A document whose work is done and that waits for its record number (step 2). */
export interface AwaitingNumber<T> {
  numbering: {
    schema: string;
    companyId: string;
    ordner: { id: string; numberFormat: string };
    /** Year of the date that decides the number (dateOperation of cards, dateCreated of invoices). */
    year: number;
    /** The documents' table (`"warehouse"."issue_card"`), whose numbers used by hand are skipped. */
    table: string;
    /** A number given by the client (already checked free): stored at once, under the savepoint. */
    given?: string;
  };
  /** The rows to insert for the document under `recordNumber`, and its answer. */
  finish: (recordNumber: string) => { rows: InsertPart[]; value: T };
}

/** What a document's work returns: stored already (`value`), or waiting for its number. */
export type Prepared<T> = { value: T } | AwaitingNumber<T>;

interface Job {
  /** Row locks the document will take (stock keys), for {@link startGroups}. */
  locks: readonly string[];
  em: EntityManager;
  work: (g: GroupTx) => Promise<Prepared<unknown>>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  deadline: number | undefined;
  tries: number;
  /** `performance.now()` when it was queued: its wait is a metric (issue #25). */
  queuedAt: number;
}

const queues = new Map<string, Job[]>();
const running = new Map<string, number>();
/** Locks declared by the documents of the running groups of this process (all keys). */
const held = new Map<string, number>();

/**
 * Since the process started: groups committed, documents stored by them, and the most documents one
 * group began with (tests and benchmarks read it).
 */
export const groupCommitStats = { groups: 0, documents: 0, largest: 0 };

const sqlStateOf = (e: unknown): string | undefined => (e as any)?.code ?? (e as any)?.cause?.code;
/** A document that lost a lock race to another transaction, not one refused for its own data. */
const isRace = (e: unknown) => {
  const s = sqlStateOf(e);
  return s === '40P01' || s === '40001';
};

/**
 * Stores a document in a transaction shared with the other documents of `key` that are waiting (see the
 * module comment) and resolves to its answer after the commit. `em` is the request's EntityManager (the
 * group's transaction is begun on the first document's); `work` does every write through `g.tx`.
 * Rejects with `work`'s own error (nothing of the document stored), or with the group's error (nothing of
 * the group stored).
 */
export function groupCommit<T>(
  key: string,
  em: EntityManager,
  work: (g: GroupTx) => Promise<Prepared<T>>,
  opts: { locks?: readonly string[] } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const job: Job = {
      locks: opts.locks ?? [],
      em,
      work,
      resolve: resolve as (v: unknown) => void,
      reject,
      deadline: currentDeadline(),
      tries: 0,
      queuedAt: performance.now(),
    };
    const queue = queues.get(key);
    if (queue) queue.push(job);
    else queues.set(key, [job]);
    startGroups(key);
  });
}

/**
 * Starts groups of `key` while documents wait and fewer than {@link PARALLEL_GROUPS} run. A document whose
 * declared locks (`opts.locks`: its stock keys) are held by a running group of this process waits for that
 * group instead of joining a new one: groups, which lock document after document and so not in one sorted
 * order, never wait for or deadlock with each other. Waiting documents keep their order, so a later one
 * never overtakes an earlier one on the same lock.
 */
function startGroups(key: string): void {
  for (;;) {
    const queue = queues.get(key);
    const busy = running.get(key) ?? 0;
    if (!queue?.length || busy >= PARALLEL_GROUPS) return;
    const group: Job[] = [];
    const blocked = new Set<string>();
    const rest: Job[] = [];
    for (const job of queue) {
      const free = group.length < MAX_GROUP && !job.locks.some((l) => held.has(l) || blocked.has(l));
      if (free) group.push(job);
      else {
        rest.push(job);
        // Later documents must not overtake this one on its locks.
        for (const l of job.locks) blocked.add(l);
      }
    }
    if (!group.length) return;
    if (rest.length) queues.set(key, rest);
    else queues.delete(key);
    const locks = group.flatMap((j) => j.locks);
    for (const l of locks) held.set(l, (held.get(l) ?? 0) + 1);
    running.set(key, busy + 1);
    // commitGroup settles every document itself; the catch only keeps the key from ever staying busy.
    void commitGroup(group)
      .catch((e): Job[] => {
        for (const job of group) job.reject(e);
        return [];
      })
      .then((retry) => {
        for (const l of locks) {
          const n = (held.get(l) ?? 1) - 1;
          if (n) held.set(l, n);
          else held.delete(l);
        }
        const left = (running.get(key) ?? 1) - 1;
        if (left) running.set(key, left);
        else running.delete(key);
        if (retry.length) queues.set(key, [...retry, ...(queues.get(key) ?? [])]);
        // Freed locks may let documents of any key go on.
        for (const k of [...queues.keys()]) startGroups(k);
      });
  }
}

/** Stores one group; returns the documents to try again in a later group. */
async function commitGroup(jobs: Job[]): Promise<Job[]> {
  const now = Date.now();
  const group: Job[] = [];
  for (const job of jobs) {
    if (job.deadline !== undefined && job.deadline <= now) job.reject(deadlinePassed('the request'));
    else group.push(job);
  }
  if (!group.length) return [];
  groupCommitStats.largest = Math.max(groupCommitStats.largest, group.length);
  groupCommitSize.observe(group.length);
  const begun = performance.now();
  for (const job of group) groupCommitWait.observe((begun - job.queuedAt) / 1000);
  const deadlines = group.map((j) => j.deadline).filter((d): d is number => d !== undefined);
  const deadline = deadlines.length ? Math.min(...deadlines) : undefined;
  /** Documents not yet refused or put back: the group's outcome is theirs. */
  const open = new Set(group);
  const stored: { job: Job; value: unknown }[] = [];
  const retry: Job[] = [];
  try {
    await underDeadline(deadline, () =>
      group[0].em.transactional(async (tx) => {
        const onceDone = new Map<string, Promise<unknown>>();
        const waiting: { job: Job; doc: AwaitingNumber<unknown> }[] = [];
        for (const [i, job] of group.entries()) {
          const savepoint = `doc_${i}`;
          const mine: string[] = [];
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
          };
          await tx.execute(`savepoint ${savepoint}`);
          try {
            const prepared = await job.work(g);
            await tx.flush();
            if (!('finish' in prepared)) stored.push({ job, value: prepared.value });
            else if (prepared.numbering.given) {
              const done = prepared.finish(prepared.numbering.given);
              await insertAll(tx, done.rows);
              stored.push({ job, value: done.value });
            } else waiting.push({ job, doc: prepared });
          } catch (e) {
            tx.clear();
            await tx.execute(`rollback to savepoint ${savepoint}`);
            for (const k of mine) onceDone.delete(k);
            open.delete(job);
            if (isRace(e) && ++job.tries <= MAX_RETRIES) retry.push(job);
            else job.reject(e);
          }
          tx.clear();
        }
        if (!waiting.length) return;
        // Step 2: numbers for the documents left, in arrival order, per year; then one insert for all.
        const byYear = new Map<number, typeof waiting>();
        for (const w of waiting) {
          const list = byYear.get(w.doc.numbering.year) ?? [];
          list.push(w);
          byYear.set(w.doc.numbering.year, list);
        }
        const parts = new Map<unknown, InsertPart>();
        for (const [year, list] of byYear) {
          const n = list[0].doc.numbering;
          const numbers = await takeRecordNumbers(
            tx,
            n.schema,
            n.companyId,
            n.ordner,
            year,
            list.length,
            (c) => usedRecordNumbers(tx, n.table, n.companyId, c),
          );
          for (const [i, w] of list.entries()) {
            const done = w.doc.finish(numbers[i]);
            for (const part of done.rows) {
              const into = parts.get(part.entity);
              if (into) into.rows.push(...part.rows);
              else parts.set(part.entity, { entity: part.entity, rows: [...part.rows] });
            }
            stored.push({ job: w.job, value: done.value });
          }
        }
        await insertAll(tx, [...parts.values()]);
      }),
    );
  } catch (e) {
    for (const job of open) job.reject(e);
    return retry;
  }
  groupCommitStats.groups++;
  groupCommitStats.documents += stored.length;
  for (const s of stored) s.job.resolve(s.value);
  return retry;
}
