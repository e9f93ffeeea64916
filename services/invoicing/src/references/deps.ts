/** What the invoicing commands need: the service kit and the outbox's wake-up. */
import type { DocumentDeps } from '@bm/service-kit';

export type InvoicingDeps = DocumentDeps;
