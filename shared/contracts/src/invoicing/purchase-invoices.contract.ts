/**
 * Purchase invoices (INTERFACE §2.3, §4.2; DESIGN §6, §6b; issues #21, #37). Subjects
 * `invoicing.purchase-invoices.<verb>`. Amounts in the invoice currency with 2 decimals unless stated
 * (`localSum` and the input VAT in the company currency, EUR); unit prices and quantities 4 decimals; rates
 * and percentages in percent; dates `YYYY-MM-DD`.
 */

import { dec } from '@bm/money';
import { defineContract } from '../contract.js';
import { Amount, Bool, DateOnly, Decimal4, decimal, Guid, Iban, Page, PageQuery, z } from '../primitives.js';
import { AccountingEntry } from '../warehouse/document-fields.js';
import { Payment, PaymentStatus } from './invoices.contract.js';

const Percent = () =>
  decimal(2).refine((v) => !v.startsWith('-') && dec(v).lte(100), {
    message: 'expected a percentage from 0 to 100',
  });

/** Purchase-invoice row (INTERFACE §2.3 "Purchase invoice row"). */
export const PurchaseInvoiceRowInput = z.object({
  itemId: Guid().nullable().optional(),
  itemsAmount: Decimal4(),
  code: z.string().max(30).nullable().optional(),
  name: z.string().trim().min(1).max(255),
  description: z.string().max(2000).nullable().optional(),
  bonus: Decimal4().nullable().optional(),
  bonusPercent: Percent().nullable().optional(),
  price: Decimal4(),
  localSum: Amount().nullable().optional(),
  sum: Amount().nullable().optional(),
  /** Extension (issue #21): the input VAT rate of the row in percent (none: no VAT claimed on it). */
  vatRate: decimal(2).nullable().optional(),
  /**
   * Extension (issue #37): the row's input VAT code (type `I`), by id or code; else the domestic deductible
   * code of `vatRate` valid on the tax point. A self-assessed kind makes the buyer compute the VAT.
   */
  vatID: Guid().nullable().optional(),
  vatCode: z.string().max(20).nullable().optional(),
  /** Extension (issue #37): the share of the input VAT deducted (§49, §50 coefficient, mixed use); default the invoice's, else 100. */
  deductiblePercent: Percent().nullable().optional(),
});

const YearMonth = () => z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'expected YYYY-MM' });
/** Purchase invoice as sent on create (INTERFACE §2.3, with the example's `PeriodYear` and `Period`). */
export const PurchaseInvoiceInput = z.object({
  partnerId: Guid(),
  ordnerId: Guid().nullable().optional(),
  dateCreated: DateOnly(),
  recordNumber: z.string().trim().max(30).nullable().optional(),
  externalRecordNumber: z.string().trim().max(50).nullable().optional(),
  partner: z.string().max(2000).nullable().optional(),
  dateValidTo: DateOnly().nullable().optional(),
  dateAccounting: DateOnly().nullable().optional(),
  dateDelivery: DateOnly().nullable().optional(),
  periodId: Guid().nullable().optional(),
  currency1: z
    .string()
    .regex(/^[A-Za-z]{3}$/, { message: 'expected an ISO 4217 currency code' })
    .transform((s) => s.toUpperCase())
    .nullable()
    .optional(),
  rows: z.array(PurchaseInvoiceRowInput).max(5000).optional(),
  PeriodYear: z
    .preprocess(
      (v) => (typeof v === 'number' ? String(v) : v),
      z.string().regex(/^\d{4}$/, { message: 'expected YYYY' }),
    )
    .optional(),
  Period: YearMonth().optional(),
  /** Extension (issue #37): the day the invoice was received (default `dateAccounting`); input VAT is deducted in the period of the later of it and the tax point (§51). */
  dateReceived: DateOnly().nullable().optional(),
  /** Extension (issue #37): a simplified invoice (§74(3); a cash-register receipt): control statement B.3. */
  simplified: z.boolean().optional(),
  /** Extension (issue #37): the default `deductiblePercent` of the rows (100). */
  deductiblePercent: Percent().nullable().optional(),
  /** Extension (issue #37): a credit note (negative amounts) names the purchase invoice it corrects, or the supplier's original number. */
  correctedInvoiceId: Guid().nullable().optional(),
  correctedRecordNumber: z.string().trim().max(50).nullable().optional(),
  /**
   * Extension (issue #37): for another `currency1`, the rate of its tax point (§26), units of `currency1`
   * per 1 EUR (the ECB's quotation); a row's `localSum` defaults to round(sum / exchangeRate, 2).
   */
  exchangeRate: decimal(6)
    .refine((v) => dec(v).gt(0), { message: 'must be greater than zero' })
    .nullable()
    .optional(),
  /**
   * Extension (issue #45): where to pay it, the supplier's IBAN (default: the supplier's first), and the
   * symbols of the payment (variable up to 10 digits, specific up to 10, constant 4), as on sales invoices.
   */
  iban: Iban().nullable().optional(),
  symbolVariable: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, { message: 'expected up to 10 digits' })
    .nullable()
    .optional(),
  symbolSpecific: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, { message: 'expected up to 10 digits' })
    .nullable()
    .optional(),
  symbolConstant: z
    .string()
    .trim()
    .regex(/^\d{1,4}$/, { message: 'expected up to 4 digits' })
    .nullable()
    .optional(),
});
export type PurchaseInvoiceInput = z.infer<typeof PurchaseInvoiceInput>;

