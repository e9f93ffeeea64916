/** The purchase-invoice slice's face to the other slices of the service (what they may import). */
export * from './purchase-input-vat.js';
export * from './purchase-invoice.kind.js';
