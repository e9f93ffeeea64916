/** What every service process is built from: config, ORM, bootstrap and master-data endpoints. */

export * from './bootstrap.js';
export * from './bound-query.js';
export * from './config.js';
export * from './crud.js';
export * from './deadline.js';
export * from './document-kind.js';
export * from './documents.js';
export * from './event-delivery.js';
// The group commit is the engine's business (issue #38): a service stores a document through
// `runDocument(kind, …)` (document-kind.ts); these are the shapes a kind is written with.
export {
  type DocumentTx,
  type DocumentWriter,
  groupCommitStats,
  type Numbering,
  numberingOf,
  oncePerWriteSet,
  type StateRead,
  storedNumbering,
  type WritePart,
  type WriterPart,
} from './group-commit.js';
export * from './master-data-cache.js';
export * from './observability.js';
export * from './orm.js';
export * from './outbox.js';
export * from './prepared-statements.js';
export * from './pruning.js';
export * from './record-number.js';
export * from './record-numbers-batch.js';
export * from './set-change.js';
export * from './set-insert.js';
