/** The e-invoice-format slice's face to the other slices of the service (what they may import). */
export * from './delivery.js';
export * from './from-sales-invoice.js';
export * from './inbox.js';
export * from './model.js';
export * from './peppol-endpoint.js';
export * from './preflight.js';
export * from './received-view.js';
export * from './source.js';
export * from './to-purchase-invoice.js';
export * from './ubl-read.js';
export * from './ubl-write.js';
