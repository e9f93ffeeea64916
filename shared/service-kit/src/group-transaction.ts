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
import { driverStatements } from './bound-query.js';
import { underDeadline } from './deadline.js';
import { GroupConnection } from './group-connection.js';
import type { Job } from './group-document.js';
import { afterAbort, GroupAborted } from './group-failure.js';
import { openingOf } from './group-opening.js';
import { GroupRun } from './group-run.js';
import { settleGroup } from './group-settle.js';
import { workDocument } from './group-work.js';
import { combinedStatement } from './set-insert.js';

export * from './group-document.js';
export { MAX_RETRIES } from './group-failure.js';

/**
 * Since the process started: groups committed, documents stored by them, the most documents one group
 * began with, and groups that began with documents of more than one company (tests and benchmarks).
 */
export const groupCommitStats = { groups: 0, documents: 0, largest: 0, mixed: 0 };

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
  const group = admit(jobs);
  if (!group.length) return { retry: [], answer: noAnswers };
  const run = new GroupRun(group);
  const opening = openingOf(group);
  try {
    await underDeadline(deadlineOf(group), () =>
      GroupConnection.run(group[0].em, opening.sent, (c) => transaction(run, opening, c)),
    );
  } catch (e) {
    if (e instanceof GroupAborted) afterAbort(e, run.open, run.retry);
    else for (const job of run.open) job.reject(e);
    return { retry: run.retry, answer: noAnswers };
  }
  groupCommitStats.groups++;
  groupCommitStats.documents += run.stored.length;
  return {
    retry: run.retry,
    answer: () => {
      for (const s of run.stored) s.job.resolve(s.value);
    },
  };
}

/** The documents whose deadline has not passed (the others answered with it), the group's metrics noted. */
function admit(jobs: Job[]): Job[] {
  const now = Date.now();
  const group: Job[] = [];
  for (const job of jobs) {
    if (job.deadline !== undefined && job.deadline <= now) job.reject(deadlinePassed('the request'));
    else group.push(job);
  }
  if (!group.length) return group;
  groupCommitStats.largest = Math.max(groupCommitStats.largest, group.length);
  const companies = new Set(
    group.map((j) => j.em.getFilterParams<{ companyId?: string }>('company')?.companyId),
  );
  if (companies.size > 1) groupCommitStats.mixed++;
  groupCommitSize.observe(group.length);
  const begun = performance.now();
  for (const job of group) groupCommitWait.observe((begun - job.queuedAt) / 1000);
  return group;
}

/** The earliest deadline of the group's documents, if any has one. */
function deadlineOf(group: Job[]): number | undefined {
  const deadlines = group.map((j) => j.deadline).filter((d): d is number => d !== undefined);
  return deadlines.length ? Math.min(...deadlines) : undefined;
}

/**
 * The group's transaction: the opening (reads and number reservations sent with the `begin`), each
 * document's work, the numbers settled, and the last statement with the commit in one write.
 * @throws GroupAborted where no savepoint isolates a failure; AppError past the deadline
 */
async function transaction(run: GroupRun, opening: ReturnType<typeof openingOf>, c: GroupConnection) {
  const tx = c.tx;
  const opened = opening.reads(tx);
  // What came with the `begin` (a lock it waited for past the deadline, a deadlock) fails the group as a
  // failure of its first document would.
  try {
    await opening.rows(tx);
  } catch (e) {
    throw new GroupAborted(e, run.group[0]);
  }
  for (const [i, job] of run.group.entries()) await workDocument(run, tx, opened, i, job);
  const last = await settleGroup(run, opening, tx);
  // The group's last statement and its commit go in one write (the deadline checked first).
  try {
    await c.commitWith(driverStatements(last.length ? [combinedStatement(last)] : []));
  } catch (e) {
    // Past the deadline (nothing sent): every document of the group is answered with it.
    if (e instanceof AppError) throw e;
    throw new GroupAborted(e);
  }
}
