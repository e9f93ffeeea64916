/** The vat slice's face to the other slices of the service (what they may import). */
export * from './input-vat.js';
export * from './vat-code-catalogue.js';
export * from './vat-codes.reads.js';
export * from './vat-number.js';
export * from './vat-paragraph.js';
export * from './vat-selection.js';
