/** The warehouse service's PostgreSQL schema (DESIGN §1). */
export const SCHEMA = 'warehouse';
