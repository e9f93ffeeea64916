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
  bankStatementImported: 'events.invoicing.bank-statement-imported',
  invoicePaid: 'events.invoicing.invoice-paid',
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

/** A bank statement was imported (issue #45): its account, number, period and what its entries became. */
export const BankStatementImportedEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  statementId: Guid(),
  bankAccountId: Guid(),
  number: z.string(),
  periodFrom: z.string(),
  periodTo: z.string(),
  entryCount: z.number().int(),
  newEntries: z.number().int(),
  paired: z.number().int(),
  unpaired: z.number().int(),
});
export type BankStatementImportedEvent = z.infer<typeof BankStatementImportedEvent>;

/**
 * An invoice's payments changed by the bank (issue #45): a pairing (`amount` signed as the payment, the
 * entry as its source) or its removal (`amount` negated); `paid` is the invoice's sum of payments after it,
 * `paymentStatus` `unpaid`, `partlyPaid`, `paid` or `overpaid`. Amounts in the invoice's currency.
 */
export const InvoicePaidEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  invoiceId: Guid(),
  book: z.enum(['sales', 'purchase']),
  recordNumber: z.string(),
  entryId: Guid().nullable(),
  amount: Amount(),
  sumTotal: Amount(),
  paid: Amount(),
  paymentStatus: z.enum(['unpaid', 'partlyPaid', 'paid', 'overpaid']),
});
export type InvoicePaidEvent = z.infer<typeof InvoicePaidEvent>;
