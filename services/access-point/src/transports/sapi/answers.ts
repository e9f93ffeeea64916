/**
 * Reading SAPI-SK answers (issue #43): the error of a non-2xx answer, and the documents of a listing in
 * each shape the sources show (flat items, or a nested `metadata`; `documents` or `payload.documents`).
 * An answer of an unknown shape is an `UNRECOGNISED` error, never an empty result.
 */
import { errorOfAnswer, SapiError } from './errors.js';

/** A received document as the mailbox lists it (flat items, or with a nested `metadata`: both are in use). */
export interface ListedDocument {
  documentId: string;
  metadata: Record<string, unknown> | null;
  status: string | null;
}

/** The error of a non-2xx answer: the provider's error body where there is one (errors.ts). */
export async function errorOf(res: Response): Promise<SapiError> {
  let body: unknown = null;
  try {
    body = JSON.parse(await res.text());
  } catch {
    /* not JSON */
  }
  return errorOfAnswer(res.status, res.statusText, body, res.headers.get('retry-after'));
}

/** A 2xx answer whose body is not what SAPI-SK answers: an error, never an empty result. */
export const unrecognised = (status: number, what: string) =>
  new SapiError(status, 'UNRECOGNISED', 'UNRECOGNISED-ANSWER', `the provider's answer ${what}`, true);

/** The documents of a list answer: `documents`, or `payload.documents` (the reference sandbox). */
export function documentsOf(body: any): unknown[] | null {
  if (Array.isArray(body?.documents)) return body.documents;
  if (Array.isArray(body?.payload?.documents)) return body.payload.documents;
  return null;
}

/** A listed item: the metadata beside `documentId` (flat), or nested in `metadata`. */
export function listedOf(d: any): ListedDocument | null {
  const id = d?.documentId ?? d?.providerDocumentId ?? d?.id;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  const { documentId: _i, metadata, status, ...flat } = d;
  return {
    documentId: String(id),
    metadata: { ...flat, ...(metadata && typeof metadata === 'object' ? metadata : {}) },
    status: typeof status === 'string' ? status : null,
  };
}
