/**
 * A SAPI-SK 1.0 client (issue #35): the standard interface between accounting software and a Slovak
 * certified access point, as its public clients use it.
 *
 * - `POST {base}/auth/token` (client credentials) → a bearer token, cached per (provider, client) until a
 *   minute before it expires and minted by one call at a time: some providers lock a client out after
 *   repeated mints. A 401 on a call re-mints once.
 * - `POST {base}/document/send`, `GET {base}/document/receive[/{id}]`, `POST …/{id}/acknowledge`, each
 *   with `X-Peppol-Participant-Id`.
 * - Errors `{"error": {category, code, message, retryable, correlation_id}}` become a {@link SapiError};
 *   `retryable` is trusted over the HTTP status; 429 carries `Retry-After`; network failures and timeouts
 *   are retryable.
 * `base` is the URL up to the version path (`…/sapi/v1` or `…/sapi`).
 */
import { createHash } from 'node:crypto';

export interface SapiCredentials {
  url: string;
  clientId: string;
  clientSecret: string;
  scope?: string | null;
}

export type SapiCategory = 'AUTH' | 'VALIDATION' | 'PROCESSING' | 'TEMPORARY' | 'PERMANENT' | 'NETWORK';

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
  ) {
    super(message);
    this.name = 'SapiError';
  }
}

/** A received document as the mailbox lists it. */
export interface ListedDocument {
  documentId: string;
  metadata: Record<string, unknown> | null;
  status: string | null;
}

const trimBase = (url: string) => url.replace(/\/+$/, '');

