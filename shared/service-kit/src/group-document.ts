/**
 * What a document of a group commit (group-commit.ts) declares, sees and hands over (issue #24): the
 * state reads its group makes for all its documents ({@link StateRead}), the shared transaction as its work
 * sees it ({@link GroupTx}), where its number comes from ({@link Numbering}), what it decided and the
 * writer that stores it ({@link AwaitingNumber}), and the scheduler's record of it ({@link Job}).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ChangePart, changeStatement } from './set-change.js';
import { type InsertPart, insertStatements, type Statement } from './set-insert.js';

/**
 * Rows of one kind of write (`kind`: e.g. `warehouse.stock_movement insert`) that a document hands to its
 * group instead of writing them itself: the group merges the rows of every document's parts of one kind
 * and writes them with one statement (`build`), in the group's last statement.
 */
export interface WritePart {
  kind: string;
  rows: unknown[];
  build: (rows: unknown[]) => Statement;
}

/**
 * The state a document is decided on, read by its group for all the documents that declared the read
 * (`Declaration.reads`; their declarations are their `info`), with the group's `begin` (issue #24: the
 * round trips of a group are its critical path): their periods locked and checked, their stock keys'
 * balances locked and read. A document gets its own state with {@link DocumentTx.state} and never sees
 * the others': which documents share the group, and which of them must read again after the earlier
 * ones wrote (rounds), is the engine's business (issue #38).
 */
export interface StateRead<D, T> {
  /** Names the read (made once per group). */
  key: string;
  /**
   * The statements made with the group's `begin` for its documents `all` (their declarations, in the
   * group's order): whatever locks the state of every one of them (one statement, sorted, so two groups
   * never wait for each other in opposite orders), and reads the state of those in the first round
   * (`first[i]`: no earlier document of the group shares a declared lock with document i). Prepared,
   * with bind parameters; each statement on a snapshot of its own, so a read after a lock sees the rows
   * as locked.
   */
  statements(all: readonly D[], first: readonly boolean[]): Statement[];
  /** Each document's state (of `all`) from those statements' rows; may read more through `tx`. */
  states(
    rows: unknown[][],
    tx: EntityManager,
    all: readonly D[],
    first: readonly boolean[],
  ): T[] | Promise<T[]>;
  /**
   * The documents of a later round (they share a lock with an earlier document, none with each other)
   * read again once the earlier rounds' writes are made, in the same round trip: the statements, then each
   * one's state from their rows and its state from the opening (`before`). Absent: the opening's state
   * holds in every round.
   */
  again?: {
    statements(round: readonly D[]): Statement[];
    states(
      rows: unknown[][],
      tx: EntityManager,
      round: readonly D[],
      before: readonly T[],
    ): T[] | Promise<T[]>;
  };
}

/** What a document's read and decision see of its group's transaction (document-kind.ts). */
export interface DocumentTx {
  tx: EntityManager;
  /**
   * A document with `lazySavepoint` calls this before its first write that a later refusal of the
   * document must undo (its savepoint is taken then, not before its work). No-op when it has one.
   */
  savepoint(): Promise<void>;
  /**
   * Hands the document's writes to the group: they are stored with the group's last statement if the
   * document's work succeeds, merged with other documents' of the same kind; forgotten if it fails.
   */
  defer(parts: WritePart[]): void;
  /** This document's state of `read` (one it declared; see {@link StateRead}). Rejects with the read's error. */
  state<T>(read: StateRead<any, T>): Promise<T>;
}

/**
 * The shared transaction as a document's work sees it inside the engine: the {@link DocumentTx} of a
 * document kind, and what the engine's own tests drive directly (its place, its peers and rounds).
 */
export interface GroupTx extends DocumentTx {
  /**
   * Runs `fn` once per group for `key` (a period's share lock and check): later documents of the group
   * get the same result. What a document did under its savepoint is forgotten if it rolls back.
   */
  once<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Writes every deferred part now and then runs `statements` (reads that must see those writes), in
   * one round trip (pipelined, as a {@link StateRead}); resolves to each statement's rows.
   * A failure fails the whole group (nothing of it is stored; its documents are tried again).
   */
  flushThen(statements: Statement[]): Promise<unknown[][]>;
  /**
   * What each document of the group declared (`opts.info` of `groupCommit`), in the group's order, so
   * that the first can read for all (one statement instead of one per document); `self` is this one's.
   */
  peers: readonly unknown[];
  /**
   * Each document's round (in the order of `peers`): 0 when no earlier document of the group shares a
   * declared lock with it, else one more than the highest round of those that do. The group is in
   * round order, and the documents of one round share no lock (group-commit.ts `inRounds`).
   */
  rounds: readonly number[];
  self: number;
}

/** Where a document's record number comes from (DESIGN §5 "Record numbers"). */
export interface Numbering {
  schema: string;
  companyId: string;
  ordner: { id: string; numberFormat: string };
  /** Year of the date that decides the number (dateOperation of cards, dateCreated of invoices). */
  year: number;
  /** The documents' table (`"warehouse"."issue_card"`), whose numbers used by hand are skipped. */
  table: string;
  /** A number given by the client (already checked free): stored at once, under the savepoint. */
  given?: string;
}

