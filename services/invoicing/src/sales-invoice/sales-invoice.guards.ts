import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import type { Ctx, EntityManager } from '@bm/service-kit';
import { isEInvoiceIssued } from '../e-invoice-archive/index.js';
import { lockOpenPeriod, resolvePeriodLocal } from '../references/index.js';
import { changeRefusal } from './invoice-state.js';
import { paymentsOf, type SalesInvoiceRow } from './sales-invoice.reads.js';

/**
 * 409 InvalidState unless the invoice has no payment, is not cancelled and its period is open (an
 * `issued` invoice, or a zero-total one, which is `paid` without any payment).
 */
export async function assertEditable(ctx: Ctx, inv: SalesInvoiceRow, what: string): Promise<void> {
  const refused = changeRefusal(inv, await paymentsOf(ctx.em, inv.id), todayIn(ctx.timeZone));
  if (refused)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      `${what} is not allowed: the invoice is ${refused}`,
    );
  try {
    await resolvePeriodLocal(ctx.em, inv.periodId, inv.dateAccounting);
    if (ctx.em.isInTransaction()) await lockOpenPeriod(ctx.em, inv.periodId);
  } catch (e) {
    if (e instanceof AppError && e.code === ErrorCode.PeriodClosed) {
      throw new AppError(
        ErrorKind.conflict,
        ErrorCode.InvalidState,
        `${what} is not allowed: the invoice's period is closed`,
      );
    }
    throw e;
  }
}

/**
 * 409 InvalidState once the invoice's e-invoice is issued (issue #21; DESIGN §6a): its bytes are frozen,
 * so the invoice is corrected by a credit note. Payments and cancelling stay allowed.
 */
export async function assertNotIssued(em: EntityManager, id: string): Promise<void> {
  if (await isEInvoiceIssued(em, id))
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      'an update is not allowed: the e-invoice is issued (its bytes are frozen); correct it with a credit note (correctedInvoiceId)',
    );
}
