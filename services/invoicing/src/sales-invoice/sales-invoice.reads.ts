/**
 * Reads of a sales invoice for its commands (DESIGN §6 "States"): the invoice as loaded for a change, its
 * stored rows (their ids and price basis), the invoice locked for update, its payments and entries, and
 * whether an invoice exists. ORM reads only.
 */
import { notFound } from '@bm/errors';
import type { EntityManager } from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import {
  AccountingEntryEntity,
  PaymentEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
} from '../schema/entities.js';

export type SalesInvoiceRow = InstanceType<typeof SalesInvoiceEntity.class>;

/** The company's invoice `id`. @throws 404 NotFound */
export async function findSalesInvoice(em: EntityManager, id: string): Promise<SalesInvoiceRow> {
  const inv = await em.findOne(SalesInvoiceEntity, { id });
  if (!inv) throw notFound('Sales invoice');
  return inv;
}

/** Invoice `id` read again under a row lock (payments, cancelling and updates take it). @throws 404 */
export async function lockSalesInvoice(tx: EntityManager, id: string): Promise<SalesInvoiceRow> {
  const inv = await tx.findOne(
    SalesInvoiceEntity,
    { id },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  if (!inv) throw notFound('Sales invoice');
  return inv;
}

/** The stored rows of invoice `id` (ids, prices and whether gross was entered), detached. */
export const storedInvoiceRows = (em: EntityManager, id: string) =>
  em.find(SalesInvoiceRowEntity, { invoiceId: id }, { disableIdentityMap: true });

/** The payments of invoice `id` (amounts in its currency, dates `YYYY-MM-DD`). */
export const paymentsOf = (em: EntityManager, id: string) => em.find(PaymentEntity, { invoiceId: id });

/** The accounting entries of invoice `id`, in line order. */
export const entriesOf = (em: EntityManager, id: string) =>
  em.find(AccountingEntryEntity, { documentId: id }, { orderBy: { lineNo: 'asc' } });

/** Whether the company has sales invoice `id`. */
export const salesInvoiceExists = async (em: EntityManager, id: string) =>
  (await em.count(SalesInvoiceEntity, { id })) > 0;
