/**
 * Received documents (issue #23): every transport ends here. The receiving company is the one whose
 * `peppolId` is the document's receiver endpoint (the SBDH receiver, else the UBL's BT-49); the UBL is
 * taken out of the SBD without changing a byte and booked through `invoicing.purchase-e-invoices.receive`
 * (which archives those bytes). A document received before is answered as taken (nothing is stored
 * twice); a refusal carries a reason the access point can report to the sender (`FD` not deliverable
 * here, `BV` business rules, `SV` not a readable document).
 */
import { findCompanyByPeppolId, receivePurchaseEInvoice } from '@bm/contracts';
import { AppError, ErrorCode } from '@bm/errors';
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

/**
 * Books one received document. Resolves to taken or refused; rejects on a transient failure (a service
 * down), so the transport retries later.
 */
export async function receiveDocument(nc: NatsConnection, bytes: Buffer): Promise<InboundResult> {
  let opened: ReturnType<typeof openSbd>;
  try {
    opened = openSbd(bytes);
  } catch (e) {
    return { ok: false, status: 400, code: 'SV', reason: `not a readable document: ${(e as Error).message}` };
  }
  if (!opened.receiver)
    return { ok: false, status: 422, code: 'FD', reason: 'the document names no receiver endpoint' };
  const companyId = await companyOf(nc, opened.receiver);
  if (!companyId)
    return {
      ok: false,
      status: 404,
      code: 'FD',
      reason: `no company here has the Peppol id ${opened.receiver}`,
    };
  try {
    const inv = await request(
      nc,
      receivePurchaseEInvoice,
      { document: opened.ubl.toString('base64') },
      { companyId, requestId: crypto.randomUUID() },
      { timeoutMs: 30_000 },
    );
    return { ok: true, duplicate: false, companyId, purchaseInvoiceId: inv.id };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.code === ErrorCode.DuplicateRecordNumber)
      return { ok: true, duplicate: true, companyId, purchaseInvoiceId: null };
    if (e.kind === 'invalid' || e.kind === 'unprocessable') {
      const detail = e.errors?.length
        ? `${e.message}: ${e.errors.map((x) => `${x.path} ${x.message}`).join('; ')}`
        : e.message;
      const code =
        e.code === ErrorCode.EInvoiceNotValid
          ? 'BV'
          : e.code === ErrorCode.EInvoiceNotForThisCompany
            ? 'FD'
            : e.kind === 'invalid'
              ? 'SV'
              : 'BV';
      return { ok: false, status: e.kind === 'invalid' ? 400 : 422, code, reason: detail };
    }
    throw e;
  }
}
