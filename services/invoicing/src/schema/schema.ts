/** The invoicing service's PostgreSQL schema (DESIGN §1). */
export const SCHEMA = 'invoicing';
