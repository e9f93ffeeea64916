/**
 * What a group of the group commit does with its `begin` (issue #24; group-transaction.ts): the reads its
 * documents declared and the reservation of their record numbers, pipelined behind the `begin`.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { driverStatements } from './bound-query.js';
import { connectionOf } from './group-connection.js';
import type { Job, StateRead } from './group-document.js';
import { type NumberRequest, reserveNumbers } from './record-numbers-batch.js';

/** The documents of a group that take numbers from one counter request, in the group's order. */
interface NumberedJobs {
  request: NumberRequest;
  jobs: Job[];
}

/** The reads made with the group's `begin`, by key: who declared each, and their states by place. */
export type OpenedReads = Map<string, { members: ReadMembers; states: () => Promise<Map<number, unknown>> }>;

/** A state read of a group and the documents (by place) that declared it, with their rounds. */
export interface ReadMembers {
  read: StateRead<unknown, unknown>;
  places: number[];
  infos: unknown[];
  first: boolean[];
}

/** Each state read the group's documents declared (once per key), with the documents that declared it. */
export function readMembers(group: Job[]): ReadMembers[] {
  const byKey = new Map<string, ReadMembers>();
  group.forEach((job, place) => {
    for (const read of job.reads) {
      const m = byKey.get(read.key) ?? { read, places: [], infos: [], first: [] };
      m.places.push(place);
      m.infos.push(job.info);
      m.first.push(!job.round);
      byKey.set(read.key, m);
    }
  });
  return [...byKey.values()];
}

/**
 * What a group does with its `begin` (issue #24): the state reads its documents declared ({@link StateRead},
 * once per key, for the documents that declared it) and the reservation of the record numbers of its documents not numbered by hand
 * (record-numbers-batch.ts `reserveNumbers`, one statement per documents' table), sent right behind the
 * `begin` (`sent`, for group-connection.ts). Inside the transaction, `rows(tx)` is every statement's
 * rows (those that came with the `begin`, or, on a connection that does not pipeline, read now), and
 * `reads(tx)` each read's states by key (each document's, by place), made once, when a document first
 * asks for its state.
 */
export function openingOf(group: Job[]) {
  const reads = readMembers(group).map((m) => ({ ...m, statements: m.read.statements(m.infos, m.first) }));
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
  const readsOf = (tx: EntityManager): OpenedReads => {
    const out: OpenedReads = new Map();
    let at = 0;
    for (const r of reads) {
      const from = at;
      at += r.statements.length;
      let result: Promise<Map<number, unknown>> | undefined;
      out.set(r.read.key, {
        members: r,
        states: () => {
          result ??= allRows(tx)
            .then((rs) => r.read.states(rs.slice(from, at), tx, r.infos, r.first))
            .then((states) => new Map(r.places.map((place, k) => [place, states[k]])));
          return result;
        },
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
