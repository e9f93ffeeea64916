/** Sales invoices: the state rule the bank's pairings keep on the invoice (issue #45). */
export { stateFromTotals } from './invoice-state.js';
