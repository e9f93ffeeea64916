/** Payment rules (issue #45): how a bank entry pairs, and an invoice's payment status. Pure. */
export * from './pairing.js';
export * from './payment-status.js';
