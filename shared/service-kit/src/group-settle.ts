/**
 * The end of a group's transaction (group-transaction.ts): the documents left take the numbers reserved
 * with the `begin`, in the group's order per counter (numbers used by hand skipped); then ONE statement
 * carries every document's rows, the group's deferred writes and the counters' last values (what the
 * refused documents did not use is given back).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { openingOf } from './group-opening.js';
import type { GroupRun } from './group-run.js';
import { changeStatement } from './set-change.js';
import { type InsertPart, insertStatements, type Statement } from './set-insert.js';

/** The statements of the group's last write, numbers settled and each stored document recorded in `run`. */
export async function settleGroup(
  run: GroupRun,
  opening: ReturnType<typeof openingOf>,
  tx: EntityManager,
): Promise<Statement[]> {
  const parts = new Map<unknown, InsertPart>();
  /** Changes of stored rows (a writer's), in the group's order: before the inserts, in the same statement. */
  const changes: Statement[] = [];
  const counters: Statement[] = [];
  for (const { list, reservation, rows } of await opening.reservations(tx)) {
    const left = list.map((r) => r.jobs.filter((j) => run.waiting.has(j)));
    const settled = await reservation.settle(
      tx,
      rows,
      left.map((jobs) => jobs.length),
    );
    if (settled.counters) counters.push(settled.counters);
    for (const [k, jobs] of left.entries())
      for (const [i, job] of jobs.entries()) {
        const recordNumber = settled.numbers[k][i];
        const doc = run.waiting.get(job)!;
        for (const part of doc.writer(doc.writeSet, recordNumber)) {
          if ('where' in part) {
            changes.push(changeStatement(tx, part));
            continue;
          }
          const into = parts.get(part.entity);
          if (into) into.rows.push(...part.rows);
          else parts.set(part.entity, { entity: part.entity, rows: [...part.rows] });
        }
        run.stored.push({ job, value: { writeSet: doc.writeSet, recordNumber } });
      }
  }
  return [...counters, ...changes, ...run.takePending(), ...insertStatements(tx, [...parts.values()])];
}
