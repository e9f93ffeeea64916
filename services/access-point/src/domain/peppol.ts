/**
 * Peppol identifiers and envelopes (issue #23), pure: the BIS Billing 3.0 document type and process ids,
 * participant ids, the deterministic transmission (SBDH instance) id of an attempt, the receiver of a
 * UBL document or of a Standard Business Document, and the UBL taken out of an SBD byte for byte.
 */
import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';

/** Participant identifier scheme of Peppol (ISO 6523 ICD, e.g. `0245` for the Slovak DIČ). */
export const PARTICIPANT_SCHEME = 'iso6523-actorid-upis';
/** Document type ids of Peppol BIS Billing 3.0 (UBL 2.1 Invoice and CreditNote). */
export const DOCUMENT_TYPES = {
  Invoice:
    'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
  CreditNote:
    'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
} as const;
/** Process id of Peppol BIS Billing 3.0. */
export const BILLING_PROCESS = 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** `0245:2020…` → `iso6523-actorid-upis::0245:2020…` (a full id stays as it is). */
export const participantId = (endpoint: string): string =>
  endpoint.includes('::') ? endpoint : `${PARTICIPANT_SCHEME}::${endpoint}`;
/** `iso6523-actorid-upis::0245:2020…` → `0245:2020…`. */
export const endpointOf = (participant: string): string =>
  participant.includes('::') ? participant.slice(participant.indexOf('::') + 2) : participant;

/**
 * The transmission id (SBDH instance id) of `attempt` of invoice `invoiceId`: a UUID derived from both,
 * so a redelivered event or a restarted connector names the same transmission and never sends twice.
 */
export function transmissionId(invoiceId: string, attempt: number): string {
  const h = createHash('sha256')
    .update(`peppol-transmission:${invoiceId.toLowerCase()}:${attempt}`)
    .digest('hex');
  // RFC 9562 version 8 (custom) layout.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The ISO 3166 country of a participant's endpoint, for phoss-ap's C1 country: `0245` is Slovak. */
export function countryOfEndpoint(endpoint: string): string {
  const [scheme, id = ''] = endpoint.split(':');
  if (scheme === '0245') return 'SK';
  const vat = /^[A-Z]{2}/.exec(id.toUpperCase());
  return vat ? vat[0] : 'SK';
}

const parser = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  trimValues: true,
});

/** Refuses DTDs and entity declarations before anything parses the bytes (XXE, billion laughs). */
function assertNoDtd(text: string): void {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new Error('documents with a DTD or entity declarations are refused');
}

const textOf = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : v && typeof v === 'object'
      ? ((v as Record<string, unknown>)['#text'] as string)
      : undefined;

/**
 * The receiver endpoint `scheme:identifier` of a UBL Invoice or CreditNote (BT-49, the buyer's
 * `cbc:EndpointID` with `schemeID`), or null.
 * @throws Error when the bytes are not XML or carry a DTD
 */
export function receiverOfUbl(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes).toString('utf8');
  assertNoDtd(text);
  const doc = parser.parse(text) as Record<string, any>;
  const root = doc.Invoice ?? doc.CreditNote;
  const endpoint = root?.AccountingCustomerParty?.Party?.EndpointID;
  const id = textOf(endpoint);
  const scheme = endpoint?.['@_schemeID'];
  return id && scheme ? `${scheme}:${id}` : null;
}

/** What an SBD carries for routing: the receiver endpoint and the instance id, and the UBL's bytes. */
export interface OpenedSbd {
  receiver: string | null;
  instanceId: string | null;
  ubl: Buffer;
}

/**
 * Opens a Standard Business Document: the SBDH receiver and instance id, and the business document
 * (the element after the header) as the exact bytes it has inside the envelope, not re-serialised.
 * A document that is not an SBD (a bare UBL) is returned whole.
 * @throws Error when there is no business document, or a DTD
 */
export function openSbd(bytes: Buffer): OpenedSbd {
  const text = bytes.toString('utf8');
  assertNoDtd(text);
  if (!/<(?:[\w.-]+:)?StandardBusinessDocument[\s>]/.test(text))
    return { receiver: receiverOfUbl(bytes), instanceId: null, ubl: bytes };
  const headerEnd = /<\/(?:[\w.-]+:)?StandardBusinessDocumentHeader\s*>/.exec(text);
  if (!headerEnd) throw new Error('the SBD has no StandardBusinessDocumentHeader');
  const afterHeader = headerEnd.index + headerEnd[0].length;
  const start = text.indexOf('<', afterHeader);
  const close = /<\/(?:[\w.-]+:)?StandardBusinessDocument\s*>\s*$/.exec(text);
  if (start < 0 || !close || close.index <= start) throw new Error('the SBD carries no business document');
  // Byte offsets of the character offsets (the text is UTF-8).
  const from = Buffer.byteLength(text.slice(0, start), 'utf8');
  const to = Buffer.byteLength(text.slice(0, close.index).trimEnd(), 'utf8');
  const header = parser.parse(text.slice(0, afterHeader).concat('</StandardBusinessDocument>')) as Record<
    string,
    any
  >;
  const sbdh = header.StandardBusinessDocument?.StandardBusinessDocumentHeader;
  const receiverId = textOf(sbdh?.Receiver?.Identifier);
  const instanceId = textOf(sbdh?.DocumentIdentification?.InstanceIdentifier) ?? null;
  return { receiver: receiverId ? endpointOf(receiverId) : null, instanceId, ubl: bytes.subarray(from, to) };
}
