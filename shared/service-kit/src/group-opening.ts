/**
 * What a group of the group commit does with its `begin` (issue #24; group-transaction.ts): the reads its
 * documents declared and the reservation of their record numbers, pipelined behind the `begin`.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { driverStatements } from './bound-query.js';
import { connectionOf } from './group-connection.js';
import type { Job } from './group-document.js';
import { type NumberRequest, reserveNumbers } from './record-numbers-batch.js';

/** The documents of a group that take numbers from one counter request, in the group's order. */
interface NumberedJobs {
  request: NumberRequest;
  jobs: Job[];
}

/**
 * What a group does with its `begin` (issue #24): the reads its documents declared ({@link GroupRead},
 * once per key) and the reservation of the record numbers of its documents not numbered by hand
 * (record-numbers-batch.ts `reserveNumbers`, one statement per documents' table), sent right behind the
 * `begin` (`sent`, for group-connection.ts). Inside the transaction, `rows(tx)` is every statement's
 * rows (those that came with the `begin`, or, on a connection that does not pipeline, read now), and
 * `reads(tx)` each read's result by key, made once, when a document first asks for it.
 */
export function openingOf(group: Job[], peers: readonly unknown[]) {
  const reads = [...new Map(group.flatMap((j) => j.reads).map((r) => [r.key, r])).values()].map((r) => ({
    read: r,
    statements: r.statements(peers),
  }));
  const byRequest = new Map<string, NumberedJobs>();
  for (const job of group) {
    const n = job.numbering;
    if (n.given) continue;
    const id = `${n.schema}|${n.table}|${n.companyId}|${n.ordner.id}|${n.year}`;
    const r = byRequest.get(id) ?? { request: { ...n, n: 0 }, jobs: [] };
    r.request.n++;
    r.jobs.push(job);
    byRequest.set(id, r);
  }
  const byTable = new Map<string, NumberedJobs[]>();
  for (const r of byRequest.values()) {
    const t = `${r.request.schema}|${r.request.table}`;
    byTable.set(t, [...(byTable.get(t) ?? []), r]);
  }
  const numbering = [...byTable.values()].map((list) => ({
    list,
    reservation: reserveNumbers(list.map((r) => r.request)),
  }));
  const all = [...reads.flatMap((r) => r.statements), ...numbering.map((n) => n.reservation.statement)];
  const sent = driverStatements(all);
  let rows: Promise<unknown[][]> | undefined;
  const allRows = (tx: EntityManager) => {
    rows ??= all.length ? connectionOf(tx).openingRows() : Promise.resolve([]);
    return rows;
  };
  const readsOf = (tx: EntityManager): Map<string, () => Promise<unknown>> => {
    const out = new Map<string, () => Promise<unknown>>();
    let at = 0;
    for (const r of reads) {
      const from = at;
      at += r.statements.length;
      let result: Promise<unknown> | undefined;
      out.set(r.read.key, () => {
        result ??= allRows(tx).then((rs) => r.read.result(rs.slice(from, at), tx, peers));
        return result;
      });
    }
    return out;
  };
  /** Each numbered table's reservation, its requests, and the reservation statement's rows. */
  const reservations = async (tx: EntityManager) => {
    const rs = await allRows(tx);
    const first = rs.length - numbering.length;
    return numbering.map((n, k) => ({ ...n, rows: rs[first + k] }));
  };
  return { sent, rows: allRows, reads: readsOf, reservations };
}
