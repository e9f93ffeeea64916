/**
 * Group commit (issue #13, #24; DESIGN §5 "Record numbers"). Every document of an ordner takes the
 * ordner's counter row, which stays locked until the commit, so with one transaction per document they
 * commit one after another, each paying its own `begin`, counter, number look-up, insert and `commit`.
 * Here the documents of one key (a kind of document, e.g. `warehouse:issue-card`, of any companies and
 * ordners) that arrive while the key is busy are stored together in one transaction, each under its own
 * company's filter, in three round trips for the whole group (issue #24: a group's round trips are its
 * critical path):
 *
 * 1. the `begin`, and pipelined behind it in the same write: the reads the documents declared
 *    (`opts.reads`: their periods locked and checked, their stock keys' balances locked and read) and the
 *    reservation of their record numbers (`opts.numbering`: every counter advanced by its documents at
 *    once, numbers used by hand looked up; record-numbers-batch.ts);
 * 2. each document does its work (valuation, decisions) on what was read, under its own savepoint when
 *    it needs one (with `lazySavepoint`, taken by the work before its first write: a document refused
 *    before it wrote has nothing to undo). A document refused or failing rolls back to its savepoint
 *    alone and is answered with its error; one that lost a deadlock or serialization race (SQLSTATE
 *    40P01/40001) is put back for the next group (at most {@link MAX_RETRIES} times). A document hands
 *    its writes to the group (`g.defer`): they are merged with the other documents' of their kind.
 *    Documents sharing a declared lock go in rounds ({@link inRounds}); each round after the first
 *    writes the earlier rounds' writes and reads its own stock in one more round trip;
 * 3. the documents left take the reserved numbers, consecutively in the group's order per counter
 *    (refused documents take none, and the counters are set back to the last number used, so the
 *    numbers stay gapless), and ONE statement inserts them, makes the deferred writes and sets the
 *    counters, with the `commit` pipelined behind it; then each document is answered on its own. If it
 *    fails (or the group's deadline, the earliest of its documents', passes), nothing of the group is
 *    stored: the documents are tried again, each in a group of its own when the culprit is not known,
 *    so that only the failing one is refused.
 *
 * The counter rows are thus locked from the `begin` to the commit: groups of one ordner, also of
 * {@link parallelGroups} > 1 or of two replicas, store one after another (docs/decisions.md "Write path,
 * sixth step"). A document with a number given by the client is inserted in step 2, under its savepoint
 * (the document checks the number is free).
 *
 * The unit of work is cleared after every document, so no managed entity of one document's work (or of
 * one rolled back) is seen by the next. Per process: replicas group their own documents; documents of one
 * ordner in two replicas wait for each other on the counter row, as before.
 *
 * This module is the scheduler (queues per key, groups in flight, declared locks); the transaction of one
 * group (steps 1–3) is group-transaction.ts.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { currentDeadline } from './deadline.js';
import {
  type AwaitingNumber,
  commitGroup,
  type GroupEnd,
  type GroupTx,
  type Job,
  type Numbering,
  type StateRead,
  type Stored,
} from './group-transaction.js';

export {
  type AwaitingNumber,
  type DocumentTx,
  type DocumentWriter,
  type GroupTx,
  groupCommitStats,
  MAX_RETRIES,
  type Numbering,
  numberingOf,
  oncePerWriteSet,
  type StateRead,
  type Stored,
  storedNumbering,
  type WritePart,
  type WriterPart,
} from './group-transaction.js';

/** Most documents in one transaction: PostgreSQL caches 64 subtransactions per backend before overflowing. */
export const MAX_GROUP = 32;
/**
 * Groups of one key storing at once (`GROUP_COMMIT_PARALLEL` of the service's config, 1–8; default 1).
 * One group at a time makes the groups as large as the waiting documents allow, which costs the least CPU
 * per document; measured on 2 cores under load (docs/benchmarks.md, issue #24), 3 groups in flight cost
 * 10–20 % more CPU per document for no more documents per second. Where the database is far (its round
 * trips, not CPU, the bound), more groups in flight let one group's work overlap another's waiting, for
 * documents of different ordners (one ordner's groups wait for each other on its counter row).
 */
let parallelGroups = 1;

/** Sets {@link parallelGroups} (service start-up, from `GROUP_COMMIT_PARALLEL`). */
export function setParallelGroups(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > 8)
    throw new Error(`GROUP_COMMIT_PARALLEL must be 1 to 8, not ${n}`);
  parallelGroups = n;
}

const queues = new Map<string, Job[]>();
const running = new Map<string, number>();
/** Locks declared by the documents of the running groups of this process (all keys). */
const held = new Map<string, number>();

/**
 * Stores a document in a transaction shared with the other documents of `key` that are waiting (see the
 * module comment) and resolves, after the commit, to its write set and the record number it was stored
 * under (the command maps its reply from them). `em` is the request's EntityManager (the group's
 * transaction is begun on the first document's); `opts.numbering` is where its number comes from
 * (`numberingOf`; reserved with the group's `begin` unless given by hand), `opts.locks` its stock keys,
 * `opts.reads` the reads the group makes for all its documents with its `begin` (`StateRead`; a document
 * gets its state with `g.state`). `work` reads through `g`, decides, and hands over `{writeSet, writer}`;
 * writes it cannot hand over (a repost) it makes after `g.savepoint()`. Rejects with `work`'s own error
 * (nothing of the document stored), or with the group's error (nothing of the group stored).
 */
