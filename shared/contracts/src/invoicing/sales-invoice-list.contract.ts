/**
 * The sales-invoice list (INTERFACE §4.3: joined with partners and ordners; filters are extensions).
 * Subject `invoicing.sales-invoices.list`. Amounts in the invoice currency with 2 decimals.
 */
import { defineContract } from '../contract.js';
import { Amount, Bool, DateOnly, Guid, Page, PageQuery, z } from '../primitives.js';
import { EInvoiceDeliveryStatus } from './e-invoice-delivery.contract.js';
import { InvoiceState, PaymentStatus, VatSummaryLine } from './invoices.contract.js';

/** One line of the sales-invoice list view (INTERFACE §4.3: joined with partners and ordners). */
export const SalesInvoiceListItem = z.object({
  id: Guid(),
  recordNumber: z.string(),
  ordnerId: Guid(),
  ordnerCode: z.string(),
  warehouseId: Guid(),
  partnerId: Guid().nullable(),
  /** The invoice's own partner snapshot (name and address as invoiced); renaming the partner later changes nothing here. */
  partnerDetail: z.string().nullable(),
  /** The first line of `partnerDetail`. */
  partnerName: z.string().nullable(),
  partnerCountry: z.string().nullable(),
  partnerNumber3: z.string().nullable(),
  dateCreated: DateOnly(),
  dateAccounting: DateOnly(),
  dateDelivery: DateOnly().nullable(),
  dateValidTo: DateOnly().nullable(),
  symbolVariable: z.string().nullable(),
  warehouseRecordNo: z.string().nullable(),
  currency: z.string(),
  bankAccountId: Guid().nullable(),
  /** The IBAN of the invoice's bank account (electronic format). */
  iban: z.string().nullable(),
  vatCode: z.string(),
  sumBase: Amount(),
  sumVat: Amount(),
  sumTotal: Amount(),
  vatSummary: z.array(VatSummaryLine),
  balance: Amount(),
  state: InvoiceState,
  /** Extension (issue #45). */
  paymentStatus: PaymentStatus,
  /** Extension (issue #23): the e-invoice's delivery status (`draft` when not issued). */
  eInvoiceStatus: EInvoiceDeliveryStatus,
});

/** List query: paging plus the filter extensions. */
export const SalesInvoiceListQuery = PageQuery.extend({
  dateFrom: DateOnly().optional(),
  dateTo: DateOnly().optional(),
  partnerId: Guid().optional(),
  state: InvoiceState.optional(),
  /** Extension (issue #23): only invoices whose e-invoice has this delivery status (`draft`: not issued). */
  eInvoiceStatus: EInvoiceDeliveryStatus.optional(),
  /** Extension (issue #45): by payment status, and only the overdue (due before today, not paid in full). */
  paymentStatus: PaymentStatus.optional(),
  overdue: Bool().optional(),
});

export const listSalesInvoices = defineContract({
  subject: 'invoicing.sales-invoices.list',
  request: SalesInvoiceListQuery,
  reply: Page(SalesInvoiceListItem),
});
