/**
 * A payment of a sales invoice as a document kind (INTERFACE §4.3 payments; DESIGN §6 "States"; issue
 * #38): the invoice as its lock; in the transaction the invoice locked with its payments, the payment
 * refused or decided with the invoice's new state; its writer adds the payment and sets the state.
 */
import type { SalesInvoice } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { dec } from '@bm/money';
import { type Ctx, type DocumentKind, runDocument, storedNumbering } from '@bm/service-kit';
import { paymentRefusal, stateOf } from './invoice-state.js';
import { getSalesInvoice } from './sales-invoice.queries.js';
import {
  findSalesInvoice,
  lockSalesInvoice,
  paymentsOf,
  type SalesInvoiceRow,
} from './sales-invoice.reads.js';
import { type PaymentWriteSet, paymentWriter } from './sales-invoice.writer.js';

/** A payment to store: `amount` in the invoice's currency (2 decimals, a refund negative), `date` `YYYY-MM-DD`. */
export interface PaymentInput {
  ctx: Ctx;
  invoice: { id: string; companyId: string; recordNumber: string };
  amount: string;
  date: string;
  today: string;
}

/** `POST /1.6/sales/invoices/{id}/payments` as a document kind (service-kit `runDocument`). */
export const paymentKind: DocumentKind<
  PaymentInput,
  { inv: SalesInvoiceRow; payments: { amount: string; date: string }[] },
  PaymentWriteSet,
  SalesInvoice
> = {
  key: 'invoicing:sales-invoice-change',
  declare: (p) => ({
    numbering: storedNumbering('"invoicing"."sales_invoice"', p.invoice.companyId, p.invoice.recordNumber),
    locks: [`sales-invoice:${p.invoice.id}`],
    lazySavepoint: true,
  }),
  read: async (p, doc) => {
    const inv = await lockSalesInvoice(doc.tx, p.invoice.id);
    return { inv, payments: await paymentsOf(doc.tx, p.invoice.id) };
  },
  decide: async (p, { inv, payments }) => {
    refusePayment(paymentRefusal(inv, payments, p.amount, p.today), p.amount);
    const payment = {
      id: crypto.randomUUID(),
      companyId: p.invoice.companyId,
      amount: p.amount,
      date: p.date,
    };
    return { invoiceId: inv.id, payment, state: stateOf(inv, [...payments, payment], p.today).state };
  },
  writer: paymentWriter,
  reply: (_w, _n, p) => getSalesInvoice({ ...p.ctx, em: p.ctx.em.fork() }, p.invoice.id),
};

/**
 * 409 InvalidState for a cancelled or paid invoice, 409 Conflict for the wrong sign or more than the
 * open balance (DESIGN §6 "States").
 */
function refusePayment(refusal: ReturnType<typeof paymentRefusal>, amount: string): void {
  if (refusal?.reason === 'state')
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      `a payment is not allowed: the invoice is ${refusal.state}`,
    );
  if (refusal?.reason === 'sign')
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.Conflict,
      `the payment ${amount} has the wrong sign: the open balance is ${refusal.open}${dec(refusal.open).isNegative() ? ' (a credit note is settled by a refund, a negative amount)' : ''}`,
      { errors: [{ path: 'amount', message: `must have the sign of the open balance ${refusal.open}` }] },
    );
  if (refusal?.reason === 'exceeds')
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.Conflict,
      `the payment ${amount} exceeds the unpaid amount ${refusal.open}`,
      { errors: [{ path: 'amount', message: `at most ${refusal.open}` }] },
    );
}

/**
 * `POST /1.6/sales/invoices/{id}/payments` `{amount, date}` (amount in the invoice's currency, 2 decimals;
 * a refund negative): 404; 409 InvalidState for a cancelled or paid invoice, 409 Conflict for the wrong
 * sign or more than the open balance (DESIGN §6 "States").
 */
export async function addPayment(
  ctx: Ctx,
  id: string,
  data: { amount: string; date?: string },
): Promise<SalesInvoice> {
  const inv = await findSalesInvoice(ctx.em, id);
  const today = todayIn(ctx.timeZone);
  return runDocument(paymentKind, ctx.em, {
    ctx,
    invoice: { id, companyId: ctx.companyId!, recordNumber: inv.recordNumber },
    amount: data.amount,
    date: data.date ?? today,
    today,
  });
}
