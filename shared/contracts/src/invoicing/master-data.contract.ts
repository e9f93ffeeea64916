/**
 * Invoicing-owned master data (DESIGN §4, §6): partners, VAT codes with paragraphs, accounting periods,
 * bank accounts and the simple code lists. Subjects `invoicing.<resource>.<verb>`.
 */
export * from './bank-accounts.contract.js';

import { AccessPointTransport } from '../access-point/settings.contract.js';
import { defineContract } from '../contract.js';
import { CodeList, CodeListInput, crudContracts } from '../crud.js';
import { Bool, Country, DateOnly, decimal, Guid, Iban, Int, PeppolId, Text, z } from '../primitives.js';

/** Business partner. `vatNumber` becomes an invoice's `partnerNumber3`; `dueDays` sets `dateValidTo`. */
export const PartnerInput = z.object({
  code: Text(30),
  name: Text(),
  address: z.string().max(1000).nullable().optional(),
  deliveryAddress: z.string().max(1000).nullable().optional(),
  country: Country().nullable().optional(),
  companyNumber: z.string().trim().max(30).nullable().optional(),
  /**
   * VAT number (becomes an invoice's `partnerNumber3`): without a prefix it takes `country`'s; checked and
   * normalised by the service with jsvat (400 naming vatNumber when malformed; DESIGN §6).
   */
  vatNumber: z.string().trim().max(20).nullable().optional(),
  dueDays: Int().pipe(z.number().min(0).max(3650)).default(14),
  /** Structured address (issue #21; e-invoice BT-50, BT-52, BT-53): `address` is composed from them when not sent. */
  street: z.string().trim().max(255).nullable().optional(),
  city: z.string().trim().max(100).nullable().optional(),
  postalCode: z.string().trim().max(20).nullable().optional(),
  /** DIČ, the Slovak tax number (10 digits); the default Peppol endpoint `0245:<DIČ>` of a Slovak partner. */
  taxNumber: z.string().trim().max(20).nullable().optional(),
  email: z.email({ message: 'expected an e-mail address' }).max(255).nullable().optional(),
  /** Peppol participant id `scheme:identifier` (EAS scheme; 400 otherwise); default per docs/decisions.md. */
  peppolId: PeppolId().nullable().optional(),
  /** Issue #45: the partner's bank accounts (one IBAN or several); a statement's counterparty is known by them. */
  iban: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(Iban()).max(20)).optional(),
});
export const Partner = z.object({
  id: Guid(),
  code: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  deliveryAddress: z.string().nullable(),
  country: z.string().nullable(),
  companyNumber: z.string().nullable(),
  vatNumber: z.string().nullable(),
  dueDays: z.number().int(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  taxNumber: z.string().nullable(),
  email: z.string().nullable(),
  peppolId: z.string().nullable(),
  iban: z.array(z.string()),
});
export type Partner = z.infer<typeof Partner>;
export const partners = crudContracts('invoicing.partners', PartnerInput, Partner);

/** VAT code type: `O` output (sales), `I` input (purchases). */
export const VatType = z.enum(['O', 'I']);
/** VAT code kind (DESIGN §6). */
/**
 * The kind of a VAT code (DESIGN §6; issue #37 for the reverse-charge kinds): `domesticReverseCharge` is,
 * on an output code, a domestic supply whose VAT the buyer owes (§69(12) of Act 222/2004, the letter in
 * `reverseChargeLetter`) and, on an input code, the same purchase self-assessed; `intraCommunityAcquisition`
 * (§11), `foreignServices` (§69(3)) and `installation` (§69(2), goods installed by a foreign supplier) are
 * input codes whose VAT the buyer computes, owes and deducts in the same period.
 */
export const VatKind = z.enum([
  'standard',
  'reduced',
  'zero',
  'exempt',
  'intraCommunity',
  'export',
  'oss',
  'domesticReverseCharge',
  'intraCommunityAcquisition',
  'foreignServices',
  'installation',
]);
export type VatKind = z.infer<typeof VatKind>;

export const VatParagraphInput = z.object({
  code: Text(30),
  text: Text(500),
  isDefault: Bool().default(false),
});
export const VatParagraph = z.object({
  id: Guid(),
  code: z.string(),
  text: z.string(),
  isDefault: z.boolean(),
});

/** VAT code: `code` is case-sensitive and company-unique; valid from `validFrom` to `validTo` (inclusive). */
export const VatCodeInput = z
  .object({
    code: z.string().min(1).max(20),
    name: z.string().max(255).nullable().optional(),
    type: VatType,
    country: Country(),
    rate: decimal(2),
    validFrom: DateOnly(),
    validTo: DateOnly().nullable().optional(),
    kind: VatKind,
    /** Issue #37: the letter of §69(12) a domestic reverse-charge code applies (a–j). */
    reverseChargeLetter: z
      .string()
      .regex(/^[a-j]$/, { message: 'expected a letter of §69(12), a to j' })
      .nullable()
      .optional(),
    paragraphs: z.array(VatParagraphInput).default([]),
  })
  .refine((v) => !v.validTo || v.validTo >= v.validFrom, {
    message: 'validTo is before validFrom',
    path: ['validTo'],
  })
  .refine((v) => v.paragraphs.filter((p) => p.isDefault).length <= 1, {
    message: 'at most one default paragraph',
    path: ['paragraphs'],
  });
export const VatCode = z.object({
  id: Guid(),
  code: z.string(),
  name: z.string().nullable(),
  type: VatType,
  country: z.string(),
  rate: decimal(2),
  validFrom: DateOnly(),
  validTo: DateOnly().nullable(),
  kind: VatKind,
  reverseChargeLetter: z.string().nullable(),
  paragraphs: z.array(VatParagraph),
});
export type VatCode = z.infer<typeof VatCode>;
export const vatCodes = crudContracts(
  'invoicing.vat-codes',
  VatCodeInput as unknown as z.ZodObject<any>,
  VatCode,
);

/** Accounting period; never overlaps another of the company (409). `closed` is read-only. */
export const PeriodInput = z
  .object({ code: Text(20), dateFrom: DateOnly(), dateTo: DateOnly() })
  .refine((p) => p.dateTo >= p.dateFrom, { message: 'dateTo is before dateFrom', path: ['dateTo'] });
export const Period = z.object({
  id: Guid(),
  code: z.string(),
  dateFrom: DateOnly(),
  dateTo: DateOnly(),
  closed: z.boolean(),
});
export type Period = z.infer<typeof Period>;
export const periods = crudContracts('invoicing.periods', PeriodInput as unknown as z.ZodObject<any>, Period);
/** `POST /1.6/periods/{id}/close`: closes the period; documents dated in it are then refused. */
export const closePeriod = defineContract({
  subject: 'invoicing.periods.close',
  request: z.object({ id: Guid() }),
  reply: Period,
});

/** The simple code lists of DESIGN §4, all `{code, name}`. */
export const paymentTypes = crudContracts('invoicing.payment-types', CodeListInput, CodeList);
export const deliveryTypes = crudContracts('invoicing.delivery-types', CodeListInput, CodeList);
export const costCenters = crudContracts('invoicing.cost-centers', CodeListInput, CodeList);
export const costUnits = crudContracts('invoicing.cost-units', CodeListInput, CodeList);
export const persons = crudContracts('invoicing.persons', CodeListInput, CodeList);
export const projects = crudContracts('invoicing.projects', CodeListInput, CodeList);

/**
 * The caller's own company (issue #21, extends DESIGN §4 and §6 "Company tax profile"): what its documents
 * and e-invoices say of the seller. `PUT /1.6/company` takes the whole record; `id` and `peppolRegistered`
 * are read-only and may be sent back.
 */
export const CompanyInput = z.object({
  name: Text(),
  /** IČO (EN 16931 BT-30). */
  companyNumber: z.string().trim().max(30).nullable().optional(),
  /** DIČ (BT-32), 10 digits for a Slovak company. */
  taxNumber: z.string().trim().max(20).nullable().optional(),
  /** IČ DPH (BT-31), with its country prefix; checked with jsvat (400 naming vatNumber). */
  vatNumber: z.string().trim().max(20).nullable().optional(),
  street: z.string().trim().max(255).nullable().optional(),
  /**
   * Issue #44: the house number (súpisné/orientačné číslo) the VAT filings carry apart from the street
   * (`cislo`, `Cislo`); when absent, the trailing number of `street` is taken.
   */
  streetNumber: z.string().trim().max(20).nullable().optional(),
  city: z.string().trim().max(100).nullable().optional(),
  postalCode: z.string().trim().max(20).nullable().optional(),
  country: Country(),
  /** Issue #44: the tax office the VAT return is addressed to (`danovyUrad`), e.g. "Daňový úrad Bratislava". */
  taxOffice: z.string().trim().max(100).nullable().optional(),
  /**
   * Issue #44: the person authorised to file for the company (`opravnenaOsoba` of the VAT return: a
   * statutory body's member or an agent), with a phone and an e-mail for the tax office.
   */
  authorizedPersonName: z.string().trim().max(100).nullable().optional(),
  authorizedPersonPhone: z.string().trim().max(50).nullable().optional(),
  authorizedPersonEmail: z.email({ message: 'expected an e-mail address' }).max(255).nullable().optional(),
  /** The commercial-register line of Obchodný zákonník §3a (BT-33), e.g. "Obchodný register Mestského súdu Bratislava III, oddiel Sro, vložka č. 12345/B". */
  registration: z.string().trim().max(500).nullable().optional(),
  email: z.email({ message: 'expected an e-mail address' }).max(255).nullable().optional(),
  phone: z.string().trim().max(50).nullable().optional(),
  /** Peppol participant id `scheme:identifier`; default `0245:<DIČ>` for a Slovak company (docs/decisions.md). */
  peppolId: PeppolId().nullable().optional(),
  ossRegistered: Bool().default(false),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, { message: 'expected an ISO 4217 currency code' })
    .transform((s) => s.toUpperCase())
    .default('EUR'),
  /** Issue #37: the VAT filing period, `month` (default) or `quarter` (§77 of Act 222/2004). */
  vatPeriod: z.enum(['month', 'quarter']).default('month'),
  timeZone: z
    .string()
    .default('Europe/Bratislava')
    .refine((tz) => tz === 'UTC' || Intl.supportedValuesOf('timeZone').includes(tz), {
      message: 'unknown IANA time zone',
    }),
});
export type CompanyInput = z.infer<typeof CompanyInput>;
export const Company = z.object({
  id: Guid(),
  name: z.string(),
  companyNumber: z.string().nullable(),
  taxNumber: z.string().nullable(),
  vatNumber: z.string().nullable(),
  street: z.string().nullable(),
  streetNumber: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string(),
  taxOffice: z.string().nullable(),
  authorizedPersonName: z.string().nullable(),
  authorizedPersonPhone: z.string().nullable(),
  authorizedPersonEmail: z.string().nullable(),
  registration: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** As stored; null when none was set (the e-invoice then uses {@link Company.peppolEndpoint}). */
  peppolId: z.string().nullable(),
  /** Read-only: the endpoint id e-invoices carry (the `peppolId`, else the default of docs/decisions.md). */
  peppolEndpoint: z.string().nullable(),
  /**
   * Read-only (issue #23): whether the access-point connector has `peppolId` registered on the network
   * (`registered` null when its transport cannot tell); null without a `peppolId` or when no connector runs.
   */
  peppolNetwork: z
    .object({ transport: AccessPointTransport, registered: z.boolean().nullable() })
    .nullable()
    .optional(),
  ossRegistered: z.boolean(),
  currency: z.string(),
  vatPeriod: z.enum(['month', 'quarter']),
  timeZone: z.string(),
});
export type Company = z.infer<typeof Company>;
/** `GET /1.6/company`. */
export const getCompany = defineContract({
  subject: 'invoicing.company.read',
  request: z.object({}),
  reply: Company,
});
/** `PUT /1.6/company`: the whole record. Errors: 400 ValidationFailed (a malformed vatNumber, peppolId). */
export const updateCompany = defineContract({
  subject: 'invoicing.company.update',
  request: CompanyInput,
  reply: Company,
});
