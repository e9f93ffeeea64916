/** Pairings of bank entries with invoices (issue #45): what the statement import stores through them. */

export * from './open-invoices.store.js';
export * from './pairing.store.js';
