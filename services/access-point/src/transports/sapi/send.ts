/**
 * Sending an issued e-invoice over SAPI-SK 1.0 (issue #35): the envelope, its idempotency key, and what
 * each answer means for the e-invoice's delivery status.
 *
 * - `Idempotency-Key` and `metadata.documentId` are one name-based UUID (RFC 9562 v5) of (invoice,
 *   attempt): a retry after a timeout is collapsed by the provider; a resend (the next attempt) is new.
 * - `payload` is the issued UBL as a string, byte for byte; `checksum` the SHA-256 of those bytes (hex).
 * - `documentTypeId` and `processId` are the Peppol identifiers of BIS Billing 3.0 (Invoice, CreditNote).
 * - 202 `ACCEPTED` → `sent` (SAPI-SK 1.0 has no delivery status); `REJECTED` → `rejected`;
 *   `VALIDATION`, `PERMANENT`, `AUTH` (after the client's one re-mint) → `rejected` with the provider's
 *   code and message; a retryable error (`TEMPORARY`, 429, 5xx, network) → {@link RetryLater}, the same
 *   key next time.
 */
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { Outbound, Outcome } from '../transport.js';
import { type SapiClient, SapiError } from './client.js';

/** Peppol BIS Billing 3.0 document type identifiers (the `busdox-docid-qns` values). */
export const BIS_DOCUMENT_TYPE = {
  Invoice:
    'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
  CreditNote:
    'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
} as const;
/** Peppol BIS Billing 3.0 process identifier. */
export const BIS_PROCESS_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** The namespace of this product's SAPI-SK document ids (a fixed random UUID). */
const SEND_NAMESPACE = '5b0f3f38-7d0e-4c55-9a8e-2f5ad1c4b6e1';

/** The `Idempotency-Key` and `metadata.documentId` of `attempt` of invoice `invoiceId`. */
export const sendKey = (invoiceId: string, attempt: number): string =>
  uuidv5(`sapi-send:${invoiceId.toLowerCase()}:${attempt}`, SEND_NAMESPACE);

/** A retryable failure: the event is delivered again after `retryAfterMs` (the provider's, when it said). */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
    this.name = 'RetryLater';
  }
}

/** The JSON body of `POST /document/send` for `doc`. */
export function envelopeOf(doc: Outbound, now = new Date()) {
  return {
    metadata: {
      documentId: sendKey(doc.invoiceId, doc.attempt),
      documentTypeId: BIS_DOCUMENT_TYPE[doc.documentType],
      processId: BIS_PROCESS_ID,
      senderParticipantId: doc.senderId,
      receiverParticipantId: doc.receiverId,
      creationDateTime: now.toISOString(),
    },
    payload: doc.document.toString('utf8'),
    payloadFormat: 'XML',
    payloadEncoding: 'UTF-8',
    checksum: createHash('sha256').update(doc.document).digest('hex'),
  };
}

/** Sends `doc` through `client`. @throws RetryLater on a retryable failure */
export async function sendViaSapi(client: SapiClient, doc: Outbound): Promise<Outcome> {
  try {
    const r = await client.send(doc.senderId, sendKey(doc.invoiceId, doc.attempt), envelopeOf(doc));
    if (r.status === 'REJECTED')
      return {
        status: 'rejected',
        sent: false,
        reasons: [{ code: 'REJECTED', message: r.reason ?? 'the access point rejected the document' }],
      };
    return { status: 'sent', transmissionId: r.providerDocumentId ?? undefined };
  } catch (e) {
    if (!(e instanceof SapiError)) throw e;
    if (e.retryable) throw new RetryLater(`${e.code}: ${e.message}`, e.retryAfterMs);
    return { status: 'rejected', sent: false, reasons: [{ code: e.code, message: e.message }] };
  }
}
