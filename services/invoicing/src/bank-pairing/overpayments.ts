/**
 * A partner's open overpayments (issue #45): invoices paid beyond their total, `amount` the surplus
 * (positive, in the invoice's currency), with the entries that paid them. A person moves one with a
 * manual pairing of such an entry to another invoice of the partner; a debit entry refunds it.
 */
import { dec, fmt } from '@bm/money';
import { type EntityManager, execBound } from '@bm/service-kit';
import { paymentStatusOf } from '../payment-rules/index.js';

/** `GET /1.6/bank/overpayments?partnerId=`: every overpaid invoice of the company (or of one partner). */
export async function listOverpayments(em: EntityManager, companyId: string, partnerId?: string) {
  const rows = await execBound<{
    invoice_id: string;
    book: 'sales' | 'purchase';
    record_number: string;
    partner_id: string | null;
    currency: string;
    sum_total: string;
    paid: string;
    entry_ids: string[] | null;
  }>(
    em,
    `with t as (
       select x.invoice_id, sum(x.amount) as paid,
              array_agg(distinct x.entry_id) filter (where x.entry_id is not null) as entry_ids
         from "invoicing"."payment" x where x.company_id = ?
        group by x.invoice_id having bool_or(x.overpayment <> 0))
     select t.invoice_id, 'sales' as book, s.record_number, s.partner_id, s.currency, s.sum_total::text, t.paid::text, t.entry_ids
       from t join "invoicing"."sales_invoice" s on s.id = t.invoice_id and s.company_id = ?
     union all
     select t.invoice_id, 'purchase', p.record_number, p.partner_id, p.currency1, p.sum_total::text, t.paid::text, t.entry_ids
       from t join "invoicing"."purchase_invoice" p on p.id = t.invoice_id and p.company_id = ?`,
    [companyId, companyId, companyId],
  );
  return {
    items: rows
      .filter(
        (r) =>
          (!partnerId || r.partner_id === partnerId) && paymentStatusOf(r.sum_total, r.paid) === 'overpaid',
      )
      .map((r) => ({
        invoiceId: r.invoice_id,
        book: r.book,
        recordNumber: r.record_number,
        partnerId: r.partner_id,
        currency: r.currency,
        amount: fmt(dec(r.paid).abs().minus(dec(r.sum_total).abs())),
        entryIds: r.entry_ids ?? [],
      })),
  };
}
