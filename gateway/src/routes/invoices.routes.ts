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
import { isPage, type Operation, PageOrId, pageOf, Rendered } from './operation.js';

const IdParams = z.object({ id: Guid() });
const salesListReply = Page(SalesInvoiceListItem);
const purchaseListReply = Page(PurchaseInvoiceListItem);

export const invoiceOperations: Operation[] = [
  {
    method: 'get',
    path: '/1.6/sales/invoices',
    summary: 'Sales invoices list view, page 1',
    tag: 'Sales invoices',
    query: SalesInvoiceListQuery,
    reply: salesListReply,
    xmlRoot: 'SalesInvoices',
    run: ({ query }, call) => call(listSalesInvoices, query),
  },
  {
    method: 'get',
    path: '/1.6/sales/invoices/{id}',
    summary: 'Sales invoices list view by page number, or one sales invoice by id',
    description:
      'An integer segment is a page of the list view (newest first, 50 a page, filters dateFrom, dateTo, partnerId, state); a GUID is one invoice with rows, VAT summary, payments and accounting entries.',
    tag: 'Sales invoices',
    params: PageOrId,
    query: SalesInvoiceListQuery,
    reply: z.union([salesListReply, SalesInvoice]),
    xmlRoot: 'SalesInvoices',
    run: async ({ params, query }, call) =>
      isPage(params.id)
        ? new Rendered(
            await call(listSalesInvoices, { ...query, page: pageOf(params.id) }),
            salesListReply,
            'SalesInvoices',
          )
        : new Rendered(await call(getSalesInvoice, { id: params.id }), SalesInvoice, 'SalesInvoice'),
  },
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
  {
    method: 'get',
    path: '/1.6/purchase/invoices',
    summary: 'Purchase invoices, page 1',
    tag: 'Purchase invoices',
    query: PurchaseInvoiceListQuery,
    reply: purchaseListReply,
    xmlRoot: 'PurchaseInvoices',
    run: ({ query }, call) => call(listPurchaseInvoices, query),
  },
  {
    method: 'get',
    path: '/1.6/purchase/invoices/{id}',
    summary: 'Purchase invoices by page number, or one purchase invoice by id',
    tag: 'Purchase invoices',
    params: PageOrId,
    query: PurchaseInvoiceListQuery,
    reply: z.union([purchaseListReply, PurchaseInvoice]),
    xmlRoot: 'PurchaseInvoices',
    run: async ({ params, query }, call) =>
      isPage(params.id)
        ? new Rendered(
            await call(listPurchaseInvoices, { ...query, page: pageOf(params.id) }),
            purchaseListReply,
            'PurchaseInvoices',
          )
        : new Rendered(await call(getPurchaseInvoice, { id: params.id }), PurchaseInvoice, 'PurchaseInvoice'),
  },
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
];
