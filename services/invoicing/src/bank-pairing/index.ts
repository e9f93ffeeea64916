/** Pairings of bank entries with invoices (issue #45): what the statement import stores through them. */
export * from './pairing.store.js';