export function groupCommit<W>(
  key: string,
  em: EntityManager,
  work: (g: GroupTx) => Promise<AwaitingNumber<W>>,
  opts: {
    numbering: Numbering;
    locks?: readonly string[];
    lazySavepoint?: boolean;
    info?: unknown;
    reads?: readonly StateRead<any, any>[];
  },
): Promise<Stored<W>> {
  return new Promise<Stored<W>>((resolve, reject) => {
    const job: Job = {
      locks: opts.locks ?? [],
      em,
      work: work as Job['work'],
      resolve: resolve as (v: unknown) => void,
      reject,
      deadline: currentDeadline(),
      tries: 0,
      queuedAt: performance.now(),
      lazySavepoint: opts.lazySavepoint ?? false,
      solo: false,
      info: opts.info,
      reads: opts.reads ?? [],
      numbering: opts.numbering,
    };
    const queue = queues.get(key);
    if (queue) queue.push(job);
    else queues.set(key, [job]);
    startSoon(key);
  });
}

/** Keys whose groups start at the end of this turn of the event loop. */
const starting = new Set<string>();

/**
 * Starts `key`'s groups at the end of this turn of the event loop, so that the documents that arrive in
 * one turn (the requests of one NATS message, serve.ts and batch.ts) go as one group instead of the first
 * alone and the rest after it (issue #24).
 */
function startSoon(key: string): void {
  if (starting.has(key)) return;
  starting.add(key);
  setImmediate(() => {
    starting.delete(key);
    startGroups(key);
  });
}

/**
 * The group in the order its documents are worked: by round (stable), where a document's round is one
 * more than the highest round of the earlier documents that share a declared lock with it (0: none). A
 * document thus comes after every document whose stock it depends on, and the documents of one round
 * share no lock: each round after the first has its stock read once, after the earlier rounds' writes
 * (issue #24; one round trip for the round instead of two per document, and none of them waits for the
 * next group). Each job's `round` is set.
 */
function inRounds(group: Job[]): Job[] {
  const last = new Map<string, number>();
  for (const job of group) {
    let round = 0;
    for (const l of job.locks) round = Math.max(round, (last.get(l) ?? -1) + 1);
    for (const l of job.locks) last.set(l, round);
    job.round = round;
  }
  if (!group.some((j) => j.round)) return group;
  return group
    .map((job, i) => ({ job, i, round: job.round ?? 0 }))
    .sort((a, b) => a.round - b.round || a.i - b.i)
    .map((x) => x.job);
}

/**
 * Starts groups of `key` while documents wait and fewer than {@link parallelGroups} run. A document whose
 * declared locks (`opts.locks`: its stock keys) are held by a running group of this process waits for that
 * group instead of joining a new one: groups, which lock document after document and so not in one sorted
 * order, never wait for or deadlock with each other. Documents sharing a lock go in one group, in rounds
 * ({@link inRounds}). Waiting documents keep their order, so a later one never overtakes an earlier one on
 * the same lock.
 */
function startGroups(key: string): void {
  for (;;) {
    const queue = queues.get(key);
    const busy = running.get(key) ?? 0;
    if (!queue?.length || busy >= parallelGroups) return;
    let group: Job[] = [];
    const blocked = new Set<string>();
    const rest: Job[] = [];
    for (const job of queue) {
      const free =
        group.length < MAX_GROUP &&
        !group[0]?.solo &&
        (!job.solo || !group.length) &&
        !job.locks.some((l) => held.has(l) || blocked.has(l));
      if (free) group.push(job);
      else {
        rest.push(job);
        // Later documents must not overtake this one on its locks.
        for (const l of job.locks) blocked.add(l);
      }
    }
    if (!group.length) return;
    group = inRounds(group);
    if (rest.length) queues.set(key, rest);
    else queues.delete(key);
    const locks = group.flatMap((j) => j.locks);
    for (const l of locks) held.set(l, (held.get(l) ?? 0) + 1);
    running.set(key, busy + 1);
    // commitGroup settles every document itself; the catch only keeps the key from ever staying busy.
    void commitGroup(group)
      .catch((e): GroupEnd => {
        for (const job of group) job.reject(e);
        return { retry: [], answer: () => undefined };
      })
      .then(({ retry, answer }) => {
        for (const l of locks) {
          const n = (held.get(l) ?? 1) - 1;
          if (n) held.set(l, n);
          else held.delete(l);
        }
        const left = (running.get(key) ?? 1) - 1;
        if (left) running.set(key, left);
        else running.delete(key);
        if (retry.length) queues.set(key, [...retry, ...(queues.get(key) ?? [])]);
        // The documents that waited meanwhile go at once, before this group's documents are answered
        // (their replies are this process's work, which the next group's round trips need not wait for).
        startGroups(key);
        answer();
        // Freed locks may let documents of any key go on.
        for (const k of [...queues.keys()]) if (k !== key) startSoon(k);
      });
  }
}
