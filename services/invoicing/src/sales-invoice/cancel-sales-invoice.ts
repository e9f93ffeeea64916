/** The cancel-sales-invoice command (INTERFACE §4.3 cancel; DESIGN §6 "States"): entries reversed. */

import type { SalesInvoice } from '@bm/contracts';
import { type Ctx, entryDtos } from '@bm/service-kit';
import { reversal } from '../invoice-rules/index.js';
import { assertEditable } from './sales-invoice.guards.js';
import { getSalesInvoice } from './sales-invoice.queries.js';
import { entriesOf, lockSalesInvoice } from './sales-invoice.reads.js';
import { writeCancellation } from './sales-invoice.writer.js';

/** `POST /1.6/sales/invoices/{id}/cancel`: only an unpaid invoice in an open period (else 409 InvalidState; 404); its entries are reversed. */
export async function cancelSalesInvoice(ctx: Ctx, id: string): Promise<SalesInvoice> {
  await ctx.em.transactional(async (tx) => {
    const inv = await lockSalesInvoice(tx, id);
    await assertEditable({ ...ctx, em: tx }, inv, 'cancelling');
    const entries = await entriesOf(tx, id);
    writeCancellation(
      tx,
      inv,
      reversal(entryDtos(entries), `Cancellation of ${inv.recordNumber}`),
      entries.length,
    );
  });
  return getSalesInvoice(ctx, id);
}
