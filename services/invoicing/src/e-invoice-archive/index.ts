/** The e-invoice-archive slice's face to the other slices of the service (what they may import). */

export * from './e-invoice.store.js';
export * from './e-invoice-delivery.store.js';
export * from './inbox.store.js';
export * from './inbox-attempts.store.js';
