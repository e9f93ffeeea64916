/**
 * The master-data slice's face to the other slices of the warehouse: references of a document resolved
 * (ordner, warehouse, items, units, lots locally; partner, period and report over NATS) and the
 * warehouse's copy of the accounting periods' states.
 */
export * from './period-state.js';
export * from './references.js';
export * from './references.port.js';
