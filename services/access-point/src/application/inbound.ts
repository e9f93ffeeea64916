/**
 * Received documents (issues #23, #35): every transport ends here. The receiving company is the mailbox's
 * owner (SAPI-SK), else the one whose `peppolId` is the document's receiver endpoint (the SBDH receiver,
 * else the UBL's BT-49); the UBL is taken out of the SBD without changing a byte and stored in that
 * company's inbox (`invoicing.received-e-invoices.store`), which books it. A document received before is
 * answered as taken (nothing is stored twice); only a document for no company here (`FD`) or not a
 * document at all (`SV`) is refused back.
 */
import { findCompanyByPeppolId, storeReceivedEInvoice } from '@bm/contracts';
import { type NatsConnection, request } from '@bm/messaging';
import { openSbd } from '../domain/peppol.js';
import type { InboundResult } from '../transports/transport.js';

/** The company whose `peppolId` is `endpoint`, or null (asks invoicing). */
export async function companyOf(nc: NatsConnection, endpoint: string): Promise<string | null> {
  const r = await request(
    nc,
    findCompanyByPeppolId,
    { peppolId: endpoint },
    { requestId: crypto.randomUUID() },
  );
  return r.companyId;
}

/** The inbox channel of a transport's `via` (`folder:<file>` → `folder`). */
const channelOf = (via: string): 'sapi' | 'phoss' | 'folder' | 'loopback' => {
  const c = via.split(':')[0];
  return c === 'sapi' || c === 'phoss' || c === 'folder' ? c : 'loopback';
};

/**
 * Stores one received document in the receiving company's inbox (issue #35: store first, then book;
 * one that cannot be booked is kept as `needs-attention`, never refused back). `companyId` is known for a
 * mailbox (SAPI-SK); otherwise the receiver endpoint names it. Resolves to stored, or refused when the
 * document is for no company here or is not a document at all; rejects on a transient failure (a service
 * down, or the booking of a stored document interrupted), so the transport delivers it again.
 */
export async function receiveDocument(
  nc: NatsConnection,
  bytes: Buffer,
  via: string,
  known: {
    companyId: string;
    providerDocumentId: string | null;
    senderId: string | null;
    receiverId: string | null;
    /** Issue #43: a problem found on the way (a checksum mismatch): kept as `needs-attention`, not booked. */
    problem?: { rule: string; message: string } | null;
  } | null = null,
): Promise<InboundResult> {
  let ubl = bytes;
  let receiver = known?.receiverId ?? null;
  const sender = known?.senderId ?? null;
  if (!known) {
    let opened: ReturnType<typeof openSbd>;
    try {
      opened = openSbd(bytes);
    } catch (e) {
      return {
        ok: false,
        status: 400,
        code: 'SV',
        reason: `not a readable document: ${(e as Error).message}`,
      };
    }
    if (!opened.receiver)
      return { ok: false, status: 422, code: 'FD', reason: 'the document names no receiver endpoint' };
    ubl = opened.ubl;
    receiver = opened.receiver;
  }
  const companyId = known?.companyId ?? (receiver ? await companyOf(nc, receiver) : null);
  if (!companyId)
    return { ok: false, status: 404, code: 'FD', reason: `no company here has the Peppol id ${receiver}` };
  const r = await request(
    nc,
    storeReceivedEInvoice,
    {
      document: ubl.toString('base64'),
      channel: channelOf(via),
      providerDocumentId: known?.providerDocumentId ?? null,
      senderParticipantId: sender,
      receiverParticipantId: receiver,
      problem: known?.problem ?? null,
    },
    { companyId, requestId: crypto.randomUUID() },
    { timeoutMs: 30_000 },
  );
  return {
    ok: true,
    duplicate: !r.stored,
    companyId,
    recordId: r.id,
    status: r.status,
    purchaseInvoiceId: r.purchaseInvoiceId,
  };
}
