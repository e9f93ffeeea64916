/**
 * One document's work inside its group's transaction (group-transaction.ts): the group's view it works
 * through ({@link GroupTx}), its savepoint (taken before its work, or lazily before its first write that
 * a refusal must undo), and what its outcome leaves: rows written at once for a number given by hand,
 * else its writes deferred and its number awaited; a refusal undone to its savepoint.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { execPipelined } from './bound-query.js';
import {
  type AwaitingNumber,
  type GroupTx,
  type Job,
  mergedStatements,
  type StateRead,
  type WritePart,
  writerStatements,
} from './group-document.js';
import { GroupAborted, isSqlError, refuseOrRetry } from './group-failure.js';
import type { OpenedReads } from './group-opening.js';
import type { GroupRun } from './group-run.js';
import { combinedStatement, executeAll, type Statement } from './set-insert.js';

/** Runs document `i` of the group. @throws GroupAborted when its failure cannot be undone alone */
export async function workDocument(
  run: GroupRun,
  tx: EntityManager,
  opened: OpenedReads,
  i: number,
  job: Job,
): Promise<void> {
  const slot = new DocumentSlot(run, tx, opened, i);
  // A group holds documents of several companies: each works with its own company filter.
  const company = job.em.getFilterParams('company');
  if (company) tx.setFilterParams('company', company);
  if (!job.lazySavepoint) await slot.savepoint();
  try {
    const prepared = await job.work(slot.groupTx());
    await tx.flush();
    await slot.keep(job, prepared);
  } catch (e) {
    if (e instanceof GroupAborted) throw e;
    await slot.undo(job, e);
  }
  tx.clear();
}

/** One document's place in the group: its savepoint, its `once` keys and its deferred writes. */
class DocumentSlot {
  private readonly name: string;
  private inSavepoint = false;
  /** `once` keys this document made first (forgotten when it rolls back). */
  private readonly mine: string[] = [];
  private staged: WritePart[] = [];

  constructor(
    private readonly run: GroupRun,
    private readonly tx: EntityManager,
    private readonly opened: OpenedReads,
    private readonly index: number,
  ) {
    this.name = `doc_${index}`;
  }

  /** Takes the savepoint (once), after the earlier documents' deferred writes: a rollback never takes them. */
  async savepoint(): Promise<void> {
    if (this.inSavepoint) return;
    await this.run.flush(this.tx);
    await this.tx.execute(`savepoint ${this.name}`);
    this.inSavepoint = true;
  }

  /** The document's view of the group. */
  groupTx(): GroupTx {
    const { run, tx } = this;
    const g: GroupTx = {
      tx,
      once: (k, fn) => this.once(k, fn),
      state: <T>(r: StateRead<any, T>) => this.state(r),
      savepoint: () => this.savepoint(),
      defer: (parts) => {
        this.staged.push(...parts);
      },
      flushThen: (statements) => this.flushThen(statements),
      peers: run.peers,
      rounds: run.rounds,
      self: this.index,
    };
    return g;
  }

  /**
   * This document's state of `r`: from the group's opening read (its locks are the transaction's,
   * outside every savepoint), or, in a later round of a read that reads again, from the read of its
   * round, made once for the round after the earlier rounds' writes.
   */
  private async state<T>(r: StateRead<unknown, T>): Promise<T> {
    const opened = this.opened.get(r.key);
    if (!opened) throw new Error(`the document did not declare the state read ${r.key}`);
    const opening = await opened.states();
    const round = this.run.rounds[this.index];
    if (!round || !r.again) return opening.get(this.index) as T;
    const { places, infos } = opened.members;
    const again = r.again;
    const mine = await this.once(`state:${r.key}:${round}`, async () => {
      const ks = places.flatMap((place, k) => (this.run.rounds[place] === round ? [k] : []));
      const rows = await this.flushThen(again.statements(ks.map((k) => infos[k])));
      const states = await again.states(
        rows,
        this.tx,
        ks.map((k) => infos[k]),
        ks.map((k) => opening.get(places[k]) as T),
      );
      return new Map(ks.map((k, n) => [places[k], states[n]]));
    });
    return mine.get(this.index) as T;
  }

  private once<T>(k: string, fn: () => Promise<T>): Promise<T> {
    let p = this.run.onceDone.get(k);
    if (!p) {
      p = fn();
      this.run.onceDone.set(k, p);
      this.mine.push(k);
    }
    return p as Promise<T>;
  }

  /** The deferred writes, then `statements`, in one round trip. @throws GroupAborted */
  private async flushThen(statements: Statement[]): Promise<unknown[][]> {
    const writes = this.run.takePending();
    const all = writes.length ? [combinedStatement(writes), ...statements] : statements;
    if (!all.length) return [];
    try {
      return (await execPipelined(this.tx, all)).slice(all.length - statements.length);
    } catch (e) {
      throw new GroupAborted(e);
    }
  }

  /**
   * The document's work succeeded: with a number given by hand its rows and deferred writes are made at
   * once, under its savepoint (a duplicate number refuses all of it and nothing of the others); else its
   * writes join the group's and it waits for its number.
   */
  async keep(job: Job, prepared: AwaitingNumber<unknown>): Promise<void> {
    const given = job.numbering.given;
    if (!given) {
      this.run.pending.push(...this.staged);
      this.run.waiting.set(job, prepared);
      return;
    }
    await this.savepoint();
    const { changes, inserts } = writerStatements(this.tx, prepared.writer(prepared.writeSet, given));
    // A change of a stored document's rows goes before, each statement on its own snapshot.
    if (changes.length) await execPipelined(this.tx, changes);
    await executeAll(this.tx, [...mergedStatements(this.staged), ...inserts]);
    this.run.stored.push({ job, value: { writeSet: prepared.writeSet, recordNumber: given } });
  }

  /** The document was refused: its savepoint rolled back (or nothing to undo), the document answered or put back. */
  async undo(job: Job, e: unknown): Promise<void> {
    this.staged = [];
    this.tx.clear();
    if (this.inSavepoint) {
      await this.tx.execute(`rollback to savepoint ${this.name}`);
      for (const k of this.mine) this.run.onceDone.delete(k);
    } else if (isSqlError(e)) {
      // PostgreSQL aborted the shared transaction and no savepoint isolates this document.
      throw new GroupAborted(e, job);
    }
    this.run.open.delete(job);
    refuseOrRetry(job, e, this.run.retry);
  }
}
