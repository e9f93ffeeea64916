/**
 * Request deadlines inside a service (issue #12 "Idempotent creates"): a message's `Timeout-Ms` header
 * becomes a deadline; every transaction begun while serving it gets `statement_timeout` and
 * `lock_timeout` set to the time left (`set_config(…, true)`: local to the transaction; sent with the
 * `begin` itself, {@link deadlineSettingsSql}), and is rolled back instead of committed once the
 * deadline has passed. So a service that cannot finish in time
 * stores nothing and says so, and the gateway's 504 means "not stored" whenever an answer arrives.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { deadlinePassed } from '@bm/messaging';
import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';

const current = new AsyncLocalStorage<{ deadline: number }>();

/** Runs `fn` with `deadline` (`Date.now()` ms; undefined: none) as the deadline of its transactions. */
export function withDeadline<T>(deadline: number | undefined, fn: () => Promise<T>): Promise<T> {
  if (deadline === undefined) return fn();
  if (Date.now() >= deadline) return Promise.reject(deadlinePassed('the request'));
  return current.run({ deadline }, fn);
}

/** The current request's deadline (`Date.now()` ms), undefined outside a request with one. */
export const currentDeadline = (): number | undefined => current.getStore()?.deadline;

/**
 * Runs `fn` under exactly `deadline`: unlike {@link withDeadline}, an undefined deadline leaves the
 * caller's deadline behind (work done for several requests must not inherit the first one's).
 */
export function underDeadline<T>(deadline: number | undefined, fn: () => Promise<T>): Promise<T> {
  return deadline === undefined ? current.exit(fn) : current.run({ deadline }, fn);
}

/** Milliseconds left before the current request's deadline; undefined outside a request with one. */
export function timeLeftMs(): number | undefined {
  const d = current.getStore()?.deadline;
  return d === undefined ? undefined : d - Date.now();
}

/**
 * Test-only fault injection (issue #12 acceptance "a test hook that delays the service past the
 * deadline"): an in-process test sets `beforeCommitDelayMs`; production code never does.
 */
export const faults: { beforeCommitDelayMs: number } = { beforeCommitDelayMs: 0 };

/**
 * The settings a transaction begun now gets from the current deadline, as SQL to send with its `begin`
 * (prepared-statements.ts `setBeginSuffix`, installed by `initOrm`); undefined without a deadline. The
 * text holds only an integer of this process's own making. No throw past the deadline: the first
 * statement then times out at once and the transaction rolls back as usual (issue #24: one round trip
 * less per transaction than a statement of its own after `begin`).
 */
export function deadlineSettingsSql(): string | undefined {
  const left = timeLeftMs();
  if (left === undefined) return undefined;
  const ms = `${Math.max(Math.floor(left), 1)}ms`;
  return `select set_config('statement_timeout', '${ms}', true), set_config('lock_timeout', '${ms}', true)`;
}

/**
 * What every commit does first: refuses to commit past the current deadline (the transaction is then
 * rolled back, and the caller's 504 means "not stored").
 * @throws 504 Timeout when the deadline has passed
 */
export async function beforeCommit(): Promise<void> {
  if (faults.beforeCommitDelayMs > 0) await new Promise((r) => setTimeout(r, faults.beforeCommitDelayMs));
  const left = timeLeftMs();
  if (left !== undefined && left <= 0) throw deadlinePassed('the transaction');
}

/**
 * The MikroORM subscriber that refuses to commit past the deadline (registered by `initOrm`). Nested
 * transactions (savepoints) inherit the outer one's settings.
 */
export class DeadlineSubscriber implements EventSubscriber {
  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    if (args.transaction?.savepointName) return;
    await beforeCommit();
  }
}