/**
 * A kind's writer (`<slice>/*.writer.ts`): the rows that store `writeSet` under `recordNumber`, and for
 * a change of a stored document the statements that update it. Pure, no I/O; the group commit calls it
 * once the number is known.
 */
export type DocumentWriter<W> = (writeSet: W, recordNumber: string) => WriterPart[];

/** What a writer hands back: rows to insert, or a change (update, removal) of stored rows. */
export type WriterPart = InsertPart | ChangePart;

/**
 * The statements of writer parts `parts`: the changes first, each on its own (a removal and an insert of
 * the same key must not share a statement's snapshot), then the inserts.
 */
export function writerStatements(
  em: EntityManager,
  parts: WriterPart[],
): { changes: Statement[]; inserts: Statement[] } {
  const changes = parts.filter((p): p is ChangePart => 'where' in p).map((p) => changeStatement(em, p));
  const inserts = insertStatements(
    em,
    parts.filter((p): p is InsertPart => !('where' in p)),
  );
  return { changes, inserts };
}

/**
 * What a document's work hands the group (step 2): what it decided (`writeSet`, plain data: everything
 * but the record number, ids included) and the writer that turns it and its number into rows. Where its
 * number comes from it declared before (`groupCommit`'s `opts.numbering`).
 */
export interface AwaitingNumber<W> {
  writeSet: W;
  writer: DocumentWriter<W>;
}

/**
 * `fn` (what a document is stored as under its record number: rows, entries) computed once per write set
 * and number: a writer and the command's reply after the commit call it with the same write set, and get
 * the same rows (ids included) without building them twice.
 */
export function oncePerWriteSet<W extends object, R>(
  fn: (w: W, recordNumber: string) => R,
): (w: W, recordNumber: string) => R {
  const done = new WeakMap<W, { recordNumber: string; value: R }>();
  return (w, recordNumber) => {
    const hit = done.get(w);
    if (hit?.recordNumber === recordNumber) return hit.value;
    const value = fn(w, recordNumber);
    done.set(w, { recordNumber, value });
    return value;
  };
}

/** A stored document, as `groupCommit` resolves: its write set and the record number it was stored under. */
export interface Stored<W> {
  writeSet: W;
  recordNumber: string;
}

/**
 * Where a document's number comes from, as `groupCommit`'s `opts.numbering` takes it: documents of
 * `table` (`"<schema>"."<name>"`, e.g. `"warehouse"."issue_card"`; the counter's schema comes from it),
 * the year from `date` (`YYYY-MM-DD`: dateOperation of cards, dateCreated of invoices); `given` is a
 * number the client gave (checked free by the document's work).
 */
export function numberingOf(n: {
  table: string;
  companyId: string;
  ordner: { id: string; numberFormat: string };
  date: string;
  given?: string | null;
}): Numbering {
  const schema = /^"([^"]+)"\./.exec(n.table)?.[1];
  if (!schema) throw new Error(`numberingOf: ${n.table} is not "<schema>"."<table>"`);
  return {
    schema,
    table: n.table,
    companyId: n.companyId,
    ordner: n.ordner,
    year: Number(n.date.slice(0, 4)),
    given: n.given?.trim() || undefined,
  };
}

/**
 * Where the number of a change of a stored document comes from (an update, a payment, a cancellation):
 * it keeps `recordNumber`; nothing is reserved, and its writes are made with its work.
 */
export function storedNumbering(table: string, companyId: string, recordNumber: string): Numbering {
  return numberingOf({
    table,
    companyId,
    ordner: { id: '', numberFormat: '' },
    date: '0000',
    given: recordNumber,
  });
}

/** One document waiting for, or in, a group. */
export interface Job {
  /** Row locks the document will take (stock keys), for {@link startGroups}. */
  locks: readonly string[];
  em: EntityManager;
  work: (g: GroupTx) => Promise<AwaitingNumber<unknown>>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  deadline: number | undefined;
  tries: number;
  /** `performance.now()` when it was queued: its wait is a metric (issue #25). */
  queuedAt: number;
  /**
   * The work takes its savepoint itself ({@link GroupTx.savepoint}) before its first write that must be
   * undone if it is refused; until then a refusal leaves nothing to undo (reads and row locks only).
   */
  lazySavepoint: boolean;
  /** Stored in a group of its own: its group's shared writes failed and the culprit is not known. */
  solo: boolean;
  /**
   * Its round in its group (group-commit.ts `inRounds`): 0 when no earlier document of the group shares
   * a declared lock with it, else one more than the highest round of those that do.
   */
  round?: number;
  /** What the document declares to the other documents of its group ({@link GroupTx.peers}). */
  info?: unknown;
  /** The state reads its group makes for it with its `begin` ({@link StateRead}). */
  reads: readonly StateRead<unknown, unknown>[];
  /** Where its number comes from (reserved with the group's `begin` unless given by hand). */
  numbering: Numbering;
}

/** Deferred write parts merged per kind, in first-seen order, as one statement each. */
export function mergedStatements(parts: WritePart[]): Statement[] {
  const byKind = new Map<string, WritePart>();
  for (const p of parts) {
    const into = byKind.get(p.kind);
    if (into) into.rows.push(...p.rows);
    else byKind.set(p.kind, { ...p, rows: [...p.rows] });
  }
  return [...byKind.values()].filter((p) => p.rows.length).map((p) => p.build(p.rows));
}
