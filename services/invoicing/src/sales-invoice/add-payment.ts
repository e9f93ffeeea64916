/** The add-payment command (INTERFACE §4.3 payments; DESIGN §6 "States"). */
import type { SalesInvoice } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { dec } from '@bm/money';
import type { Ctx } from '@bm/service-kit';
import { paymentRefusal, stateOf } from './invoice-state.js';
import { getSalesInvoice } from './sales-invoice.queries.js';
import { lockSalesInvoice, paymentsOf } from './sales-invoice.reads.js';
import { writePayment } from './sales-invoice.writer.js';

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
  await ctx.em.transactional(async (tx) => {
    const inv = await lockSalesInvoice(tx, id);
    const payments = await paymentsOf(tx, id);
    const refusal = paymentRefusal(inv, payments, data.amount, todayIn(ctx.timeZone));
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
        `the payment ${data.amount} has the wrong sign: the open balance is ${refusal.open}${dec(refusal.open).isNegative() ? ' (a credit note is settled by a refund, a negative amount)' : ''}`,
        { errors: [{ path: 'amount', message: `must have the sign of the open balance ${refusal.open}` }] },
      );
    if (refusal?.reason === 'exceeds')
      throw new AppError(
        ErrorKind.conflict,
        ErrorCode.Conflict,
        `the payment ${data.amount} exceeds the unpaid amount ${refusal.open}`,
        { errors: [{ path: 'amount', message: `at most ${refusal.open}` }] },
      );
    const payment = {
      id: crypto.randomUUID(),
      companyId: ctx.companyId!,
      amount: data.amount,
      date: data.date ?? todayIn(ctx.timeZone),
    };
    writePayment(tx, inv, payment, stateOf(inv, [...payments, payment], todayIn(ctx.timeZone)).state);
  });
  return getSalesInvoice(ctx, id);
}
