/**
 * The stock ledger's face to the document slices of the warehouse (DESIGN §5): a document's stock state
 * read by its group, its posting planned and stored (a back-dated one reposting the later movements), the
 * pure rules a document's decision uses, and the stock report.
 */
export * from './ledger-posting.js';
export * from './receipt-layers.reads.js';
export * from './rules/ledger-replay.js';
export * from './rules/shortfall.js';
export * from './rules/warehouse-accounting.js';
export * from './stock-report.js';
export * from './stock-state.reads.js';
