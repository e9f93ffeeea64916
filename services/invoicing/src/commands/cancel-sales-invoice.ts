/** The cancel-sales-invoice command (INTERFACE §4.3 cancel; DESIGN §6 "States"): entries reversed. */

import type { SalesInvoice } from '@bm/contracts';
import { notFound } from '@bm/errors';
import { addEntries, type Ctx, entryDtos } from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import { reversal } from '../domain/invoice-accounting.js';
import { AccountingEntryEntity, SalesInvoiceEntity } from '../persistence/entities.js';
import { getSalesInvoice } from '../queries/sales-invoices.js';
import { assertEditable } from './sales-invoice-guards.js';

/** `POST /1.6/sales/invoices/{id}/cancel`: only an unpaid invoice; its entries are reversed. */
export async function cancelSalesInvoice(ctx: Ctx, id: string): Promise<SalesInvoice> {
  await ctx.em.transactional(async (tx) => {
    const inv = await tx.findOne(SalesInvoiceEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!inv) throw notFound('Sales invoice');
    await assertEditable({ ...ctx, em: tx }, inv, 'cancelling');
    inv.cancelled = true;
    inv.state = 'cancelled';
    inv.updatedAt = new Date();
    const entries = await tx.find(AccountingEntryEntity, { documentId: id }, { orderBy: { lineNo: 'asc' } });
    addEntries(
      tx,
      AccountingEntryEntity,
      ctx.companyId!,
      id,
      reversal(entryDtos(entries), `Cancellation of ${inv.recordNumber}`),
      entries.length + 1,
    );
  });
  return getSalesInvoice(ctx, id);
}
