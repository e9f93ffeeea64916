/**
 * Lookups other services ask invoicing for (DESIGN §1 "Cross-service reads are NATS requests to the owner").
 */
import { defineContract } from '../contract.js';
import { DateOnly, Decimal4, Guid, z } from '../primitives.js';
import { Period } from './master-data.contract.js';

/**
 * The accounting period of a document (DESIGN §5 "Period"): `periodId` if given (it must contain `date`),
 * else the period that contains `date` (the dateAccounting); `dateOperation`, when given, must not lie in
 * a closed period. Errors: 422 PeriodNotFound (unknown id or no period on the date), 422 PeriodClosed,
 * 422 ValidationFailed naming periodId.
 */
export const resolvePeriod = defineContract({
  subject: 'invoicing.periods.resolve',
  request: z.object({
    periodId: Guid().nullable().optional(),
    date: DateOnly(),
    dateOperation: DateOnly().nullable().optional(),
  }),
  reply: Period,
});

/** A sales invoice as a copy source for an issue card (INTERFACE §4.1 copy; DESIGN §5 "Copy"). 404 when unknown. */
export const SalesInvoiceCopySource = z.object({
  id: Guid(),
  recordNumber: z.string(),
  ordnerId: Guid(),
  warehouseId: Guid().nullable(),
  partnerId: Guid().nullable(),
  partnerAddress: z.string().nullable(),
  /** A cancelled invoice cannot be copied (DESIGN §5 "Issue quantities are positive"). */
  cancelled: z.boolean(),
  rows: z.array(
    z.object({
      itemId: Guid().nullable(),
      code: z.string().nullable(),
      name: z.string().nullable(),
      unitId: Guid().nullable(),
      quantity: Decimal4(),
      price: Decimal4().nullable(),
    }),
  ),
});
export type SalesInvoiceCopySource = z.infer<typeof SalesInvoiceCopySource>;
export const getSalesInvoiceCopySource = defineContract({
  subject: 'invoicing.sales-invoices.copy-source',
  request: z.object({ id: Guid() }),
  reply: SalesInvoiceCopySource,
});

/** The company's tax profile as printed on documents (supplier block). */
export const CompanyTaxProfile = z.object({
  name: z.string(),
  country: z.string(),
  vatNumber: z.string().nullable(),
  companyNumber: z.string().nullable(),
  address: z.string().nullable(),
  currency: z.string(),
  ossRegistered: z.boolean(),
  /** DIČ and the commercial-register line (Obchodný zákonník §3a), printed in the supplier block (issue #21). */
  taxNumber: z.string().nullable().default(null),
  registration: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  phone: z.string().nullable().default(null),
});
export type CompanyTaxProfile = z.infer<typeof CompanyTaxProfile>;
export const getCompanyProfile = defineContract({
  subject: 'invoicing.company.get',
  request: z.object({}),
  reply: CompanyTaxProfile,
});
