/**
 * Invoice operations (INTERFACE §4.2, §4.3; DESIGN §2 "Single records"): lists by page, records by id on
 * the same path (a GUID segment is an id, an integer a page), create, update, and the payment and
 * cancel extensions of sales invoices.
 */
import {
  addPayment,
  cancelSalesInvoice,
  createPurchaseInvoice,
  createSalesInvoice,
  Guid,
  getPurchaseInvoice,
  getSalesInvoice,
  listPurchaseInvoices,
  listSalesInvoices,
  Page,
  PaymentInput,
  PurchaseInvoice,
  PurchaseInvoiceInput,
  PurchaseInvoiceListItem,
  PurchaseInvoiceListQuery,
  SalesInvoice,
  SalesInvoiceInput,
  SalesInvoiceListItem,
  SalesInvoiceListQuery,
  SalesInvoiceUpdate,
  updateSalesInvoice,
  z,
} from '@bm/contracts';
import { bankOperations } from './bank-operations.routes.js';
import { inboxOperations } from './inbox.routes.js';
import type { Operation } from './operation.js';
import { pagedReads } from './paged-reads.js';
import { taxOperations } from './tax.routes.js';

const IdParams = z.object({ id: Guid() });

export const invoiceOperations: Operation[] = [
  ...pagedReads({
    path: '/1.6/sales/invoices',
    tag: 'Sales invoices',
    listSummary: 'Sales invoices list view',
    what: 'sales invoice',
    description:
      'An integer segment is a page of the list view (newest first, 50 a page, filters dateFrom, dateTo, partnerId, state); a GUID is one invoice with rows, VAT summary, payments and accounting entries.',
    list: listSalesInvoices,
    query: SalesInvoiceListQuery,
    listReply: Page(SalesInvoiceListItem),
    listRoot: 'SalesInvoices',
    get: getSalesInvoice,
    reply: SalesInvoice,
    root: 'SalesInvoice',
  }),
  {
    method: 'post',
    path: '/1.6/sales/invoices',
    summary: 'Create a sales invoice (record or creation mode)',
    tag: 'Sales invoices',
    body: { schema: SalesInvoiceInput },
    reply: SalesInvoice,
    xmlRoot: 'SalesInvoice',
    status: 201,
    run: ({ body }, call) => call(createSalesInvoice, body),
  },
  {
    method: 'put',
    path: '/1.6/sales/invoices/{id}',
    summary: 'Update a sales invoice (all data, not a patch; only when issued and its period open)',
    tag: 'Sales invoices',
    params: IdParams,
    body: { schema: SalesInvoiceUpdate, accepted: SalesInvoice },
    reply: SalesInvoice,
    xmlRoot: 'SalesInvoice',
    run: ({ params, body }, call) => call(updateSalesInvoice, { id: params.id, data: body }),
  },
  {
    method: 'post',
    path: '/1.6/sales/invoices/{id}/payments',
    summary: 'Record a payment of a sales invoice',
    tag: 'Sales invoices',
    params: IdParams,
    body: { schema: PaymentInput },
    reply: SalesInvoice,
    xmlRoot: 'SalesInvoice',
    status: 201,
    run: ({ params, body }, call) => call(addPayment, { id: params.id, data: body }),
  },
  {
    method: 'post',
    path: '/1.6/sales/invoices/{id}/cancel',
    summary: 'Cancel an unpaid sales invoice',
    tag: 'Sales invoices',
    params: IdParams,
    reply: SalesInvoice,
    xmlRoot: 'SalesInvoice',
    run: ({ params }, call) => call(cancelSalesInvoice, params),
  },
  ...pagedReads({
    path: '/1.6/purchase/invoices',
    tag: 'Purchase invoices',
    listSummary: 'Purchase invoices',
    what: 'purchase invoice',
    description:
      'An integer segment is a page (newest first, 50 a page, filters dateFrom, dateTo, partnerId); a GUID is one invoice with rows and accounting entries.',
    list: listPurchaseInvoices,
    query: PurchaseInvoiceListQuery,
    listReply: Page(PurchaseInvoiceListItem),
    listRoot: 'PurchaseInvoices',
    get: getPurchaseInvoice,
    reply: PurchaseInvoice,
    root: 'PurchaseInvoice',
  }),
  {
    method: 'post',
    path: '/1.6/purchase/invoices',
    summary: 'Create a purchase invoice',
    tag: 'Purchase invoices',
    body: { schema: PurchaseInvoiceInput },
    reply: PurchaseInvoice,
    xmlRoot: 'PurchaseInvoice',
    status: 201,
    run: ({ body }, call) => call(createPurchaseInvoice, body),
  },
  // Issue #35: the inbox of received e-invoices and the company's access point.
  ...inboxOperations,
  ...bankOperations,
  // Issue #37: the VAT filings.
  ...taxOperations,
];
