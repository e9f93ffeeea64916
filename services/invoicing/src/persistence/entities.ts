/**
 * Invoicing schema entities (DESIGN §1: schema `invoicing`): company tax profile, partners, VAT codes
 * and paragraphs, accounting periods, bank accounts, code lists and invoice ordners. Every entity
 * carries `companyId` and the company filter; decimals are `numeric`, read as strings.
 */
import { companyFilter } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';

export const SCHEMA = 'invoicing';

const tenant = () => ({ id: p.uuid().primary(), companyId: p.uuid() });

/** The company's tax profile (DESIGN §6): one row per company. */
export const CompanyProfileEntity = defineEntity({
  name: 'CompanyProfile',
  tableName: 'company_profile',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
    name: p.string(),
    country: p.string().length(2),
    vatNumber: p.string().length(20).nullable(),
    companyNumber: p.string().length(30).nullable(),
    address: p.text().nullable(),
    ossRegistered: p.boolean(),
    currency: p.string().length(3),
    timeZone: p.string().length(50),
    defaultDueDays: p.integer(),
  },
  uniques: [{ properties: ['companyId'] }],
});

export const PartnerEntity = defineEntity({
  name: 'Partner',
  tableName: 'partner',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
    code: p.string().length(30),
    name: p.string(),
    address: p.text().nullable(),
    deliveryAddress: p.text().nullable(),
    country: p.string().length(2).nullable(),
    companyNumber: p.string().length(30).nullable(),
    vatNumber: p.string().length(20).nullable(),
    dueDays: p.integer(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const VatCodeEntity = defineEntity({
  name: 'VatCode',
  tableName: 'vat_code',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
    code: p.string().length(20),
    name: p.string().nullable(),
    type: p.string().length(1),
    country: p.string().length(2),
    rate: p.decimal('string').precision(5).scale(2),
    validFrom: p.date(),
    validTo: p.date().nullable(),
    kind: p.string().length(20),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const VatParagraphEntity = defineEntity({
  name: 'VatParagraph',
  tableName: 'vat_paragraph',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
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
    ...tenant(),
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
    ...tenant(),
    code: p.string().length(20),
    name: p.string(),
    iban: p.string().length(34),
    bic: p.string().length(11).nullable(),
    currency: p.string().length(3),
    isDefault: p.boolean(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

/** The simple code lists of DESIGN §4 in one table, told apart by `list`. */
export const CodeListEntity = defineEntity({
  name: 'CodeListEntry',
  tableName: 'code_list_entry',
  schema: SCHEMA,
  filters: companyFilter,
  properties: { ...tenant(), list: p.string().length(20), code: p.string().length(30), name: p.string() },
  uniques: [{ properties: ['companyId', 'list', 'code'] }],
});

export const OrdnerEntity = defineEntity({
  name: 'Ordner',
  tableName: 'ordner',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenant(),
    code: p.string().length(20),
    name: p.string(),
    documentType: p.string().length(20),
    numberFormat: p.string().length(50),
    reportId: p.uuid().nullable(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const entities = [
  CompanyProfileEntity,
  PartnerEntity,
  VatCodeEntity,
  VatParagraphEntity,
  PeriodEntity,
  BankAccountEntity,
  CodeListEntity,
  OrdnerEntity,
];
