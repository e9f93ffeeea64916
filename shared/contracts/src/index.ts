/** Every NATS contract of the system and the primitives they are built from. */

export * from './access-point/participants.contract.js';
export * from './access-point/settings.contract.js';
export * from './asyncapi.js';
export * from './catalogue.js';
export * from './common.contract.js';
export * from './contract.js';
export * from './crud.js';
export * from './events.js';
export * from './invoicing/e-invoice-delivery.contract.js';
export * from './invoicing/e-invoices.contract.js';
export * from './invoicing/inbox.contract.js';
export * from './invoicing/invoices.contract.js';
export * from './invoicing/lookups.contract.js';
export * from './invoicing/master-data.contract.js';
export * from './invoicing/purchase-invoices.contract.js';
export * from './invoicing/vat-filings.contract.js';
export * from './permissions.js';
export * from './primitives.js';
export * from './problems.js';
export * from './reporting/printout.contract.js';
export * from './reporting/reports.contract.js';
export * from './warehouse/documents.contract.js';
export * from './warehouse/master-data.contract.js';
