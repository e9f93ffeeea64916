/**
 * Payment orders (issue #45; DESIGN §6d): purchase invoices paid by a SEPA credit transfer order,
 * pain.001.001.03, for the bank's internet banking. The invoices show the order; they are paid only when
 * a statement says so (the pairing closes the order's item; an order with nothing open is `done`).
 * Amounts in EUR, 2 decimals; dates `YYYY-MM-DD`.
 *
 * Refused with 422, naming each invoice (`invoiceIds[i]`): not a purchase invoice of the company, no IBAN
 * (neither on the invoice nor the supplier), not in EUR (SEPA is euro-only), nothing left to pay, already
 * in an open order. The last is also a unique key (an invoice in at most one open order), so two orders
 * made at once cannot both take it.
 */
import { createHash } from 'node:crypto';
import { ErrorCode, type FieldError, unprocessable } from '@bm/errors';
import { dec, fmt, sum } from '@bm/money';
import type { EntityManager } from '@bm/service-kit';
import { endToEndIdOf, writePain001 } from '../bank-format/index.js';
import { payableInvoices } from './payment-order.store.js';

/** The order asked for, with the debtor (company and account) resolved before the transaction. */
export interface OrderRequest {
  companyId: string;
  companyName: string;
  account: { id: string; iban: string; bic: string | null; currency: string };
  invoiceIds: string[];
  executionDate: string;
  now: Date;
}

/** The order decided: its row, items and bytes. */
export interface DecidedOrder {
  order: Record<string, unknown> & { id: string };
  items: Record<string, unknown>[];
}

/** Decides the order in `tx` (its invoices locked). @throws 422 naming each invoice that cannot be in it */
export async function decideOrder(tx: EntityManager, r: OrderRequest): Promise<DecidedOrder> {
  const ids = [...new Set(r.invoiceIds.map((i) => i.toLowerCase()))];
  const found = new Map((await payableInvoices(tx, r.companyId, ids)).map((i) => [i.id, i]));
  const errors: FieldError[] = [];
  const transfers: {
    invoiceId: string;
    amount: string;
    iban: string;
    creditorName: string;
    endToEndId: string;
    remittance: string;
  }[] = [];
  for (const [i, id] of r.invoiceIds.entries()) {
    const path = `invoiceIds[${i}]`;
    const inv = found.get(id.toLowerCase());
    if (!inv) {
      errors.push({ path, message: 'not a purchase invoice of this company' });
      continue;
    }
    const open = dec(inv.sumTotal).minus(dec(inv.paid));
    const problem = !inv.iban
      ? `${inv.recordNumber}: no IBAN (set iban on the invoice or the supplier)`
      : inv.currency !== 'EUR'
        ? `${inv.recordNumber}: in ${inv.currency}; a SEPA order pays euros only`
        : !open.gt(0)
          ? `${inv.recordNumber}: nothing left to pay (${fmt(open)} open)`
          : inv.inOpenOrder
            ? `${inv.recordNumber}: already in an open payment order`
            : null;
    if (problem) errors.push({ path, message: problem });
    else if (transfers.every((t) => t.invoiceId !== inv.id))
      transfers.push({
        invoiceId: inv.id,
        amount: fmt(open),
        iban: inv.iban!,
        creditorName: inv.partnerName ?? inv.recordNumber,
        endToEndId: endToEndIdOf(inv),
        remittance: inv.externalRecordNumber ?? inv.recordNumber,
      });
  }
  if (r.account.currency !== 'EUR')
    errors.push({
      path: 'bankAccountId',
      message: `the account is in ${r.account.currency}; a SEPA order pays euros only`,
    });
  if (errors.length)
    throw unprocessable(
      ErrorCode.ValidationFailed,
      `${errors.length} of the order's invoices cannot be paid by it`,
      { errors },
    );
  const id = crypto.randomUUID();
  const messageId = `PO-${id.replace(/-/g, '').slice(0, 24).toUpperCase()}`;
  const total = fmt(sum(transfers.map((t) => t.amount)));
  const xml = writePain001({
    messageId,
    createdAt: r.now.toISOString(),
    executionDate: r.executionDate,
    debtorName: r.companyName,
    debtorIban: r.account.iban,
    debtorBic: r.account.bic,
    total,
    transfers: transfers.map((t) => ({
      endToEndId: t.endToEndId,
      amount: t.amount,
      creditorName: t.creditorName,
      creditorIban: t.iban,
      remittance: t.remittance,
    })),
  });
  const bytes = Buffer.from(xml, 'utf8');
  return {
    order: {
      id,
      companyId: r.companyId,
      bankAccountId: r.account.id,
      messageId,
      executionDate: r.executionDate,
      currency: 'EUR',
      total,
      itemCount: transfers.length,
      state: 'open',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes,
      createdAt: r.now,
      cancelledAt: null,
    },
    items: transfers.map((t) => ({
      id: crypto.randomUUID(),
      companyId: r.companyId,
      orderId: id,
      invoiceId: t.invoiceId,
      amount: t.amount,
      iban: t.iban,
      endToEndId: t.endToEndId,
      open: true,
    })),
  };
}
