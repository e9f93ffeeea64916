/** VAT filings: the Easter date the bank's business days need too (issue #45). */
export { easterSunday, shift } from './working-days.js';
