/** VAT filings: the Easter date the bank's business days need too (issue #45). */
export { easterSunday } from './working-days.js';
