/**
 * Invoicing schema entities (DESIGN §1: schema `invoicing`): the master data
 * (`master-data.entities.ts`), the invoices and e-invoice archive (`invoice.entities.ts`), and here the
 * shared kinds (ordners, counters, accounting entries, outbox) and the consumers' processed events, with
 * the list the ORM loads.
 */
import { accountingEntryEntity, ordnerCounterEntity, ordnerEntity, outboxEntity } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';
import {
  BankEntryEntity,
  BankStatementEntity,
  PaymentOrderEntity,
  PaymentOrderItemEntity,
} from './bank.entities.js';
import { AccessPointSettingsEntity, ReceivedEInvoiceEntity } from './inbox.entities.js';
import {
  EInvoiceDocumentEntity,
  EInvoiceStatusChangeEntity,
  PaymentEntity,
  PurchaseInvoiceEntity,
  PurchaseInvoiceRowEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
} from './invoice.entities.js';
import {
  BankAccountEntity,
  CodeListEntity,
  CompanyProfileEntity,
  PartnerEntity,
  PeriodEntity,
  VatCodeEntity,
  VatParagraphEntity,
} from './master-data.entities.js';
import { SCHEMA } from './schema.js';
import { VatFilingEntity, VatManualFiguresEntity } from './vat-filing.entities.js';

export * from './bank.entities.js';
export * from './inbox.entities.js';
export * from './invoice.entities.js';
export * from './master-data.entities.js';
export * from './vat-filing.entities.js';
export { SCHEMA };

/** Events already handled by a consumer (idempotent consumers, DESIGN §1). */
export const ProcessedEventEntity = defineEntity({
  name: 'ProcessedEvent',
  tableName: 'processed_event',
  schema: SCHEMA,
  properties: { eventId: p.uuid().primary(), consumer: p.string().length(50), processedAt: p.datetime() },
});

export const OrdnerEntity = ordnerEntity(SCHEMA);
export const OrdnerCounterEntity = ordnerCounterEntity(SCHEMA);
export const AccountingEntryEntity = accountingEntryEntity(SCHEMA);
export const OutboxEntity = outboxEntity(SCHEMA);

export const entities = [
  CompanyProfileEntity,
  PartnerEntity,
  VatCodeEntity,
  VatParagraphEntity,
  PeriodEntity,
  BankAccountEntity,
  CodeListEntity,
  OrdnerEntity,
  OrdnerCounterEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
  PaymentEntity,
  PurchaseInvoiceEntity,
  PurchaseInvoiceRowEntity,
  EInvoiceDocumentEntity,
  EInvoiceStatusChangeEntity,
  ReceivedEInvoiceEntity,
  AccessPointSettingsEntity,
  VatFilingEntity,
  VatManualFiguresEntity,
  BankStatementEntity,
  BankEntryEntity,
  PaymentOrderEntity,
  PaymentOrderItemEntity,
  AccountingEntryEntity,
  OutboxEntity,
  ProcessedEventEntity,
];
