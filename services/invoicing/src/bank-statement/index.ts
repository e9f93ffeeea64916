/** Bank statements (issue #45): the entry as the API shows it, for the pairing kinds' replies. */
export { getEntry } from './statement.reads.js';
