/**
 * Sales invoices (INTERFACE §2.4, §4.3; DESIGN §6): create, update, read, pay, cancel. Subjects
 * `invoicing.<resource>.<verb>`. Amounts are in the company currency with 2 decimals unless stated;
 * unit prices and quantities 4 decimals; rates in percent; dates `YYYY-MM-DD`.
 */

import { dec } from '@bm/money';
import { defineContract } from '../contract.js';
import { Amount, Country, DateOnly, Decimal4, decimal, Guid, Int, idOrCode, z } from '../primitives.js';
import { AccountingEntry } from '../warehouse/document-fields.js';
import { EInvoiceDelivery } from './e-invoice-delivery.contract.js';

const Code = () => z.string().trim().min(1).max(30);
const nonZero = (v: string) => !/^-?0+(\.0+)?$/.test(v);
const Percent = () =>
  decimal(2).refine((v) => !v.startsWith('-') && dec(v).lte(100), {
    message: 'expected a percentage from 0 to 100',
  });
const Digits = (max: number) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{0,${max}}$`), { message: `expected at most ${max} digits` });

/** Sales-invoice row fields that travel both ways (INTERFACE §2.4 "Sales invoice row"). */
const salesRowBase = {
  quantity: Decimal4().refine(nonZero, { message: 'quantity must be other than zero' }),
  price: Decimal4().nullable().optional(),
  priceBrutto: Decimal4().nullable().optional(),
  itemId: Guid().nullable().optional(),
  /** Extension: unit of the row (filled from the item). */
  unitId: Guid().nullable().optional(),
  code: z.string().max(30).nullable().optional(),
  name: z.string().max(255).nullable().optional(),
  vatID: Guid().nullable().optional(),
  vatCode: z.string().max(20).nullable().optional(),
  vatRate: decimal(2).nullable().optional(),
  vatParagraphID: Guid().nullable().optional(),
  /**
   * Extension (issue #37): the customs-tariff heading of the goods (the first four digits of the combined
   * nomenclature), which the control statement wants as TK on a domestic reverse-charge supply.
   */
  commodityCode: z
    .string()
    .trim()
    .regex(/^\d{4,10}$/, { message: 'expected 4 to 10 digits of the customs tariff' })
    .nullable()
    .optional(),
};
const needsPrice = (r: { price?: string | null; priceBrutto?: string | null }) =>
  r.price != null || r.priceBrutto != null;
const priceMessage = { message: 'price or priceBrutto is required', path: ['price'] };

/** Row as sent on create (with the insert-only `itemCode`, `unitCode`). */
export const SalesInvoiceRowInput = z
  .object({ ...salesRowBase, itemCode: Code().optional(), unitCode: Code().optional() })
  .refine(needsPrice, priceMessage);
/**
 * Row as sent on update. `id` (extension) names the stored row it replaces: the row keeps its id, and a
 * row entered with its gross price keeps that basis while the gross price is sent back unchanged.
 */
export const SalesInvoiceRowUpdate = z
  .object({ ...salesRowBase, id: Guid().nullable().optional() })
  .refine(needsPrice, priceMessage);

/** Header fields that travel both ways (INTERFACE §2.4). */
const salesBase = {
  ordnerId: Guid().optional(),
  warehouseId: Guid().optional(),
  dateCreated: DateOnly(),
  recordNumber: z.string().trim().max(30).nullable().optional(),
  tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
  partnerId: Guid().nullable().optional(),
  partnerDetail: z.string().max(2000).nullable().optional(),
  partnerAddress: z.string().max(2000).nullable().optional(),
  partnerCountry: Country().nullable().optional(),
  partnerNumber3: z.string().trim().max(20).nullable().optional(),
  deliveryTypeId: Guid().nullable().optional(),
  paymentTypeId: Guid().nullable().optional(),
  bankAccountId: Guid().nullable().optional(),
  symbolVariable: Digits(10).nullable().optional(),
  symbolConstant: Digits(4).nullable().optional(),
  symbolSpecific: Digits(10).nullable().optional(),
  dateAccounting: DateOnly().nullable().optional(),
  dateDelivery: DateOnly().nullable().optional(),
  periodId: Guid().nullable().optional(),
  dateValidTo: DateOnly().nullable().optional(),
  commentAboveItems: z.string().max(4000).nullable().optional(),
  commentBelowItems: z.string().max(4000).nullable().optional(),
  vatID: Guid().nullable().optional(),
  vatCode: z.string().max(20).nullable().optional(),
  vatNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}[0-9A-Za-z+*.]{2,13}$/, {
      message: 'expected a VAT number with a two-letter country prefix',
    })
    .nullable()
    .optional(),
  vatRate: decimal(2).nullable().optional(),
  vatParagraphID: Guid().nullable().optional(),
  bonusPercent: Percent().nullable().optional(),
  orderRecordNo: z.string().max(30).nullable().optional(),
  warehouseRecordNo: z.string().max(30).nullable().optional(),
  costCenterId: Guid().nullable().optional(),
  costUnitId: Guid().nullable().optional(),
  personId: Guid().nullable().optional(),
  projectId: Guid().nullable().optional(),
  /**
   * Extension (issue #21): the invoice a credit note corrects, a sales invoice of the same company (422
   * ReferenceNotFound otherwise); its record number and date become the e-invoice's BT-25/BT-26.
   */
  correctedInvoiceId: Guid().nullable().optional(),
};

/** Sales invoice as sent on create (INTERFACE §2.4 plus `ordnerCode`, `warehouseCode`). */
export const SalesInvoiceInput = idOrCode(
  z.object({
    ...salesBase,
    ordnerCode: Code().optional(),
    warehouseCode: Code().optional(),
    rows: z.array(SalesInvoiceRowInput).min(1, { message: 'at least one row is required' }).max(5000),
  }),
  ['ordnerId', 'ordnerCode'],
  ['warehouseId', 'warehouseCode'],
);
export type SalesInvoiceInput = z.infer<typeof SalesInvoiceInput>;

/** Sales invoice as sent on update: all data, not a patch (INTERFACE §4.3 update rule 1). */
export const SalesInvoiceUpdate = z.object({
  ...salesBase,
  ordnerId: Guid(),
  warehouseId: Guid(),
  rows: z.array(SalesInvoiceRowUpdate).min(1, { message: 'at least one row is required' }).max(5000),
});
export type SalesInvoiceUpdate = z.infer<typeof SalesInvoiceUpdate>;

export const InvoiceState = z.enum(['issued', 'partiallyPaid', 'paid', 'cancelled']);
export type InvoiceState = z.infer<typeof InvoiceState>;

export const VatSummaryLine = z.object({
  vatID: Guid(),
  vatCode: z.string(),
  rate: decimal(2),
  base: Amount(),
  vat: Amount(),
});
/**
 * A payment of an invoice: `amount` signed (a refund negative); issue #45: `entryId` the bank entry it
 * came from (null: entered by hand), `overpayment` the part beyond what the invoice had open.
 */
export const Payment = z.object({
  id: Guid(),
  amount: Amount(),
  date: DateOnly(),
  entryId: Guid().nullable(),
  overpayment: Amount(),
});
/** Issue #45: `unpaid`, `partlyPaid`, `paid`, `overpaid` (paid beyond the total: the partner's overpayment). */
export const PaymentStatus = z.enum(['unpaid', 'partlyPaid', 'paid', 'overpaid']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

export const SalesInvoiceRow = z.object({
  id: Guid(),
  quantity: Decimal4(),
  price: Decimal4(),
  priceBrutto: Decimal4(),
  itemId: Guid().nullable(),
  unitId: Guid().nullable(),
  code: z.string().nullable(),
  name: z.string().nullable(),
  vatID: Guid(),
  vatCode: z.string(),
  vatRate: decimal(2),
  vatParagraphID: Guid().nullable(),
  commodityCode: z.string().nullable(),
  sumBase: Amount(),
  sumVat: Amount(),
  sumTotal: Amount(),
});

/** Sales invoice as returned: documented fields, then the extension fields (totals, state, entries). */
export const SalesInvoice = z.object({
  id: Guid(),
  ordnerId: Guid(),
  warehouseId: Guid(),
  dateCreated: DateOnly(),
  rows: z.array(SalesInvoiceRow),
  recordNumber: z.string(),
  tags: z.array(z.string()),
  partnerId: Guid().nullable(),
  partnerDetail: z.string().nullable(),
  partnerAddress: z.string().nullable(),
  partnerCountry: z.string().nullable(),
  partnerNumber3: z.string().nullable(),
  deliveryTypeId: Guid().nullable(),
  paymentTypeId: Guid().nullable(),
  bankAccountId: Guid().nullable(),
  symbolVariable: z.string().nullable(),
  symbolConstant: z.string().nullable(),
  symbolSpecific: z.string().nullable(),
  dateAccounting: DateOnly(),
  dateDelivery: DateOnly().nullable(),
  periodId: Guid(),
  dateValidTo: DateOnly().nullable(),
  commentAboveItems: z.string().nullable(),
  commentBelowItems: z.string().nullable(),
  vatID: Guid(),
  vatCode: z.string(),
  vatNumber: z.string().nullable(),
  vatRate: decimal(2),
  vatParagraphID: Guid().nullable(),
  bonusPercent: decimal(2).nullable(),
  orderRecordNo: z.string().nullable(),
  warehouseRecordNo: z.string().nullable(),
  costCenterId: Guid().nullable(),
  costUnitId: Guid().nullable(),
  personId: Guid().nullable(),
  projectId: Guid().nullable(),
  correctedInvoiceId: Guid().nullable(),
  /** Extension: `record` (numbers kept as sent) or `creation` (computed). */
  mode: z.enum(['record', 'creation']),
  currency: z.string(),
  /** Extension: VAT period `YYYY-MM` (from dateDelivery, else dateCreated). */
  vatPeriod: z.string(),
  sumBase: Amount(),
  sumVat: Amount(),
  sumTotal: Amount(),
  vatSummary: z.array(VatSummaryLine),
  state: InvoiceState,
  /** Unpaid amount as of today. */
  balance: Amount(),
  /** Extension (issue #45): by all payments, `overpaid` when paid beyond the total. */
  paymentStatus: PaymentStatus,
  payments: z.array(Payment),
  accountingEntries: z.array(AccountingEntry),
  /**
   * Extension (issues #21, #23): the e-invoice, `draft` until issued (issuing freezes the invoice: PUT →
   * 409), then its delivery through the Peppol network.
   */
  eInvoice: EInvoiceDelivery,
});
export type SalesInvoice = z.infer<typeof SalesInvoice>;

export const createSalesInvoice = defineContract({
  subject: 'invoicing.sales-invoices.create',
  request: SalesInvoiceInput,
  reply: SalesInvoice,
});
export const updateSalesInvoice = defineContract({
  subject: 'invoicing.sales-invoices.update',
  request: z.object({ id: Guid(), data: SalesInvoiceUpdate }),
  reply: SalesInvoice,
});
export const getSalesInvoice = defineContract({
  subject: 'invoicing.sales-invoices.get',
  request: z.object({ id: Guid() }),
  reply: SalesInvoice,
});
/**
 * A payment (DESIGN §6 "States"): the sign of the open balance (positive on an invoice, negative, a refund,
 * on a credit note), at most what is open, never zero; 409 otherwise.
 */
export const PaymentInput = z.object({
  amount: Amount().refine((v) => nonZero(v), { message: 'must not be zero' }),
  date: DateOnly().optional(),
});
export const addPayment = defineContract({
  subject: 'invoicing.sales-invoices.add-payment',
  request: z.object({ id: Guid(), data: PaymentInput }),
  reply: SalesInvoice,
});
export const cancelSalesInvoice = defineContract({
  subject: 'invoicing.sales-invoices.cancel',
  request: z.object({ id: Guid() }),
  reply: SalesInvoice,
});

/** Integer helper re-exported for page path parameters. */
export const PageNumber = () => Int().pipe(z.number().min(1, { message: 'page numbers start at 1' }));
