/**
 * A document kind (issue #38): how one kind of numbered document is stored, as one object read top to
 * bottom, and {@link runDocument}, the one entry into the group commit (group-commit.ts) for it.
 *
 * ```
 * key        which documents share a transaction when they arrive together
 * declare    before the transaction: where its number comes from, its locks, what its group reads
 * read       in the transaction: its state (locked by the group)
 * decide     what it is: its write set (plain data, everything but the record number)
 * writer     the rows its write set is stored as under its record number (pure)
 * reply      what the caller gets back, from what was stored
 * ```
 *
 * A kind works on its own document only: which other documents share its transaction, in which order,
 * and when its state has to be read again after theirs is the engine's business.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { groupCommit } from './group-commit.js';
import type { DocumentTx, DocumentWriter, Numbering, StateRead } from './group-document.js';

/** What a document declares before its transaction (see {@link DocumentKind.declare}). */
export interface Declaration {
  /** Where its record number comes from (`numberingOf`). */
  numbering: Numbering;
  /** The rows it locks (e.g. stock keys, `<warehouseId>:<item>|<lot>`): documents sharing one go in order. */
  locks?: readonly string[];
  /** What it tells its group's reads about itself (e.g. its stock keys and period). */
  info?: unknown;
  /** The state reads its group makes with its `begin` for all its documents (each gets its own state). */
  reads?: readonly StateRead<any, any>[];
  /**
   * `true`: the document takes its savepoint itself (`doc.savepoint()`) before its first write a refusal
   * must undo; until then a refusal has nothing to undo. `false`: a savepoint before its work.
   */
  lazySavepoint?: boolean;
}

/**
 * One kind of numbered document. `In` is the resolved input (references looked up, before any
 * transaction), `S` its state in the transaction, `W` its write set, `R` the reply.
 */
export interface DocumentKind<In, S, W, R> {
  /** The group key, e.g. `warehouse:issue-card`. */
  readonly key: string;
  declare(input: In): Declaration;
  /** Its state, read through the group (`doc.state` of a declared read, or `doc.tx`). */
  read(input: In, doc: DocumentTx): Promise<S>;
  /**
   * Decides the document on its state: its write set. Refuses by throwing (nothing of it is stored).
   * Writes it cannot hand over as rows (a repost) it makes after `doc.savepoint()`; its ledger writes it
   * hands over with `doc.defer`.
   */
  decide(input: In, state: S, doc: DocumentTx): Promise<W>;
  readonly writer: DocumentWriter<W>;
  /** The reply from what was stored (`input` as the kind got it). */
  reply(writeSet: W, recordNumber: string, input: In): R | Promise<R>;
}

/**
 * Stores one document of `kind` (its input resolved) in its kind's group commit and resolves, after the
 * commit, to its reply. `em` is the request's EntityManager. Rejects with the kind's refusal (nothing of
 * the document stored) or the group's error (nothing of the group stored).
 */
export async function runDocument<In, S, W, R>(
  kind: DocumentKind<In, S, W, R>,
  em: EntityManager,
  input: In,
): Promise<R> {
  const declared = kind.declare(input);
  const stored = await groupCommit<W>(
    kind.key,
    em,
    async (g) => {
      // The kind sees its own document only (DocumentTx), not the group's places and rounds.
      const doc: DocumentTx = { tx: g.tx, savepoint: g.savepoint, defer: g.defer, state: g.state };
      const state = await kind.read(input, doc);
      return { writeSet: await kind.decide(input, state, doc), writer: kind.writer };
    },
    declared,
  );
  return kind.reply(stored.writeSet, stored.recordNumber, input);
}
