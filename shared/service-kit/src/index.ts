/** What every service process is built from: config, ORM, bootstrap and master-data endpoints. */

export * from './bootstrap.js';
export * from './bound-query.js';
export * from './config.js';
export * from './crud.js';
export * from './deadline.js';
export * from './document-kind.js';
export * from './documents.js';
export * from './event-delivery.js';
export * from './group-commit.js';
export * from './master-data-cache.js';
export * from './observability.js';
export * from './orm.js';
export * from './outbox.js';
export * from './prepared-statements.js';
export * from './pruning.js';
export * from './record-number.js';
export * from './record-numbers-batch.js';
export * from './set-insert.js';
