/** The references slice's face to the other slices of the service (what they may import). */
export * from './address.js';
export * from './deps.js';
export * from './references.js';
export * from './unit-codes.port.js';
export * from './warehouse.port.js';
