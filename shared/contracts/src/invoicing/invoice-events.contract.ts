/**
 * Events of invoicing (DESIGN §5 "Events"; JetStream stream `EVENTS`, subjects `events.invoicing.*`): one
 * per stored or changed invoice and e-invoice, published through the outbox.
 */
import { Amount, Guid, z } from '../primitives.js';

/** Events of invoicing (JetStream `EVENTS`). */
export const InvoiceEventSubjects = {
  salesInvoiceCreated: 'events.invoicing.sales-invoice-created',
  salesInvoiceUpdated: 'events.invoicing.sales-invoice-updated',
  purchaseInvoiceCreated: 'events.invoicing.purchase-invoice-created',
  eInvoiceIssued: 'events.invoicing.e-invoice-issued',
  eInvoiceStatusChanged: 'events.invoicing.e-invoice-status-changed',
} as const;
export const InvoiceEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  invoiceId: Guid(),
  recordNumber: z.string(),
  sumTotal: Amount(),
  state: z.string().optional(),
});
export type InvoiceEvent = z.infer<typeof InvoiceEvent>;
