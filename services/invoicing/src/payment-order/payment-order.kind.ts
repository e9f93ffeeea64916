/**
 * A payment order and its cancellation are document kinds (issue #45), run by `runDocument` in the group
 * commit of `invoicing:payment-order`. The record number is the order's id (`storedNumbering`: nothing is
 * counted); the invoices' row locks and the unique key of open items keep two orders from paying one
 * invoice twice. The reply is the order as stored.
 */
import type { PaymentOrder } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type Ctx, type DocumentKind, runDocument, storedNumbering } from '@bm/service-kit';
import { decideOrder, type OrderRequest } from './payment-order.js';
import { cancelOrder, insertOrder, lockOrder, readOrder } from './payment-order.store.js';

export type OrderChange = { op: 'create'; request: OrderRequest } | { op: 'cancel'; id: string };

export interface OrderInput {
  ctx: Ctx;
  change: OrderChange;
}

const keyOf = (d: OrderInput) => (d.change.op === 'create' ? `new:${crypto.randomUUID()}` : d.change.id);

export const paymentOrderKind: DocumentKind<OrderInput, null, string, PaymentOrder> = {
  key: 'invoicing:payment-order',
  declare: (d) => {
    const key = keyOf(d);
    return {
      numbering: storedNumbering('"invoicing"."payment_order"', d.ctx.companyId!, key),
      locks: [`payment-order:${key}`],
    };
  },
  read: async () => null,
  decide: async (d, _s, doc) => {
    const companyId = d.ctx.companyId!;
    if (d.change.op === 'create') {
      const decided = await decideOrder(doc.tx, d.change.request);
      await insertOrder(doc.tx, decided.order, decided.items);
      return decided.order.id;
    }
    const o = await lockOrder(doc.tx, companyId, d.change.id);
    if (o.state !== 'open')
      throw new AppError(
        ErrorKind.conflict,
        ErrorCode.InvalidState,
        `the payment order is ${o.state}: only an open one can be cancelled`,
      );
    await cancelOrder(doc.tx, companyId, o.id);
    return o.id;
  },
  writer: () => [],
  reply: async (id, _n, d) => (await readOrder(d.ctx.em.fork(), d.ctx.companyId!, id)).order as PaymentOrder,
};

/** Runs a payment order's creation or cancellation. */
export const runOrder = (ctx: Ctx, change: OrderChange) =>
  runDocument(paymentOrderKind, ctx.em, { ctx, change });
