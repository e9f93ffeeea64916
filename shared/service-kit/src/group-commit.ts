/**
 * Group commit per ordner (issue #13; DESIGN §5 "Record numbers"). Documents of one ordner all take the
 * ordner's counter row, which stays locked from the number to the commit, so one transaction per
 * document makes them commit one after another. Here the documents of one key (company and ordner) that
 * arrive while a transaction of that key is running are stored together in the next transaction, each
 * under its own savepoint and answered on its own:
 *
 * - a document refused or failing inside its work rolls back to its savepoint alone: its rows, its ledger
 *   changes and its counter increment are undone, so it consumes no number and the numbers of the
 *   others stay consecutive (gapless);
 * - a document that lost a deadlock or serialization race (SQLSTATE 40P01/40001) is rolled back to its
 *   savepoint and stored again in the next group (at most {@link MAX_RETRIES} times), since its
 *   sibling's locks, not its own data, refused it;
 * - the others are answered only after the commit; if the commit itself fails (or the group's deadline,
 *   the earliest of its documents', passes), every document of the group gets that error and nothing of
 *   the group is stored.
 *
 * The unit of work is cleared after every document, so no managed entity of one document's work (or of
 * one rolled back) is seen by the next. Per process: replicas group their own documents; documents of one
 * ordner in two replicas still wait for each other on the counter row, as before.
 */

import { deadlinePassed } from '@bm/messaging';
import type { EntityManager } from '@mikro-orm/postgresql';
import { currentDeadline, underDeadline } from './deadline.js';

/** Most documents in one transaction: PostgreSQL caches 64 subtransactions per backend before overflowing. */
export const MAX_GROUP = 32;
/** Times a document refused by a deadlock or serialization failure is tried again in a later group. */
export const MAX_RETRIES = 3;

interface Job {
  em: EntityManager;
  work: (tx: EntityManager) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  deadline: number | undefined;
  tries: number;
}

const queues = new Map<string, Job[]>();
const draining = new Set<string>();

/** Documents per committed group since the process started (benchmarks read it). */
export const groupCommitStats = { groups: 0, documents: 0 };

const sqlStateOf = (e: unknown): string | undefined => (e as any)?.code ?? (e as any)?.cause?.code;
/** A document that lost a lock race to another transaction, not one refused for its own data. */
const isRace = (e: unknown) => {
  const s = sqlStateOf(e);
  return s === '40P01' || s === '40001';
};

/**
 * Runs `work` inside a transaction shared with the other documents of `key` that are waiting, under its
 * own savepoint, and resolves to its result after the commit. `em` is the request's EntityManager (the
 * transaction is begun on the first document's); `work` must do every write of the document through the
 * `tx` it is given. Rejects with `work`'s own error (nothing of the document stored), or with the
 * group's commit error (nothing of the group stored).
 */
export function groupCommit<T>(
  key: string,
  em: EntityManager,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const job: Job = {
      em,
      work,
      resolve: resolve as (v: unknown) => void,
      reject,
      deadline: currentDeadline(),
      tries: 0,
    };
    const queue = queues.get(key);
    if (queue) queue.push(job);
    else queues.set(key, [job]);
    if (!draining.has(key)) void drain(key);
  });
}

async function drain(key: string): Promise<void> {
  draining.add(key);
  try {
    for (;;) {
      const queue = queues.get(key);
      if (!queue?.length) {
        queues.delete(key);
        return;
      }
      const group = queue.splice(0, MAX_GROUP);
      const retry = await commitGroup(group);
      if (retry.length) queues.set(key, [...retry, ...(queues.get(key) ?? [])]);
    }
  } finally {
    draining.delete(key);
  }
}

/** Stores one group; returns the documents to try again in the next group. */
async function commitGroup(jobs: Job[]): Promise<Job[]> {
  const now = Date.now();
  const group: Job[] = [];
  for (const job of jobs) {
    if (job.deadline !== undefined && job.deadline <= now) job.reject(deadlinePassed('the request'));
    else group.push(job);
  }
  if (!group.length) return [];
  const deadlines = group.map((j) => j.deadline).filter((d): d is number => d !== undefined);
  const deadline = deadlines.length ? Math.min(...deadlines) : undefined;
  /** Documents not yet refused or put back: the group's outcome is theirs. */
  const open = new Set(group);
  const stored: { job: Job; value: unknown }[] = [];
  const retry: Job[] = [];
  try {
    await underDeadline(deadline, () =>
      group[0].em.transactional(async (tx) => {
        for (const [i, job] of group.entries()) {
          const savepoint = `doc_${i}`;
          await tx.execute(`savepoint ${savepoint}`);
          try {
            const value = await job.work(tx);
            await tx.flush();
            stored.push({ job, value });
          } catch (e) {
            tx.clear();
            await tx.execute(`rollback to savepoint ${savepoint}`);
            open.delete(job);
            if (isRace(e) && ++job.tries <= MAX_RETRIES) retry.push(job);
            else job.reject(e);
          }
          tx.clear();
        }
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
