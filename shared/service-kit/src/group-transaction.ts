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
import { execPipelined } from './bound-query.js';
import { underDeadline } from './deadline.js';
import {
  type AwaitingNumber,
  type GroupRead,
  type GroupTx,
  type Job,
  mergedStatements,
  type Stored,
  type WritePart,
} from './group-document.js';
import { openingOf } from './group-opening.js';
import { withBeginStatements } from './prepared-statements.js';
import {
  combinedStatement,
  executeAll,
  type InsertPart,
  insertStatements,
  type Statement,
} from './set-insert.js';

export * from './group-document.js';

/** Times a document refused by a deadlock or serialization failure is tried again in a later group. */
export const MAX_RETRIES = 3;

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
          /** Deferred writes of the documents done so far. */
          let pending: WritePart[] = [];
          const flush = async () => {
            if (!pending.length) return;
            const statements = mergedStatements(pending);
            pending = [];
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
            let staged: WritePart[] = [];
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
              defer: (parts) => {
                staged.push(...parts);
              },
              flushThen: async (statements) => {
                const writes = mergedStatements(pending);
                pending = [];
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
                const own = mergedStatements(staged);
                const rows = prepared.writer(prepared.writeSet, given);
                await executeAll(tx, [...own, ...insertStatements(tx, rows)]);
                stored.push({ job, value: { writeSet: prepared.writeSet, recordNumber: given } });
              } else {
                pending.push(...staged);
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
