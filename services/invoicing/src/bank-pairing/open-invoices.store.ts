/**
 * The open invoices a bank entry may pay (issue #45): found by variable symbol (in the forms it may be
 * stored in), partner, id or total, row-locked in id order (no deadlock with a payment or another import),
 * with what each has open now (total minus every payment). Amounts 2 decimals, the invoice's currency.
 */
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type Dec, dec, fmt } from '@bm/money';
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

/** An invoice row as the queries below select it (snake case, decimals as text). */
interface OpenRow {
  book: InvoiceBook;
  id: string;
  partner_id: string | null;
  record_number: string;
  symbol_variable: string | null;
  currency: string;
  date_created: string;
  sum_total: string;
}

/** A selected row with what it has `open`, as the rule reads it. */
const openInvoiceOf = (r: OpenRow, open: Dec | string): StoredOpenInvoice => ({
  id: r.id,
  book: r.book,
  partnerId: r.partner_id,
  recordNumber: r.record_number,
  symbolVariable: r.symbol_variable,
  currency: r.currency,
  dateCreated: r.date_created,
  sumTotal: r.sum_total,
  cancelled: false,
  open: fmt(open),
});

/**
 * The company's invoices found by `search`, row-locked (sales and purchase, in id order: no deadlock
 * with a payment or another import), with what each has open now (total minus every payment).
 */
export async function lockOpenInvoices(
  tx: EntityManager,
  companyId: string,
  search: InvoiceSearch,
  lock = true,
): Promise<StoredOpenInvoice[]> {
  if (!search.symbols.length && !search.partnerIds.length && !search.ids.length) return [];
  const params = [companyId, pgArray(search.symbols), pgArray(search.partnerIds), pgArray(search.ids)];
  const where = `company_id = ? and (symbol_variable = any(?::text[]) or partner_id = any(?::uuid[]) or id = any(?::uuid[]))`;
  const rows = await execBound<OpenRow & { cancelled: boolean; paid: string }>(
    tx,
    `with s as (select id, partner_id, record_number, symbol_variable, currency, date_created, sum_total, cancelled
                  from "invoicing"."sales_invoice" where ${where} order by id ${lock ? 'for update' : ''}),
          p as (select id, partner_id, record_number, symbol_variable, currency1 as currency, date_created, sum_total, false as cancelled
                  from "invoicing"."purchase_invoice" where ${where} order by id ${lock ? 'for update' : ''}),
          c as (select 'sales' as book, * from s union all select 'purchase', * from p)
     select c.book, c.id, c.partner_id, c.record_number, c.symbol_variable, c.currency,
            to_char(c.date_created, 'YYYY-MM-DD') as date_created, c.sum_total::text, c.cancelled,
            coalesce((select sum(x.amount) from "invoicing"."payment" x where x.company_id = ? and x.invoice_id = c.id), 0)::text as paid
       from c`,
    [...params, ...params, companyId],
  );
  return rows.filter((r) => !r.cancelled).map((r) => openInvoiceOf(r, dec(r.sum_total).minus(dec(r.paid))));
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
  return lockOpenInvoices(tx, companyId, { symbols: [], partnerIds: [], ids: ids.map((r) => r.id) }, false);
}

/**
 * Locks the invoices `pairings` pay that were read without a lock (`readOpen`: their open amount when
 * read) and checks each is still open for that: a payment stored meanwhile by another request makes the
 * import refuse (409, nothing stored; the same file again pairs on what is open then).
 */
export async function lockUnchanged(
  tx: EntityManager,
  companyId: string,
  pairings: readonly { invoiceId: string }[],
  readOpen: ReadonlyMap<string, string>,
): Promise<void> {
  const ids = [...new Set(pairings.map((p) => p.invoiceId).filter((id) => readOpen.has(id)))];
  if (!ids.length) return;
  const now = await lockOpenInvoices(tx, companyId, { symbols: [], partnerIds: [], ids });
  const moved = now.find((i) => !dec(i.open).eq(dec(readOpen.get(i.id)!)));
  if (moved || now.length !== ids.length)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.Conflict,
      `invoice ${moved?.recordNumber ?? ''} was paid or changed while the statement was imported; nothing was stored, import the file again`,
    );
}

/**
 * A counterparty's open invoices an entry may pay, read without a lock (issue #45): for each (partner,
 * amount) asked, at most 21 open for exactly that amount (either sign), and each partner's 20 oldest open
 * ones; invoices `known` (already in memory) left out. The open amount is computed in the database, so a
 * partner with thousands of invoices costs one pass of its index, not thousands of rows.
 */
export async function partnerCandidates(
  tx: EntityManager,
  companyId: string,
  ask: { partnerIds: readonly string[]; amounts: readonly string[]; known: readonly string[] },
): Promise<StoredOpenInvoice[]> {
  if (!ask.partnerIds.length) return [];
  const paid = (t: string) =>
    `coalesce((select sum(x.amount) from "invoicing"."payment" x where x.company_id = ${t}.company_id and x.invoice_id = ${t}.id), 0)`;
  const rows = await execBound<OpenRow & { open: string }>(
    tx,
    `with q as (select distinct partner_id, amount from unnest(?::uuid[], ?::numeric[]) as q(partner_id, amount)),
          inv as (
            select 'sales' as book, i.id, i.partner_id, i.record_number, i.symbol_variable, i.currency, i.date_created, i.sum_total,
                   i.sum_total - ${paid('i')} as open
              from "invoicing"."sales_invoice" i
             where i.company_id = ? and i.partner_id in (select partner_id from q) and not i.cancelled and i.id <> all(?::uuid[])
            union all
            select 'purchase', i.id, i.partner_id, i.record_number, i.symbol_variable, i.currency1, i.date_created, i.sum_total,
                   i.sum_total - ${paid('i')}
              from "invoicing"."purchase_invoice" i
             where i.company_id = ? and i.partner_id in (select partner_id from q) and i.id <> all(?::uuid[])),
          exact as (
            select inv.*, row_number() over (partition by q.partner_id, q.amount order by inv.date_created, inv.record_number, inv.id) as n
              from inv join q on q.partner_id = inv.partner_id and abs(inv.open) = q.amount),
          oldest as (
            select inv.*, row_number() over (partition by inv.partner_id order by inv.date_created, inv.record_number, inv.id) as n
              from inv where inv.open <> 0)
     select distinct on (c.id) c.book, c.id, c.partner_id, c.record_number, c.symbol_variable, c.currency,
            to_char(c.date_created, 'YYYY-MM-DD') as date_created, c.sum_total::text, c.open::text
       from (select * from exact where n <= 21 union all select * from oldest where n <= 20) c`,
    [
      pgArray(ask.partnerIds),
      pgArray(ask.amounts),
      companyId,
      pgArray(ask.known),
      companyId,
      pgArray(ask.known),
    ],
  );
  return rows.map((r) => openInvoiceOf(r, r.open));
}
