/**
 * How a group's failures are told apart and what becomes of its documents (DESIGN §5 "Record numbers";
 * issue #38: the retry policy as a table with a name per case).
 */
import { AppError } from '@bm/errors';
import type { Job } from './group-document.js';

/** Times a document refused by a deadlock or serialization failure is tried again in a later group. */
export const MAX_RETRIES = 3;

const sqlStateOf = (e: unknown): string | undefined => (e as any)?.code ?? (e as any)?.cause?.code;
/** A document that lost a lock race to another transaction, not one refused for its own data. */
export const isRace = (e: unknown): boolean => {
  const s = sqlStateOf(e);
  return s === '40P01' || s === '40001';
};
/** An error PostgreSQL raised (it aborted the transaction), as opposed to a rule of the document. */
export const isSqlError = (e: unknown): boolean => {
  const s = sqlStateOf(e);
  return !(e instanceof AppError) && typeof s === 'string' && /^[0-9A-Z]{5}$/.test(s);
};

/**
 * The transaction failed where no savepoint could isolate one document: a document's own statement
 * (`job`) outside a savepoint, or the group's shared writes (`job` undefined: culprit unknown).
 */
export class GroupAborted extends Error {
  constructor(
    readonly error: unknown,
    readonly job?: Job,
  ) {
    super('group aborted');
  }
}

/** A document refused alone (its savepoint rolled back, or nothing to undo): tried again after a lock race, else answered. */
export function refuseOrRetry(job: Job, error: unknown, retry: Job[]): void {
  if (isRace(error) && ++job.tries <= MAX_RETRIES) retry.push(job);
  else job.reject(error);
}

/** What became of a group that aborted as a whole, seen from one of its other documents. */
type AbortCase = 'bystander' | 'lockRace' | 'sharedWritesFailed' | 'alone';

/**
 * The retry policy after a group aborted (nothing of it stored), one case per row:
 * - `bystander`: another document's own statement failed: try this one again;
 * - `lockRace`: the group lost a lock race: try again, up to {@link MAX_RETRIES} times;
 * - `sharedWritesFailed`: the shared writes failed, culprit unknown: try again in a group of its own;
 * - `alone`: it failed in a group of its own (or was alone): answer it with the error.
 */
const AFTER_ABORT: Record<AbortCase, (job: Job, error: unknown, retry: Job[]) => void> = {
  bystander: (job, _e, retry) => retry.push(job),
  lockRace: (job, e, retry) => {
    if (++job.tries > MAX_RETRIES) return job.reject(e);
    job.solo = false;
    retry.push(job);
  },
  sharedWritesFailed: (job, _e, retry) => {
    job.solo = true;
    retry.push(job);
  },
  alone: (job, e) => job.reject(e),
};

function abortCase(job: Job, e: GroupAborted, others: number): AbortCase {
  if (e.job) return 'bystander';
  if (isRace(e.error)) return 'lockRace';
  return others > 1 && !job.solo ? 'sharedWritesFailed' : 'alone';
}

/**
 * Answers or puts back the `open` documents of a group that aborted: the culprit, when known, is refused
 * (or tried again after a lock race); the others by {@link AFTER_ABORT}.
 */
export function afterAbort(e: GroupAborted, open: Set<Job>, retry: Job[]): void {
  if (e.job) {
    open.delete(e.job);
    refuseOrRetry(e.job, e.error, retry);
  }
  const others = open.size;
  for (const job of open) AFTER_ABORT[abortCase(job, e, others)](job, e.error, retry);
}
