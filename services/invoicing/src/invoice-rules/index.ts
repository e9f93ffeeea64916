/** The invoice-rules slice's face to the other slices of the service (what they may import). */
export * from './invoice-accounting.js';
export * from './invoice-calculation.js';
export * from './invoice-rows.js';
