/**
 * Invoices (INTERFACE §2.3, §2.4; DESIGN §6, §6a): sales invoices with rows and payments, purchase invoices
 * with rows, and the archive of issued and received e-invoices. Decimals are `numeric`, read as strings.
 */
import { companyFilter, tenantColumns } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { SCHEMA } from './schema.js';

const money = () => p.decimal('string').precision(18).scale(2);
const qty = () => p.decimal('string').precision(18).scale(4);

/** Sales invoice header (INTERFACE §2.4) with the computed totals and state. */
export const SalesInvoiceEntity = defineEntity({
  name: 'SalesInvoice',
  tableName: 'sales_invoice',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    ordnerId: p.uuid(),
    warehouseId: p.uuid(),
    recordNumber: p.string().length(30),
    tags: p.array(),
    partnerId: p.uuid().nullable(),
    partnerDetail: p.text().nullable(),
    partnerAddress: p.text().nullable(),
    partnerCountry: p.string().length(2).nullable(),
    partnerNumber3: p.string().length(20).nullable(),
    deliveryTypeId: p.uuid().nullable(),
    paymentTypeId: p.uuid().nullable(),
    bankAccountId: p.uuid().nullable(),
    symbolVariable: p.string().length(10).nullable(),
    symbolConstant: p.string().length(4).nullable(),
    symbolSpecific: p.string().length(10).nullable(),
    dateCreated: p.date(),
    dateAccounting: p.date(),
    dateDelivery: p.date().nullable(),
    periodId: p.uuid(),
    vatPeriod: p.string().length(7),
    dateValidTo: p.date().nullable(),
    commentAboveItems: p.text().nullable(),
    commentBelowItems: p.text().nullable(),
    vatId: p.uuid(),
    vatCode: p.string().length(20),
    vatNumber: p.string().length(20).nullable(),
    vatRate: p.decimal('string').precision(5).scale(2),
    vatParagraphId: p.uuid().nullable(),
    bonusPercent: p.decimal('string').precision(5).scale(2).nullable(),
    orderRecordNo: p.string().length(30).nullable(),
    warehouseRecordNo: p.string().length(30).nullable(),
    costCenterId: p.uuid().nullable(),
    costUnitId: p.uuid().nullable(),
    personId: p.uuid().nullable(),
    projectId: p.uuid().nullable(),
    /** The invoice a credit note corrects (issue #21, e-invoice BT-25). */
    correctedInvoiceId: p.uuid().nullable(),
    mode: p.string().length(10),
    currency: p.string().length(3),
    sumBase: money(),
    sumVat: money(),
    sumTotal: money(),
    vatSummary: p.json(),
    cancelled: p.boolean(),
    /** `issued` | `partiallyPaid` | `paid` | `cancelled`, kept by sales-invoice/invoice-state.ts (DESIGN §6 "States"). */
    state: p.string().length(20),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ properties: ['companyId', 'recordNumber'] }],
  indexes: [
    {
      // The list view's order (DESIGN §6): newest first, stable; an index-only walk serves any page.
      name: 'sales_invoice_list_index',
      expression:
        'create index "sales_invoice_list_index" on "invoicing"."sales_invoice" ("company_id", "date_created" desc, "record_number" desc, "id")',
    },
    // Issue #45: pairing a bank entry finds invoices by variable symbol and by partner, never by a scan.
    { properties: ['companyId', 'symbolVariable'] },
    { properties: ['companyId', 'partnerId'] },
  ],
});

export const SalesInvoiceRowEntity = defineEntity({
  name: 'SalesInvoiceRow',
  tableName: 'sales_invoice_row',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    invoiceId: p.uuid().index(),
    rowNo: p.integer(),
    itemId: p.uuid().nullable(),
    unitId: p.uuid().nullable(),
    code: p.string().length(30).nullable(),
    name: p.string().nullable(),
    quantity: qty(),
    price: qty(),
    priceBrutto: qty(),
    vatId: p.uuid(),
    vatCode: p.string().length(20),
    vatRate: p.decimal('string').precision(5).scale(2),
    vatParagraphId: p.uuid().nullable(),
    /** Issue #37: the customs-tariff heading (control statement A.2 TK). */
    commodityCode: p.string().length(10).nullable(),
    sumBase: money(),
    sumVat: money(),
    sumTotal: money(),
    /** Creation mode: the user entered the gross price (the net one is derived); kept across updates. */
    grossEntered: p.boolean().default(false),
  },
});

export const PaymentEntity = defineEntity({
  name: 'Payment',
  tableName: 'payment',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    invoiceId: p.uuid().index(),
    amount: money(),
    date: p.date(),
    createdAt: p.datetime(),
    /**
     * Issue #45: a pairing with a bank entry is a payment with its `entryId`; `book` (`sales`,
     * `purchase`) and `partnerId` name the invoice; `overpayment` is the part beyond the invoice's open
     * balance (the partner's overpayment, signed as `amount`).
     */
    entryId: p.uuid().nullable().index(),
    book: p.string().length(8).default('sales'),
    partnerId: p.uuid().nullable(),
    overpayment: money().default('0'),
  },
});

