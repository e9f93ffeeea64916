/** The warehouse's request for a sales invoice to copy into an issue card (INTERFACE §4.1 copy), over NATS. */
import { getSalesInvoiceCopySource, type ReplyOf } from '@bm/contracts';
import { AppError, ErrorCode, referenceNotFound } from '@bm/errors';
import { type RequestContext, request } from '@bm/messaging';
import type { ServiceKit } from '@bm/service-kit';

/**
 * The sales invoice `id` as a copy source (its rows, warehouse, partner, whether it is cancelled).
 * @throws 422 ReferenceNotFound on `sourceId` when invoicing knows no such invoice of the company
 */
export function salesInvoiceCopySource(
  kit: Pick<ServiceKit, 'nc'>,
  ctx: RequestContext,
  id: string,
): Promise<ReplyOf<typeof getSalesInvoiceCopySource>> {
  return request(kit.nc, getSalesInvoiceCopySource, { id }, ctx).catch((e) => {
    if (e instanceof AppError && e.code === ErrorCode.NotFound)
      throw referenceNotFound('sourceId', 'issue card, receipt card or sales invoice');
    throw e;
  });
}
