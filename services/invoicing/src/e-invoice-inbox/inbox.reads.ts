/**
 * Reads of the inbox of received e-invoices (issue #35) that look past one record: the purchase invoice a
 * supplier's earlier document with the same number was booked as, and the archived bytes of a received
 * document for its readable printout. No messaging here.
 */
import type { EntityManager } from '@bm/service-kit';
import type { ReceivedEInvoice } from '../e-invoice-format/index.js';
import { supplierKey } from '../e-invoice-format/index.js';
import { EInvoiceDocumentEntity, PurchaseInvoiceEntity, ReceivedEInvoiceEntity } from '../schema/entities.js';

/** The purchase invoice booked from this supplier's earlier document with the same BT-1 (its figures), or null. */
export async function bookedOriginal(em: EntityManager, doc: ReceivedEInvoice) {
  const archived = await em.findOne(
    EInvoiceDocumentEntity,
    { direction: 'received', partyKey: supplierKey(doc.seller), externalNumber: doc.id },
    { disableIdentityMap: true },
  );
  if (!archived) return null;
  const inv = await em.findOne(
    PurchaseInvoiceEntity,
    { id: archived.documentId },
    { disableIdentityMap: true },
  );
  if (!inv) return null;
  return {
    id: inv.id,
    recordNumber: inv.recordNumber,
    dateCreated: String(inv.dateCreated).slice(0, 10),
    currency: inv.currency1,
    sumTotal: String(inv.sumTotal),
  };
}

/**
 * The archived bytes of a received document, by inbox record `id`, or by the purchase invoice it was
 * booked as (its inbox record, else the e-invoice archive of a document booked before the inbox existed).
 */
export async function archivedBytes(
  em: EntityManager,
  q: { id?: string; purchaseInvoiceId?: string },
): Promise<{ bytes: Buffer; sha256: string; receivedAt: string; channel: string } | null> {
  const where = q.id ? { id: q.id } : q.purchaseInvoiceId ? { purchaseInvoiceId: q.purchaseInvoiceId } : null;
  if (!where) return null;
  const row = await em.findOne(ReceivedEInvoiceEntity, where, {
    disableIdentityMap: true,
    orderBy: { receivedAt: 'asc' },
  });
  if (row)
    return {
      bytes: Buffer.from(row.bytes),
      sha256: row.sha256,
      receivedAt: new Date(row.receivedAt).toISOString(),
      channel: row.channel,
    };
  if (!q.purchaseInvoiceId) return null;
  const a = await em.findOne(
    EInvoiceDocumentEntity,
    { direction: 'received', documentId: q.purchaseInvoiceId },
    { disableIdentityMap: true },
  );
  return a?.bytes
    ? {
        bytes: Buffer.from(a.bytes),
        sha256: a.sha256,
        receivedAt: new Date(a.createdAt).toISOString(),
        channel: 'upload',
      }
    : null;
}
