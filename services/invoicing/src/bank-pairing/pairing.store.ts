/**
 * What a pairing writes (issue #45; DESIGN §6d "Invoicing owns payments"): the open invoices an entry may
 * pay, found by variable symbol, partner or id and locked; the pairings stored as payments with the entry
 * as their source, each posted (bank account against 311 customers or 321 suppliers); a sales invoice's
 * stored state; the payment orders an invoice paid in full leaves; `events.invoicing.invoice-paid`
 * through the outbox. All in the caller's transaction, set-based (one statement per kind of row).
 * Amounts are decimal strings, 2 places, in the invoice's currency.
 */
import { InvoiceEventSubjects, type InvoicePaidEvent } from '@bm/contracts';
import { dec, fmt } from '@bm/money';
import { type EntityManager, entryRows, execBound, insertAll, outboxRow, pgArray } from '@bm/service-kit';
import { PURCHASE_ACCOUNTS, SALES_ACCOUNTS } from '../invoice-rules/index.js';
import type { DecidedPairing, InvoiceBook } from '../payment-rules/index.js';
import { paymentStatusOf } from '../payment-rules/index.js';
import { stateFromTotals } from '../sales-invoice/index.js';
import { AccountingEntryEntity, OutboxEntity, PaymentEntity } from '../schema/entities.js';
import { lockOpenInvoices } from './open-invoices.store.js';

/** A pairing to store: the rule's decision with its entry, date and the bank account's ledger account. */
export interface PairingToStore extends DecidedPairing {
  id: string;
  entryId: string;
  date: string;
  /** The bank account's ledger account (221…). */
  bankAccountCode: string;
}

/** Bank against customers (a sales payment) or suppliers against bank (a purchase payment); a refund the other way. */
export function pairingPosting(p: PairingToStore, recordNumber: string) {
  const amount = dec(p.amount);
  const [debit, credit] =
    p.book === 'sales'
      ? [p.bankAccountCode, SALES_ACCOUNTS.receivable]
      : [PURCHASE_ACCOUNTS.payable, p.bankAccountCode];
  const [d, c] = amount.isNegative() ? [credit, debit] : [debit, credit];
  const kind = p.book === 'sales' ? 'sales' : 'purchase';
  return [
    {
      debitAccount: d,
      creditAccount: c,
      amount: fmt(amount.abs()),
      description: `Bank payment, ${kind} invoice ${recordNumber}`,
    },
  ];
}

/** An invoice whose payments changed, with its total and the sum of its payments after the change. */
export interface InvoiceAfter {
  id: string;
  book: InvoiceBook;
  recordNumber: string;
  sumTotal: string;
  paid: string;
}

/**
 * Stores `pairings` (each a payment of its invoice, posted) and everything that follows from them for
 * `after` (the invoices' sums of payments once stored): the sales invoices' state, the payment orders
 * an invoice paid in full leaves, one `invoice-paid` event per pairing.
 */
export async function storePairings(
  tx: EntityManager,
  companyId: string,
  pairings: readonly PairingToStore[],
  after: ReadonlyMap<string, InvoiceAfter>,
): Promise<void> {
  if (!pairings.length) return;
  const now = new Date();
  const payments = pairings.map((p) => ({
    id: p.id,
    companyId,
    invoiceId: p.invoiceId,
    amount: p.amount,
    date: p.date,
    createdAt: now,
    entryId: p.entryId,
    book: p.book,
    partnerId: p.partnerId,
    overpayment: p.overpayment,
  }));
  const entries = pairings.flatMap((p) =>
    entryRows(companyId, p.id, pairingPosting(p, after.get(p.invoiceId)?.recordNumber ?? '')),
  );
  const events = pairings.map((p) => paidEvent(companyId, after.get(p.invoiceId)!, p.entryId, p.amount));
  await insertAll(tx, [
    { entity: PaymentEntity, rows: payments },
    { entity: AccountingEntryEntity, rows: entries },
    {
      entity: OutboxEntity,
      rows: events.map((e) => outboxRow(companyId, InvoiceEventSubjects.invoicePaid, e)),
    },
  ]);
  await settle(
    tx,
    companyId,
    [...new Set(pairings.map((p) => p.invoiceId))].map((id) => after.get(id)!),
  );
}

