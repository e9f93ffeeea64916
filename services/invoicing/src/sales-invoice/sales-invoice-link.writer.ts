import type { EntityManager } from '@bm/service-kit';
import { SalesInvoiceEntity } from '../schema/entities.js';

/** Sets `warehouseRecordNo` of an invoice an issue card was copied from (stock-issued consumer). */
export async function linkIssueCard(
  em: EntityManager,
  invoiceId: string,
  recordNumber: string,
): Promise<boolean> {
  const n = await em.nativeUpdate(SalesInvoiceEntity, { id: invoiceId }, { warehouseRecordNo: recordNumber });
  return n > 0;
}
