/**
 * The payment orders' store (issue #45): the purchase invoices an order would pay (with what is open, the
 * IBAN to pay and whether an open order has them already), orders with their items, the inserts and the
 * cancellation. SQL with bind parameters in the caller's transaction or em.
 */
import { notFound } from '@bm/errors';
import { type EntityManager, execBound, insertAll, pgArray } from '@bm/service-kit';
import { PaymentOrderEntity, PaymentOrderItemEntity } from '../schema/entities.js';

/** A purchase invoice as an order sees it; `iban` the invoice's, else the partner's first. */
export interface PayableInvoice {
  id: string;
  recordNumber: string;
  externalRecordNumber: string | null;
  partnerId: string;
  partnerName: string | null;
  iban: string | null;
  currency: string;
  sumTotal: string;
  paid: string;
  symbolVariable: string | null;
  symbolSpecific: string | null;
  symbolConstant: string | null;
  inOpenOrder: boolean;
}

/** Purchase invoices `ids` of the company, locked, as a payment order sees them. */
export const payableInvoices = (tx: EntityManager, companyId: string, ids: readonly string[]) =>
  execBound<PayableInvoice>(
    tx,
    `select i.id, i.record_number as "recordNumber", i.external_record_number as "externalRecordNumber",
            i.partner_id as "partnerId", p.name as "partnerName", coalesce(i.iban, p.iban[1]) as iban,
            i.currency1 as currency, i.sum_total::text as "sumTotal",
            coalesce((select sum(x.amount) from "invoicing"."payment" x where x.company_id = i.company_id and x.invoice_id = i.id), 0)::text as paid,
            i.symbol_variable as "symbolVariable", i.symbol_specific as "symbolSpecific", i.symbol_constant as "symbolConstant",
            exists (select 1 from "invoicing"."payment_order_item" o where o.company_id = i.company_id and o.invoice_id = i.id and o."open") as "inOpenOrder"
       from "invoicing"."purchase_invoice" i left join "invoicing"."partner" p on p.id = i.partner_id
      where i.company_id = ? and i.id = any(?::uuid[])
      order by i.id for update of i`,
    [companyId, pgArray(ids)],
  );

/** Inserts an order and its items. */
export const insertOrder = (
  tx: EntityManager,
  order: Record<string, unknown>,
  items: Record<string, unknown>[],
) =>
  insertAll(tx, [
    { entity: PaymentOrderEntity, rows: [order] },
    { entity: PaymentOrderItemEntity, rows: items },
  ]);

/** Order `id` locked. @throws 404 */
export async function lockOrder(tx: EntityManager, companyId: string, id: string) {
  const rows = await execBound<{ id: string; state: string }>(
    tx,
    `select id, state from "invoicing"."payment_order" where company_id = ? and id = ? for update`,
    [companyId, id],
  );
  if (!rows[0]) throw notFound('Payment order');
  return rows[0];
}

/** Cancels order `id`: it and its items are no longer open. */
export async function cancelOrder(tx: EntityManager, companyId: string, id: string) {
  await execBound(
    tx,
    `update "invoicing"."payment_order" set state = 'cancelled', cancelled_at = now() where company_id = ? and id = ?`,
    [companyId, id],
  );
  await execBound(
    tx,
    `update "invoicing"."payment_order_item" set "open" = false where company_id = ? and order_id = ?`,
    [companyId, id],
  );
}

/** Order `id` with its items (invoice numbers and partners joined) and, when asked, its bytes. @throws 404 */
export async function readOrder(em: EntityManager, companyId: string, id: string) {
  const [o] = await execBound<{
    id: string;
    bank_account_id: string;
    message_id: string;
    execution_date: string;
    currency: string;
    total: string;
    state: 'open' | 'done' | 'cancelled';
    sha256: string;
    created_at: Date;
    cancelled_at: Date | null;
    bytes: Buffer;
  }>(
    em,
    `select id, bank_account_id, message_id, to_char(execution_date, 'YYYY-MM-DD') as execution_date, currency,
            total::text, state, sha256, created_at, cancelled_at, bytes
       from "invoicing"."payment_order" where company_id = ? and id = ?`,
    [companyId, id],
  );
  if (!o) throw notFound('Payment order');
  const items = await execBound<{
    invoiceId: string;
    recordNumber: string;
    externalRecordNumber: string | null;
    partnerId: string;
    partnerName: string | null;
    iban: string;
    amount: string;
    endToEndId: string;
    open: boolean;
  }>(
    em,
    `select x.invoice_id as "invoiceId", i.record_number as "recordNumber", i.external_record_number as "externalRecordNumber",
            i.partner_id as "partnerId", p.name as "partnerName", x.iban, x.amount::text as amount,
            x.end_to_end_id as "endToEndId", x."open"
       from "invoicing"."payment_order_item" x
       join "invoicing"."purchase_invoice" i on i.id = x.invoice_id
       left join "invoicing"."partner" p on p.id = i.partner_id
      where x.company_id = ? and x.order_id = ? order by i.record_number`,
    [companyId, id],
  );
  return {
    order: {
      id: o.id,
      bankAccountId: o.bank_account_id,
      messageId: o.message_id,
      executionDate: o.execution_date,
      currency: o.currency,
      total: o.total,
      state: o.state,
      sha256: o.sha256,
      createdAt: new Date(o.created_at).toISOString(),
      cancelledAt: o.cancelled_at ? new Date(o.cancelled_at).toISOString() : null,
      items,
    },
    bytes: Buffer.from(o.bytes),
  };
}