/** The `invoice-paid` event of a change of `amount` (signed as the payment; a removal negated). */
export function paidEvent(
  companyId: string,
  inv: InvoiceAfter,
  entryId: string | null,
  amount: string,
): InvoicePaidEvent {
  return {
    eventId: crypto.randomUUID(),
    companyId,
    invoiceId: inv.id,
    book: inv.book,
    recordNumber: inv.recordNumber,
    entryId,
    amount,
    sumTotal: inv.sumTotal,
    paid: inv.paid,
    paymentStatus: paymentStatusOf(inv.sumTotal, inv.paid),
  };
}

/**
 * After the payments of `invoices` changed: a sales invoice's stored state (DESIGN §6 "States"); an
 * invoice now paid in full leaves its open payment order, and an order with nothing open is `done`; one
 * that is open again (a pairing removed) does not return to a done order.
 */
export async function settle(
  tx: EntityManager,
  companyId: string,
  invoices: readonly InvoiceAfter[],
): Promise<void> {
  const sales = invoices.filter((i) => i.book === 'sales');
  if (sales.length)
    await execBound(
      tx,
      `update "invoicing"."sales_invoice" i set "state" = u.state, "updated_at" = now()
         from unnest(?::uuid[], ?::text[]) as u(id, state)
        where i.id = u.id and i.company_id = ? and i.state <> 'cancelled'`,
      [
        pgArray(sales.map((i) => i.id)),
        pgArray(sales.map((i) => stateFromTotals(dec(i.sumTotal), false, dec(i.paid)))),
        companyId,
      ],
    );
  const settled = invoices.filter((i) => ['paid', 'overpaid'].includes(paymentStatusOf(i.sumTotal, i.paid)));
  if (!settled.length) return;
  const closed = await execBound<{ order_id: string }>(
    tx,
    `update "invoicing"."payment_order_item" set "open" = false
      where company_id = ? and invoice_id = any(?::uuid[]) and "open" returning order_id`,
    [companyId, pgArray(settled.map((i) => i.id))],
  );
  if (closed.length)
    await execBound(
      tx,
      `update "invoicing"."payment_order" o set "state" = 'done'
        where o.company_id = ? and o.id = any(?::uuid[]) and o.state = 'open'
          and not exists (select 1 from "invoicing"."payment_order_item" x where x.order_id = o.id and x."open")`,
      [companyId, pgArray([...new Set(closed.map((c) => c.order_id))])],
    );
}

/**
 * Removes the pairings `paymentIds` (of entries being unpaired or reversed): their payments and postings;
 * then settles their invoices and publishes `invoice-paid` with each amount negated. Returns the invoices.
 */
export async function removePairings(
  tx: EntityManager,
  companyId: string,
  paymentIds: readonly string[],
): Promise<InvoiceAfter[]> {
  if (!paymentIds.length) return [];
  const removed = await execBound<{
    id: string;
    invoice_id: string;
    amount: string;
    entry_id: string | null;
  }>(
    tx,
    `delete from "invoicing"."payment" where company_id = ? and id = any(?::uuid[]) returning id, invoice_id, amount::text, entry_id`,
    [companyId, pgArray(paymentIds)],
  );
  await execBound(
    tx,
    `delete from "invoicing"."accounting_entry" where company_id = ? and document_id = any(?::uuid[])`,
    [companyId, pgArray(paymentIds)],
  );
  const invoices = await lockOpenInvoicesAfter(
    tx,
    companyId,
    removed.map((r) => r.invoice_id),
  );
  const byId = new Map(invoices.map((i) => [i.id, i]));
  await insertAll(tx, [
    {
      entity: OutboxEntity,
      rows: removed.map((r) =>
        outboxRow(
          companyId,
          InvoiceEventSubjects.invoicePaid,
          paidEvent(companyId, byId.get(r.invoice_id)!, r.entry_id, fmt(dec(r.amount).negated())),
        ),
      ),
    },
  ]);
  await settle(tx, companyId, invoices);
  return invoices;
}

/** Invoices `ids` (either book) with their totals and sums of payments as stored now. */
export async function lockOpenInvoicesAfter(
  tx: EntityManager,
  companyId: string,
  ids: readonly string[],
): Promise<InvoiceAfter[]> {
  const found = await lockOpenInvoices(tx, companyId, {
    symbols: [],
    partnerIds: [],
    ids: [...new Set(ids)],
  });
  return found.map((i) => ({
    id: i.id,
    book: i.book,
    recordNumber: i.recordNumber,
    sumTotal: i.sumTotal,
    paid: fmt(dec(i.sumTotal).minus(dec(i.open))),
  }));
}
