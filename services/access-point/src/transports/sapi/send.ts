/**
 * Sending an issued e-invoice over SAPI-SK 1.0 (issue #35): the envelope, its idempotency key, and what
 * each answer means for the e-invoice's delivery status.
 *
 * - `Idempotency-Key` and `metadata.documentId` are one name-based UUID (RFC 9562 v5) of (invoice,
 *   attempt): a retry after a timeout is collapsed by the provider; a resend (the next attempt) is new.
 * - `payload` is the issued UBL as a string, byte for byte; `checksum` the SHA-256 of those bytes (hex).
 * - `documentTypeId` and `processId` are the Peppol identifiers of BIS Billing 3.0 (Invoice, CreditNote).
 * - Every byte of a send under one key is a function of (invoice, attempt): `creationDateTime` is the
 *   time the e-invoice was issued, not the time of the try, so a retry after a lost answer is collapsed
 *   by the provider, never `IDEMPOTENCY_KEY_MISMATCH` (issue #43).
 * - 202 `ACCEPTED` → `sent` (SAPI-SK 1.0 has no delivery status); `REJECTED` → `rejected`. Of the errors
 *   (errors.ts) only the document's own fault — `VALIDATION` or `PERMANENT` in the provider's error body —
 *   is `rejected`, with the provider's code and message. `AUTH` is the company's credentials, never the
 *   document's: {@link CredentialsRefused}, the invoice waits `queued` (issue #43). A non-retryable
 *   `PROCESSING` is `failed` (resend by hand). Anything else — `TEMPORARY`, 409 (the same key still in
 *   flight), 429, 5xx, network, an answer that is not SAPI-SK's — is {@link RetryLater}, the same key next
 *   time.
 */
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { Outbound, Outcome } from '../transport.js';
import type { SapiClient } from './client.js';
import { isDocumentsFault, SapiError } from './errors.js';

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

/**
 * A retryable failure: the event is delivered again after `retryAfterMs` (the provider's, when it said).
 * `code` is the reason a give-up reports (`failed` with it): `TRANSPORT`, or `AUTH` for refused credentials.
 */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
    readonly code: string = 'TRANSPORT',
    options?: { cause: Error },
  ) {
    super(message, options);
    this.name = 'RetryLater';
  }
}

/** The provider refused the company's credentials (`AUTH`): the invoice waits until they are fixed. */
export class CredentialsRefused extends RetryLater {
  constructor(message: string, retryAfterMs: number | null, options?: { cause: Error }) {
    super(message, retryAfterMs, 'AUTH', options);
    this.name = 'CredentialsRefused';
  }
}

/** The JSON body of `POST /document/send` for `doc`: a function of `doc` alone (the same bytes at every try). */
export function envelopeOf(doc: Outbound) {
  return {
    metadata: {
      documentId: sendKey(doc.invoiceId, doc.attempt),
      documentTypeId: BIS_DOCUMENT_TYPE[doc.documentType],
      processId: BIS_PROCESS_ID,
      senderParticipantId: doc.senderId,
      receiverParticipantId: doc.receiverId,
      creationDateTime: new Date(doc.issuedAt).toISOString(),
    },
    payload: doc.document.toString('utf8'),
    payloadFormat: 'XML',
    payloadEncoding: 'UTF-8',
    checksum: createHash('sha256').update(doc.document).digest('hex'),
  };
}

/**
 * Sends `doc` through `client`. @throws CredentialsRefused on `AUTH`; RetryLater on anything that is
 * neither the document's fault nor final
 */
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
    const reason = { code: e.code, message: e.message };
    if (isDocumentsFault(e)) return { status: 'rejected', sent: false, reasons: [reason] };
    if (e.category === 'AUTH')
      throw new CredentialsRefused(`${e.code}: ${e.message}`, e.retryAfterMs, { cause: e });
    if (e.category === 'PROCESSING' && !e.retryable && e.fromProvider)
      return { status: 'failed', reasons: [reason] };
    throw new RetryLater(`${e.code}: ${e.message}`, e.retryAfterMs, 'TRANSPORT', { cause: e });
  }
}
