/**
 * The open invoices a bank entry may pay (issue #45): found by variable symbol (in the forms it may be
 * stored in), partner, id or total, row-locked in id order (no deadlock with a payment or another import),
 * with what each has open now (total minus every payment). Amounts 2 decimals, the invoice's currency.
 */
import { dec, fmt } from '@bm/money';
import { type EntityManager, execBound, pgArray } from '@bm/service-kit';
import type { InvoiceBook, OpenInvoice } from '../payment-rules/index.js';

/** An open invoice as the store reads it: the rule's fields and its total. */
export interface StoredOpenInvoice extends OpenInvoice {
  sumTotal: string;
  cancelled: boolean;
}

/** How the store finds invoices: variable symbols as stored (with their zero-padded forms), partners, ids. */
export interface InvoiceSearch {
  symbols: readonly string[];
  partnerIds: readonly string[];
  ids: readonly string[];
}

/** The forms a variable symbol may be stored in: as written, without leading zeros, padded to 10. */
export function symbolForms(vs: string): string[] {
  const bare = vs.replace(/^0+/, '') || '0';
  return [...new Set([vs, bare, bare.padStart(10, '0')])];
}

/**
 * The company's invoices found by `search`, row-locked (sales and purchase, in id order: no deadlock
 * with a payment or another import), with what each has open now (total minus every payment).
 */
export async function lockOpenInvoices(
  tx: EntityManager,
  companyId: string,
  search: InvoiceSearch,
): Promise<StoredOpenInvoice[]> {
  if (!search.symbols.length && !search.partnerIds.length && !search.ids.length) return [];
  const params = [companyId, pgArray(search.symbols), pgArray(search.partnerIds), pgArray(search.ids)];
  const where = `company_id = ? and (symbol_variable = any(?::text[]) or partner_id = any(?::uuid[]) or id = any(?::uuid[]))`;
  const rows = await execBound<{
    book: InvoiceBook;
    id: string;
    partner_id: string | null;
    record_number: string;
    symbol_variable: string | null;
    currency: string;
    date_created: string;
    sum_total: string;
    cancelled: boolean;
    paid: string;
  }>(
    tx,
    `with s as (select id, partner_id, record_number, symbol_variable, currency, date_created, sum_total, cancelled
                  from "invoicing"."sales_invoice" where ${where} order by id for update),
          p as (select id, partner_id, record_number, symbol_variable, currency1 as currency, date_created, sum_total, false as cancelled
                  from "invoicing"."purchase_invoice" where ${where} order by id for update),
          c as (select 'sales' as book, * from s union all select 'purchase', * from p)
     select c.book, c.id, c.partner_id, c.record_number, c.symbol_variable, c.currency,
            to_char(c.date_created, 'YYYY-MM-DD') as date_created, c.sum_total::text, c.cancelled,
            coalesce((select sum(x.amount) from "invoicing"."payment" x where x.company_id = ? and x.invoice_id = c.id), 0)::text as paid
       from c`,
    [...params, ...params, companyId],
  );
  return rows
    .filter((r) => !r.cancelled)
    .map((r) => ({
      id: r.id,
      book: r.book,
      partnerId: r.partner_id,
      recordNumber: r.record_number,
      symbolVariable: r.symbol_variable,
      currency: r.currency,
      dateCreated: r.date_created,
      sumTotal: r.sum_total,
      cancelled: r.cancelled,
      open: fmt(dec(r.sum_total).minus(dec(r.paid))),
    }));
}

/**
 * Open invoices whose total is one of `amounts` (either sign), not locked: the candidates a person is
 * shown for an entry the rule could not pair and knew nothing else of (at most 20 an amount).
 */
export async function invoicesByTotal(
  tx: EntityManager,
  companyId: string,
  amounts: readonly string[],
): Promise<StoredOpenInvoice[]> {
  if (!amounts.length) return [];
  const both = [...new Set(amounts.flatMap((a) => [a, fmt(dec(a).negated())]))];
  const ids = await execBound<{ id: string }>(
    tx,
    `(select id from "invoicing"."sales_invoice" where company_id = ? and sum_total = any(?::numeric[]) and not cancelled limit 2000)
     union all
     (select id from "invoicing"."purchase_invoice" where company_id = ? and sum_total = any(?::numeric[]) limit 2000)`,
    [companyId, pgArray(both), companyId, pgArray(both)],
  );
  return lockOpenInvoices(tx, companyId, { symbols: [], partnerIds: [], ids: ids.map((r) => r.id) });
}