export const PurchaseInvoiceEntity = defineEntity({
  name: 'PurchaseInvoice',
  tableName: 'purchase_invoice',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    partnerId: p.uuid(),
    ordnerId: p.uuid(),
    dateCreated: p.date(),
    recordNumber: p.string().length(30),
    externalRecordNumber: p.string().length(50).nullable(),
    partner: p.text().nullable(),
    dateValidTo: p.date().nullable(),
    dateAccounting: p.date(),
    dateDelivery: p.date().nullable(),
    periodId: p.uuid(),
    currency1: p.string().length(3),
    vatPeriod: p.string().length(7),
    sum: money(),
    localSum: money(),
    /** Input VAT (issue #21): per category and rate as `[{category, rate, base, vat}]`, and its total. */
    sumVat: money().default('0'),
    sumTotal: money().default('0'),
    vatSummary: p.json().default('[]'),
    /** `manual` or `eInvoice` (booked from a received e-invoice, archived in `e_invoice_document`). */
    source: p.string().length(10).default('manual'),
    /** Issue #37 (DESIGN §6b): the tax point, the receipt, and the period of the deduction (§51). */
    taxPoint: p.date().nullable(),
    dateReceived: p.date().nullable(),
    deductionPeriod: p.string().length(7).nullable(),
    simplified: p.boolean().default(false),
    correctedInvoiceId: p.uuid().nullable(),
    correctedRecordNumber: p.string().length(50).nullable(),
    exchangeRate: p.decimal('string').precision(14).scale(6).nullable(),
    /** Input VAT in EUR per code and deductible share (`InputVatLine[]`), what the filings read. */
    inputVat: p.json().default('[]'),
    /** Issue #45: where and how to pay it (BT-84, BT-83 of a received e-invoice, or set by hand). */
    iban: p.string().length(34).nullable(),
    symbolVariable: p.string().length(10).nullable(),
    symbolSpecific: p.string().length(10).nullable(),
    symbolConstant: p.string().length(4).nullable(),
    createdAt: p.datetime(),
  },
  uniques: [{ properties: ['companyId', 'recordNumber'] }],
  indexes: [
    {
      name: 'purchase_invoice_list_index',
      expression:
        'create index "purchase_invoice_list_index" on "invoicing"."purchase_invoice" ("company_id", "date_created" desc, "record_number" desc, "id")',
    },
    { properties: ['companyId', 'symbolVariable'] },
    { properties: ['companyId', 'partnerId'] },
  ],
});

export const PurchaseInvoiceRowEntity = defineEntity({
  name: 'PurchaseInvoiceRow',
  tableName: 'purchase_invoice_row',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    invoiceId: p.uuid().index(),
    rowNo: p.integer(),
    itemId: p.uuid().nullable(),
    itemsAmount: qty(),
    code: p.string().length(30).nullable(),
    name: p.string(),
    description: p.text().nullable(),
    bonus: qty().nullable(),
    bonusPercent: p.decimal('string').precision(5).scale(2).nullable(),
    price: qty(),
    localSum: money(),
    sum: money(),
    vatRate: p.decimal('string').precision(5).scale(2).nullable(),
    /** Issue #37: the row's input VAT code and the share deducted. */
    vatId: p.uuid().nullable(),
    vatCode: p.string().length(20).nullable(),
    deductiblePercent: p.decimal('string').precision(5).scale(2).default('100'),
  },
});

/**
 * The archive of e-invoices (issue #21; DESIGN §6a): the bytes of every issued sales e-invoice, frozen at
 * issue, and of every received one, as received; kept for the 10 years the law asks. `direction`
 * `issued` (documentId = sales invoice) or `received` (documentId = purchase invoice). A received
 * document is unique per supplier (`partyKey`: VAT id, else IČO, else endpoint) and BT-1. Issue #43: a
 * received document's bytes are kept once, in its inbox record (`receivedId`, `bytes` null); only one
 * booked before the inbox existed keeps them here.
 */
export const EInvoiceDocumentEntity = defineEntity({
  name: 'EInvoiceDocument',
  tableName: 'e_invoice_document',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    documentId: p.uuid(),
    direction: p.string().length(10),
    documentType: p.string().length(12),
    bytes: p.blob().nullable(),
    /** The inbox record (`received_e_invoice`) that holds a received document's bytes. */
    receivedId: p.uuid().nullable(),
    sha256: p.string().length(64),
    senderId: p.string().length(60).nullable(),
    receiverId: p.string().length(60).nullable(),
    partyKey: p.string().length(60).nullable(),
    externalNumber: p.string().length(50).nullable(),
    createdAt: p.datetime(),
    // Issue #23: the delivery of an issued document (null for received ones).
    deliveryStatus: p.string().length(12).nullable(),
    attempt: p.integer().default(0),
    transmissionId: p.string().length(100).nullable(),
    deliveredAt: p.datetime().nullable(),
    mls: p.string().length(2).nullable(),
    reasons: p.json<{ code: string; message: string }[]>().nullable(),
    statusAt: p.datetime().nullable(),
  },
  uniques: [
    { properties: ['companyId', 'direction', 'documentId'] },
    { properties: ['companyId', 'direction', 'partyKey', 'externalNumber'] },
  ],
});

/** Every change of an issued e-invoice's delivery status (issue #23), oldest first by `seq`. */
export const EInvoiceStatusChangeEntity = defineEntity({
  name: 'EInvoiceStatusChange',
  tableName: 'e_invoice_status_change',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    invoiceId: p.uuid(),
    seq: p.integer(),
    attempt: p.integer(),
    status: p.string().length(12),
    transmissionId: p.string().length(100).nullable(),
    mls: p.string().length(2).nullable(),
    reasons: p.json<{ code: string; message: string }[]>(),
    at: p.datetime(),
  },
  uniques: [{ properties: ['companyId', 'invoiceId', 'seq'] }],
});
