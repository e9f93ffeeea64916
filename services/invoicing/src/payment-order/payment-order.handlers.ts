/**
 * The `invoicing.payment-orders.*` handlers (issue #45): the debtor resolved and the execution date
 * checked before the transaction; the work is in payment-order.ts through the order kind.
 */
import { cancelPaymentOrder, createPaymentOrder, getPaymentOrder, type PaymentOrder } from '@bm/contracts';
import { ErrorCode, unprocessable } from '@bm/errors';
import { serve, todayIn } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { companyProfile } from '../references/index.js';
import { BankAccountEntity } from '../schema/entities.js';
import { businessDayFrom, nextBusinessDay } from './business-day.js';
import { runOrder } from './payment-order.kind.js';
import { readOrder } from './payment-order.store.js';

type X = { em: Ctx['em'] };

/**
 * `POST /1.6/bank/payment-orders` `{bankAccountId, invoiceIds, executionDate?}`: `executionDate` defaults
 * to the next business day; a date that is not one moves to the next (a weekend to Monday); a past date
 * is 422. @throws 422 ReferenceNotFound (bankAccountId), ValidationFailed (executionDate, invoices)
 */
async function createOrder(
  ctx: Ctx,
  q: { bankAccountId: string; invoiceIds: string[]; executionDate?: string },
) {
  const account = await ctx.em.findOne(
    BankAccountEntity,
    { id: q.bankAccountId.toLowerCase() },
    { disableIdentityMap: true },
  );
  if (!account)
    throw unprocessable(ErrorCode.ReferenceNotFound, 'no such bank account', {
      errors: [{ path: 'bankAccountId', message: 'not a bank account of this company' }],
    });
  const today = todayIn(ctx.timeZone);
  if (q.executionDate && q.executionDate < today)
    throw unprocessable(ErrorCode.ValidationFailed, `the execution date ${q.executionDate} is in the past`, {
      errors: [{ path: 'executionDate', message: `at the earliest ${today}` }],
    });
  const profile = await companyProfile(ctx.em);
  return runOrder(ctx, {
    op: 'create',
    request: {
      companyId: ctx.companyId!,
      companyName: profile.name,
      account: { id: account.id, iban: account.iban, bic: account.bic ?? null, currency: account.currency },
      invoiceIds: q.invoiceIds,
      executionDate: q.executionDate ? businessDayFrom(q.executionDate) : nextBusinessDay(today),
      now: new Date(),
    },
  });
}

/** Registers the payment-order handlers. */
export function registerPaymentOrders(kit: ServiceKit): void {
  const o = kit.serveOpts;
  serve<typeof createPaymentOrder, X>(kit.service, createPaymentOrder, (q, ctx) => createOrder(ctx, q), o);
  serve<typeof getPaymentOrder, X>(
    kit.service,
    getPaymentOrder,
    async (q, ctx) => {
      const { order, bytes } = await readOrder(ctx.em, ctx.companyId!, q.id);
      return { ...(order as PaymentOrder), document: bytes.toString('base64') };
    },
    o,
  );
  serve<typeof cancelPaymentOrder, X>(
    kit.service,
    cancelPaymentOrder,
    (q, ctx) => runOrder(ctx, { op: 'cancel', id: q.id }),
    o,
  );
}
