/** Helpers for the warehouse's set-based SQL (issue #10, #13). */
export { pgArray } from '@bm/service-kit';
