/**
 * The state of one group while its transaction runs (group-transaction.ts): its documents still open,
 * what was stored and what goes back, the documents waiting for a number, the writes deferred to the
 * group's last statement, and the reads made once per group.
 */
import type { AwaitingNumber, Job, Stored, WritePart } from './group-document.js';
import { mergedStatements } from './group-document.js';
import { GroupAborted } from './group-failure.js';
import { executeAll } from './set-insert.js';

/** One group's run. */
export class GroupRun {
  /** Documents not yet refused or put back: the group's outcome is theirs. */
  readonly open: Set<Job>;
  readonly peers: readonly unknown[];
  readonly rounds: readonly number[];
  readonly stored: { job: Job; value: Stored<unknown> }[] = [];
  readonly retry: Job[] = [];
  /** Documents done whose number comes with the group's last statement. */
  readonly waiting = new Map<Job, AwaitingNumber<unknown>>();
  /** Results of `once` and of later reads, by key, for the whole group. */
  readonly onceDone = new Map<string, Promise<unknown>>();
  /** Deferred writes of the documents done so far. */
  pending: WritePart[] = [];

  constructor(readonly group: Job[]) {
    this.open = new Set(group);
    this.peers = group.map((j) => j.info);
    this.rounds = group.map((j) => j.round ?? 0);
  }

  /** Takes the deferred writes (merged per kind) out of the group. */
  takePending() {
    const statements = mergedStatements(this.pending);
    this.pending = [];
    return statements;
  }

  /** Makes the deferred writes now. @throws GroupAborted (culprit unknown) */
  async flush(tx: Parameters<typeof executeAll>[0]): Promise<void> {
    if (!this.pending.length) return;
    try {
      await executeAll(tx, this.takePending());
    } catch (e) {
      throw new GroupAborted(e);
    }
  }
}
