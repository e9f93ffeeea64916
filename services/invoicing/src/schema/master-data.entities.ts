/**
 * Invoicing master data (DESIGN §4, §6; issue #21 for the e-invoice fields): company profile, partners,
 * VAT codes and paragraphs, accounting periods, bank accounts and the simple code lists. Every entity
 * carries `companyId` and the company filter.
 */
import { companyFilter, tenantColumns } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { SCHEMA } from './schema.js';

/** The company's tax profile (DESIGN §6): one row per company. */
export const CompanyProfileEntity = defineEntity({
  name: 'CompanyProfile',
  tableName: 'company_profile',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    name: p.string(),
    country: p.string().length(2),
    vatNumber: p.string().length(20).nullable(),
    companyNumber: p.string().length(30).nullable(),
    address: p.text().nullable(),
    ossRegistered: p.boolean(),
    currency: p.string().length(3),
    timeZone: p.string().length(50),
    defaultDueDays: p.integer(),
    /** Issue #37: the VAT filing period, `month` or `quarter`. */
    vatPeriod: p.string().length(7).default('month'),
    // Issue #21: what e-invoices and printouts say of the seller (EN 16931 BG-4).
    taxNumber: p.string().length(20).nullable(),
    street: p.string().nullable(),
    // Issue #44: what the VAT return's header needs beyond the address.
    streetNumber: p.string().length(20).nullable(),
    taxOffice: p.string().length(100).nullable(),
    authorizedPersonName: p.string().length(100).nullable(),
    authorizedPersonPhone: p.string().length(50).nullable(),
    authorizedPersonEmail: p.string().nullable(),
    city: p.string().length(100).nullable(),
    postalCode: p.string().length(20).nullable(),
    registration: p.string().length(500).nullable(),
    email: p.string().nullable(),
    phone: p.string().length(50).nullable(),
    peppolId: p.string().length(60).nullable(),
  },
  // A peppolId belongs to one company (issue #23: received documents are routed by it).
  uniques: [{ properties: ['companyId'] }, { properties: ['peppolId'] }],
});

export const PartnerEntity = defineEntity({
  name: 'Partner',
  tableName: 'partner',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    code: p.string().length(30),
    name: p.string(),
    address: p.text().nullable(),
    deliveryAddress: p.text().nullable(),
    country: p.string().length(2).nullable(),
    companyNumber: p.string().length(30).nullable(),
    vatNumber: p.string().length(20).nullable(),
    dueDays: p.integer(),
    // Issue #21: the buyer of an e-invoice (EN 16931 BG-7).
    street: p.string().nullable(),
    city: p.string().length(100).nullable(),
    postalCode: p.string().length(20).nullable(),
    taxNumber: p.string().length(20).nullable(),
    email: p.string().nullable(),
    peppolId: p.string().length(60).nullable(),
    /** Issue #45: the partner's bank accounts (IBANs, electronic format): pairing by counterparty. */
    iban: p.array().defaultRaw("'{}'"),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
  indexes: [
    {
      name: 'partner_iban_index',
      expression: 'create index "partner_iban_index" on "invoicing"."partner" using gin ("iban")',
    },
  ],
});

export const VatCodeEntity = defineEntity({
  name: 'VatCode',
  tableName: 'vat_code',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    code: p.string().length(20),
    name: p.string().nullable(),
    type: p.string().length(1),
    country: p.string().length(2),
    rate: p.decimal('string').precision(5).scale(2),
    validFrom: p.date(),
    validTo: p.date().nullable(),
    kind: p.string().length(30),
    /** Issue #37: the letter of §69(12) a domestic reverse-charge code applies. */
    reverseChargeLetter: p.string().length(1).nullable(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const VatParagraphEntity = defineEntity({
  name: 'VatParagraph',
  tableName: 'vat_paragraph',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    vatCodeId: p.uuid(),
    code: p.string().length(30),
    text: p.string().length(500),
    isDefault: p.boolean(),
  },
  uniques: [{ properties: ['companyId', 'vatCodeId', 'code'] }],
});

export const PeriodEntity = defineEntity({
  name: 'Period',
  tableName: 'period',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    code: p.string().length(20),
    dateFrom: p.date(),
    dateTo: p.date(),
    closed: p.boolean(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const BankAccountEntity = defineEntity({
  name: 'BankAccount',
  tableName: 'bank_account',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    code: p.string().length(20),
    name: p.string(),
    iban: p.string().length(34),
    bic: p.string().length(11).nullable(),
    currency: p.string().length(3),
    isDefault: p.boolean(),
    /** Issue #45: the ledger account of this bank account, and where its fees and interest are posted. */
    accountCode: p.string().length(10).default('221'),
    feeAccount: p.string().length(10).default('568'),
    interestAccount: p.string().length(10).default('662'),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

/** The simple code lists of DESIGN §4 in one table, told apart by `list`. */
export const CodeListEntity = defineEntity({
  name: 'CodeListEntry',
  tableName: 'code_list_entry',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    list: p.string().length(20),
    code: p.string().length(30),
    name: p.string(),
  },
  uniques: [{ properties: ['companyId', 'list', 'code'] }],
});
