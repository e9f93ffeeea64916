/**
 * The transaction of one group of the group commit (group-commit.ts, DESIGN §5 "Record numbers"): each
 * document's work under its own savepoint (a refused one rolls back alone; one that lost a lock race is
 * handed back for a later group), then record numbers for the documents left, consecutively in arrival
 * order per year, one insert of every document's rows, one commit, and each document answered.
 */
import { deadlinePassed } from '@bm/messaging';
import { groupCommitSize, groupCommitWait } from '@bm/telemetry';
import type { EntityManager } from '@mikro-orm/postgresql';
import { underDeadline } from './deadline.js';
import { takeRecordNumbers, usedRecordNumbers } from './record-number.js';
import { type InsertPart, insertAll } from './set-insert.js';

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

/** One document waiting for, or in, a group. */
export interface Job {
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

/** Stores one group; returns the documents to try again in a later group. */
export async function commitGroup(jobs: Job[]): Promise<Job[]> {
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
