/**
 * What a SAPI-SK answer means (issue #43), pure: the error of a non-2xx answer and whose problem it is.
 *
 * SAPI-SK 1.0 (the Slovak OpenPeppol community's `openapi.json`) answers errors as
 * `{"error": {category, code, message, retryable, correlation_id}}`. When a body carries no category the
 * status says it: 400, 404, 422 → `VALIDATION`; 401, 403, 423 → `AUTH`; 409 → `PROCESSING`; 429, 502,
 * 503, 504 → `TEMPORARY`; 500 → `PROCESSING`. The body's `category` and `retryable` win where present.
 * An answer without a SAPI-SK error body (a proxy's page, a wrong URL's 404) is never the document's fault:
 * it is a temporary or configuration problem of the company (`UNRECOGNISED`, retryable).
 */

export type SapiCategory =
  | 'AUTH'
  | 'VALIDATION'
  | 'PROCESSING'
  | 'TEMPORARY'
  | 'PERMANENT'
  | 'NETWORK'
  /** The answer was not SAPI-SK's (no error object, or a 2xx body of an unknown shape). */
  | 'UNRECOGNISED';

/** A failed SAPI-SK call: the provider's category and code (`SAPI-AUTH-001`, …), whether a retry may help, and when. */
export class SapiError extends Error {
  constructor(
    readonly status: number,
    readonly category: SapiCategory,
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
    readonly correlationId: string | null = null,
    /** True when the answer carried SAPI-SK's error object (so the provider itself said it). */
    readonly fromProvider = false,
    /** True for a call a hold refused without touching the network (holds.ts). */
    readonly held = false,
  ) {
    super(message);
    this.name = 'SapiError';
  }
}

/** The spec's category of an HTTP status, for a SAPI-SK error body without one. */
export function categoryOfStatus(status: number): SapiCategory {
  if (status === 400 || status === 404 || status === 422) return 'VALIDATION';
  if (status === 401 || status === 403 || status === 423) return 'AUTH';
  if (status === 429 || status === 502 || status === 503 || status === 504) return 'TEMPORARY';
  if (status === 409 || status === 500) return 'PROCESSING';
  return status >= 500 ? 'TEMPORARY' : 'PERMANENT';
}

const CATEGORIES: readonly string[] = ['AUTH', 'VALIDATION', 'PROCESSING', 'TEMPORARY', 'PERMANENT'];

/** Milliseconds of a `Retry-After` header (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.round(Number(header) * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The SAPI-SK error object of a parsed body (`{error: {...}}`, or the object itself), or null. */
function errorObjectOf(body: unknown): Record<string, unknown> | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const e = b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>) : b;
  return typeof e.code === 'string' || (typeof e.category === 'string' && CATEGORIES.includes(e.category))
    ? e
    : null;
}

/**
 * The error of a non-2xx answer. `body` is the parsed JSON (null when it was not JSON). 409 is always
 * retryable: ePošťák answers it, with or without an error body, while the same `Idempotency-Key` is still
 * being processed, and the retry goes with the same key.
 */
export function errorOfAnswer(
  status: number,
  statusText: string,
  body: unknown,
  retryAfter: string | null,
  now = Date.now(),
): SapiError {
  const e = errorObjectOf(body);
  const wait = retryAfterMs(retryAfter, now);
  if (!e) {
    // Not SAPI-SK speaking: 401/403/423 still say the credentials were refused (a gateway in front of the
    // provider checks them too); anything else is the company's configuration or a passing problem.
    const auth = status === 401 || status === 403 || status === 423;
    return new SapiError(
      status,
      auth ? 'AUTH' : status === 409 ? 'PROCESSING' : 'UNRECOGNISED',
      `HTTP-${status}`,
      `${statusText || `HTTP ${status}`}${auth ? '' : ' (the answer is not a SAPI-SK error: check the provider URL)'}`,
      !auth,
      wait,
    );
  }
  const category = CATEGORIES.includes(String(e.category))
    ? (String(e.category) as SapiCategory)
    : categoryOfStatus(status);
  const retryable =
    status === 409 ||
    (typeof e.retryable === 'boolean'
      ? e.retryable
      : category === 'TEMPORARY' || status === 429 || status >= 500);
  return new SapiError(
    status,
    category,
    String(e.code ?? `HTTP-${status}`),
    String(e.message ?? (statusText || `HTTP ${status}`)),
    retryable,
    wait,
    typeof e.correlation_id === 'string' ? e.correlation_id : null,
    true,
  );
}

/**
 * Whether an error is the document's fault, so the document is `rejected`: the provider said so
 * (`VALIDATION` or `PERMANENT` in its own error body, and not retryable). Credentials (`AUTH`), a
 * provider's own trouble, and answers that are not SAPI-SK's never are.
 */
export const isDocumentsFault = (e: SapiError): boolean =>
  e.fromProvider && !e.retryable && (e.category === 'VALIDATION' || e.category === 'PERMANENT');

/**
 * When a provider's rate limit opens again, from `X-RateLimit-Remaining` / `X-RateLimit-Reset` (null while
 * calls remain or the headers are absent). `X-RateLimit-Reset` is read as seconds from now, or as a Unix
 * time in seconds when it is larger than a day's seconds (both are in use).
 */
export function rateLimitPauseUntil(
  remaining: string | null,
  reset: string | null,
  now = Date.now(),
): number | null {
  if (remaining === null || Number(remaining.trim()) > 0 || Number.isNaN(Number(remaining))) return null;
  const r = Number(reset?.trim());
  if (!reset || !Number.isFinite(r) || r < 0) return now + 1000;
  return r > 86_400 ? Math.max(now, r * 1000) : now + r * 1000;
}
