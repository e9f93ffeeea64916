/** Helpers for the warehouse's set-based SQL (issue #10, #13). */

/** A PostgreSQL array literal of `values` (every element quoted; null as NULL), for `?::type[]`. */
export const pgArray = (values: readonly unknown[]): string =>
  `{${values.map((v) => (v === null || v === undefined ? 'NULL' : `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