export const PurchaseInvoiceRow = z.object({
  id: Guid(),
  itemId: Guid().nullable(),
  itemsAmount: Decimal4(),
  code: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  bonus: Decimal4().nullable(),
  bonusPercent: decimal(2).nullable(),
  price: Decimal4(),
  localSum: Amount(),
  sum: Amount(),
  vatRate: decimal(2).nullable(),
  vatID: Guid().nullable(),
  vatCode: z.string().nullable(),
  deductiblePercent: decimal(2),
});

/**
 * Input VAT of a purchase invoice per category and rate (issue #21): from a received e-invoice exactly as
 * its VAT breakdown states it (BG-23), else round(Σ row sums × rate / 100) per rate of the rows.
 * `category` is the EN 16931 VAT category code (UNCL5305: S, Z, E, AE, K, G, O).
 */
export const PurchaseVatLine = z.object({
  category: z.string(),
  rate: decimal(2),
  base: Amount(),
  vat: Amount(),
});

/**
 * The input VAT of a purchase invoice as the filings read it (issue #37; DESIGN §6b), in the company currency
 * (EUR), one line per VAT code and deductible share: `base`, `vat` (as the supplier stated it, or computed
 * by the buyer when `selfAssessed`: round(Σ bases × rate / 100), §69), `deducted` = round(vat × share / 100).
 */
export const InputVatLine = z.object({
  vatID: Guid(),
  vatCode: z.string(),
  kind: z.string(),
  rate: decimal(2),
  selfAssessed: z.boolean(),
  deductiblePercent: decimal(2),
  base: Amount(),
  vat: Amount(),
  deducted: Amount(),
});
export type InputVatLine = z.infer<typeof InputVatLine>;

export const PurchaseInvoice = z.object({
  id: Guid(),
  partnerId: Guid(),
  ordnerId: Guid(),
  dateCreated: DateOnly(),
  recordNumber: z.string(),
  externalRecordNumber: z.string().nullable(),
  partner: z.string().nullable(),
  dateValidTo: DateOnly().nullable(),
  dateAccounting: DateOnly(),
  dateDelivery: DateOnly().nullable(),
  periodId: Guid(),
  currency1: z.string(),
  rows: z.array(PurchaseInvoiceRow),
  PeriodYear: z.string(),
  Period: z.string(),
  /** Extension: totals in the invoice currency and in the company currency. */
  sum: Amount(),
  localSum: Amount(),
  /** Extension (issue #21): input VAT in the invoice currency, per category and rate, and the total with VAT. */
  sumVat: Amount(),
  sumTotal: Amount(),
  vatSummary: z.array(PurchaseVatLine),
  /** Extension (issue #37): tax point (`dateDelivery`, else `dateCreated`), receipt, and the period of the deduction (`YYYY-MM`). */
  taxPoint: DateOnly(),
  dateReceived: DateOnly(),
  deductionPeriod: z.string(),
  simplified: z.boolean(),
  correctedInvoiceId: Guid().nullable(),
  correctedRecordNumber: z.string().nullable(),
  exchangeRate: decimal(6).nullable(),
  inputVat: z.array(InputVatLine),
  /** Extension (issue #21): `eInvoice` when booked from a received e-invoice (its bytes at `…/e-invoice`). */
  source: z.enum(['manual', 'eInvoice']),
  accountingEntries: z.array(AccountingEntry),
  /** Extension (issue #45): where to pay it, and how it was paid (`balance` = `sumTotal` minus payments to date). */
  iban: z.string().nullable(),
  symbolVariable: z.string().nullable(),
  symbolSpecific: z.string().nullable(),
  symbolConstant: z.string().nullable(),
  payments: z.array(Payment),
  balance: Amount(),
  paymentStatus: PaymentStatus,
  /** The open payment order the invoice is in, if any. */
  paymentOrderId: Guid().nullable(),
});
export type PurchaseInvoice = z.infer<typeof PurchaseInvoice>;

export const PurchaseInvoiceListItem = PurchaseInvoice.omit({
  rows: true,
  accountingEntries: true,
  vatSummary: true,
  inputVat: true,
  payments: true,
}).extend({
  partnerName: z.string().nullable(),
});

export const createPurchaseInvoice = defineContract({
  subject: 'invoicing.purchase-invoices.create',
  request: PurchaseInvoiceInput,
  reply: PurchaseInvoice,
});
export const getPurchaseInvoice = defineContract({
  subject: 'invoicing.purchase-invoices.get',
  request: z.object({ id: Guid() }),
  reply: PurchaseInvoice,
});
/** Query of the purchase-invoice list: paging plus optional filters (extension) on `dateCreated` and partner. */
export const PurchaseInvoiceListQuery = PageQuery.extend({
  dateFrom: DateOnly().optional(),
  dateTo: DateOnly().optional(),
  partnerId: Guid().optional(),
  /** Extension (issue #45): by payment status, and only the overdue (due before today, not paid in full). */
  paymentStatus: PaymentStatus.optional(),
  overdue: Bool().optional(),
});
export type PurchaseInvoiceListQuery = z.infer<typeof PurchaseInvoiceListQuery>;
export const listPurchaseInvoices = defineContract({
  subject: 'invoicing.purchase-invoices.list',
  request: PurchaseInvoiceListQuery,
  reply: Page(PurchaseInvoiceListItem),
});