/** Milliseconds of a `Retry-After` header (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.round(Number(header) * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The error of a non-2xx answer: the provider's error body where there is one. */
async function errorOf(res: Response): Promise<SapiError> {
  let body: any = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const e = body?.error ?? {};
  const category: SapiCategory =
    e.category ??
    (res.status === 401 || res.status === 403
      ? 'AUTH'
      : res.status === 429 || res.status >= 500
        ? 'TEMPORARY'
        : 'PERMANENT');
  const retryable = typeof e.retryable === 'boolean' ? e.retryable : res.status === 429 || res.status >= 500;
  return new SapiError(
    res.status,
    category,
    String(e.code ?? `HTTP-${res.status}`),
    String(e.message ?? (res.statusText || `HTTP ${res.status}`)),
    retryable,
    retryAfterMs(res.headers.get('retry-after')),
    e.correlation_id ?? null,
  );
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Tokens per (provider, client, secret digest, scope); at most one mint in flight per key. */
const tokens = new Map<string, CachedToken>();
const minting = new Map<string, Promise<CachedToken>>();

const tokenKey = (c: SapiCredentials) =>
  [
    trimBase(c.url),
    c.clientId,
    createHash('sha256').update(c.clientSecret).digest('hex'),
    c.scope ?? '',
  ].join('|');

/** Forgets every cached token (tests). */
export function clearTokenCache(): void {
  tokens.clear();
  minting.clear();
}

/** A SAPI-SK client for one set of credentials. Token cache shared by every client of the same credentials. */
export class SapiClient {
  constructor(
    readonly creds: SapiCredentials,
    private readonly timeoutMs = 30_000,
  ) {}

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${trimBase(this.creds.url)}${path}`, {
        ...init,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      throw new SapiError(
        0,
        'NETWORK',
        'NETWORK',
        `cannot reach ${trimBase(this.creds.url)}: ${(e as Error).message}`,
        true,
      );
    }
  }

  /** A token for these credentials: the cached one, or one minted now (`fresh`: always minted). */
  async token(fresh = false, refused?: string): Promise<string> {
    const key = tokenKey(this.creds);
    const cached = tokens.get(key);
    // After a 401 (`refused`), a token another call has minted since is used, not minted again.
    const usable =
      cached && cached.expiresAt - 60_000 > Date.now() && (!fresh || (refused && cached.token !== refused));
    if (usable) return cached.token;
    let pending = minting.get(key);
    if (!pending) {
      pending = this.mint().finally(() => minting.delete(key));
      minting.set(key, pending);
    }
    const t = await pending;
    tokens.set(key, t);
    return t.token;
  }

  private async mint(): Promise<CachedToken> {
    const res = await this.fetch('/auth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: this.creds.clientId,
        client_secret: this.creds.clientSecret,
        ...(this.creds.scope ? { scope: this.creds.scope } : {}),
      }),
    });
    if (!res.ok) throw await errorOf(res);
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token)
      throw new SapiError(res.status, 'PROCESSING', 'NO-TOKEN', 'the token answer has no access_token', true);
    const seconds = Number(body.expires_in) > 0 ? Number(body.expires_in) : 900;
    return { token: body.access_token, expiresAt: Date.now() + seconds * 1000 };
  }

  /** One authorised call; a 401 re-mints the token once. Resolves to the 2xx response. */
  private async call(
    method: string,
    path: string,
    participant: string,
    extra: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Response> {
    let refused: string | undefined;
    for (let attempt = 0; ; attempt++) {
      const token = await this.token(attempt > 0, refused);
      const res = await this.fetch(path, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          'X-Peppol-Participant-Id': participant,
          Accept: 'application/json',
          ...(extra.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...extra.headers,
        },
        body: extra.body,
      });
      if (res.ok) return res;
      if (res.status === 401 && attempt === 0) {
        await res.body?.cancel();
        refused = token;
        continue;
      }
      throw await errorOf(res);
    }
  }

  /** `POST /document/send`: the provider's answer (202 `ACCEPTED` or `REJECTED`). */
  async send(
    participant: string,
    idempotencyKey: string,
    envelope: Record<string, unknown>,
  ): Promise<{ providerDocumentId: string | null; status: string; reason: string | null }> {
    const res = await this.call('POST', '/document/send', participant, {
      headers: { 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(envelope),
    });
    const body = (await res.json().catch(() => ({}))) as any;
    const reason =
      body.reason ??
      body.message ??
      body.error?.message ??
      (Array.isArray(body.errors) ? body.errors.map((e: any) => e.message ?? String(e)).join('; ') : null);
    return {
      providerDocumentId: body.providerDocumentId ?? body.documentId ?? null,
      status: String(body.status ?? 'ACCEPTED').toUpperCase(),
      reason: reason ? String(reason) : null,
    };
  }

  /** `GET /document/receive?status=RECEIVED`: one page of the mailbox, oldest first. */
  async list(
    participant: string,
    pageToken: string | null,
    limit = 100,
  ): Promise<{ documents: ListedDocument[]; nextPageToken: string | null }> {
    const q = new URLSearchParams({ status: 'RECEIVED', limit: String(limit) });
    if (pageToken) q.set('pageToken', pageToken);
    const res = await this.call('GET', `/document/receive?${q}`, participant);
    const body = (await res.json()) as any;
    return {
      documents: (body.documents ?? []).map((d: any) => ({
        documentId: String(d.documentId ?? d.providerDocumentId ?? d.id),
        metadata: d.metadata ?? null,
        status: d.status ?? null,
      })),
      nextPageToken: body.nextPageToken ?? null,
    };
  }

  /** `GET /document/receive/{id}`: the document's payload (the XML as a string) and metadata. */
  async fetchDocument(
    participant: string,
    id: string,
  ): Promise<{ payload: string; metadata: Record<string, any> | null; encoding: string | null }> {
    const res = await this.call('GET', `/document/receive/${encodeURIComponent(id)}`, participant);
    const body = (await res.json()) as any;
    if (typeof body.payload !== 'string')
      throw new SapiError(
        res.status,
        'PROCESSING',
        'NO-PAYLOAD',
        `document ${id} came without a payload`,
        true,
      );
    return { payload: body.payload, metadata: body.metadata ?? null, encoding: body.payloadEncoding ?? null };
  }

  /** `POST /document/receive/{id}/acknowledge` (idempotent at the provider). */
  async acknowledge(participant: string, id: string): Promise<void> {
    const res = await this.call(
      'POST',
      `/document/receive/${encodeURIComponent(id)}/acknowledge`,
      participant,
      { body: '{}' },
    );
    await res.body?.cancel();
  }
}
