/**
 * Contracts shared by several services: ordners (owned per document type, DESIGN §4) and the company
 * provisioning message sent by `POST /admin/companies` (DESIGN §3).
 */
import { defineContract } from './contract.js';
import { crudContracts } from './crud.js';
import { Bool, Country, Guid, Text, z } from './primitives.js';

/** Document types an ordner can hold; the first two are warehouse-owned, the rest invoicing-owned. */
export const DocumentType = z.enum(['IssueCard', 'ReceiptCard', 'SalesInvoice', 'PurchaseInvoice']);
export type DocumentType = z.infer<typeof DocumentType>;
/** Which service owns the ordners (and counters) of a document type. */
export const ordnerOwner: Record<DocumentType, 'warehouse' | 'invoicing'> = {
  IssueCard: 'warehouse',
  ReceiptCard: 'warehouse',
  SalesInvoice: 'invoicing',
  PurchaseInvoice: 'invoicing',
};

/**
 * Record-number format: literal text with `{yyyy}`, `{yy}` and exactly one `{seq}` or `{seq:N}` (N = zero
 * padded width, 1..12). Example `VY{yyyy}{seq:5}` → `VY202500001`.
 */
export const NumberFormat = () =>
  z
    .string()
    .trim()
    .max(50)
    .refine((f) => (f.match(/\{seq(:\d{1,2})?\}/g) ?? []).length === 1, {
      message: 'must contain exactly one {seq} or {seq:N} token',
    })
    .refine((f) => f.replace(/\{(yyyy|yy|seq(:\d{1,2})?)\}/g, '').indexOf('{') < 0, {
      message: 'unknown token; allowed are {yyyy}, {yy}, {seq} and {seq:N}',
    });

/** The record-number format of an ordner created without one: its code, the year, five digits (`VY{yyyy}{seq:5}`). */
export const defaultNumberFormat = (ordnerCode: string): string => `${ordnerCode}{yyyy}{seq:5}`;

/** Ordner (folder of documents with its own record-number counter). `numberFormat` defaults to {@link defaultNumberFormat}. */
export const OrdnerInput = z.object({
  code: Text(20),
  name: Text(),
  documentType: DocumentType,
  numberFormat: NumberFormat().optional(),
  reportId: Guid().nullable().optional(),
  /**
   * The default ordner of its document type (copies and documents without an ordner go there). Changed
   * only by `PUT` with `true` (the previous default is cleared); ignored on create; `false` on the
   * default is 409 InvalidState (DESIGN §5).
   */
  isDefault: Bool().optional(),
});
export const Ordner = z.object({
  id: Guid(),
  code: z.string(),
  name: z.string(),
  documentType: DocumentType,
  numberFormat: z.string(),
  reportId: Guid().nullable(),
  isDefault: z.boolean(),
});
export type Ordner = z.infer<typeof Ordner>;

/** Ordner contracts of one owning service (`warehouse.ordners.*`, `invoicing.ordners.*`). */
export const ordnerContracts = (service: 'warehouse' | 'invoicing') =>
  crudContracts(`${service}.ordners`, OrdnerInput, Ordner);
export const warehouseOrdners = ordnerContracts('warehouse');
export const invoicingOrdners = ordnerContracts('invoicing');

/** The company profile given to every service when a company is created (DESIGN §3). */
export const CompanyProfile = z.object({
  companyId: Guid(),
  name: Text(),
  country: Country(),
  vatNumber: z.string().nullable().optional(),
  companyNumber: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  ossRegistered: Bool().default(false),
  currency: z.string().length(3).default('EUR'),
  /** Issue #37: the VAT filing period (`CompanyInput.vatPeriod`). */
  vatPeriod: z.enum(['month', 'quarter']).default('month'),
  timeZone: z.string().default('Europe/Bratislava'),
  iban: z.string().nullable().optional(),
  /** Issue #21: DIČ, structured address, register line, contact and Peppol id (see `CompanyInput`). */
  taxNumber: z.string().nullable().optional(),
  street: z.string().nullable().optional(),
  /** Issue #44: house number, tax office and the person authorised to file (see `CompanyInput`). */
  streetNumber: z.string().nullable().optional(),
  taxOffice: z.string().nullable().optional(),
  authorizedPersonName: z.string().nullable().optional(),
  authorizedPersonPhone: z.string().nullable().optional(),
  authorizedPersonEmail: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  postalCode: z.string().nullable().optional(),
  registration: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  peppolId: z.string().nullable().optional(),
  /** The company's "today" (its time zone): periods are seeded for this year and the next. */
  today: z.iso.date(),
  /** Built-in report ids by document type, from the reporting service's provisioning reply. */
  reportIds: z.record(z.string(), Guid()).default({}),
});
export type CompanyProfile = z.infer<typeof CompanyProfile>;

/** Reply of a provisioning step: what the service created (ids by code), for the caller's log. */
export const ProvisionReply = z.object({
  created: z.record(z.string(), z.number().int()),
  reportIds: z.record(z.string(), Guid()).optional(),
});

/** `<service>.company.provision`: idempotent seeding of a new company's default master data. */
export const provisionCompany = (service: 'warehouse' | 'invoicing' | 'reporting') =>
  defineContract({ subject: `${service}.company.provision`, request: CompanyProfile, reply: ProvisionReply });
