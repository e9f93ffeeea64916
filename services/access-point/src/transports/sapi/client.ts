/**
 * A SAPI-SK 1.0 client (issues #35, #43): the standard interface between accounting software and a Slovak
 * certified access point, as its public clients use it.
 *
 * - `POST {base}/auth/token` (JSON client credentials) → a bearer token, cached per (provider, client,
 *   secret, scope) until a minute before it expires and minted by one call at a time. A 401 on a call
 *   re-mints once.
 * - `POST {base}/document/send`, `GET {base}/document/receive[/{id}]`, `POST …/{id}/acknowledge` (no
 *   body; 200 or 204), each with `X-Peppol-Participant-Id`.
 * - Errors become a {@link SapiError} by the spec's status mapping (errors.ts). An `AUTH` refusal holds
 *   the credentials for an exponential back-off, and a spent rate limit (`X-RateLimit-*`, 429) until its
 *   reset (holds.ts): held calls fail at once, without a mint.
 * - A 2xx answer of an unknown shape (a list without `documents`, a fetch without `payload`) is an
 *   `UNRECOGNISED` error, never an empty result.
 * `base` is the URL up to the version path (`…/sapi/v1` or `…/sapi`).
 */
import { createHash } from 'node:crypto';
import { documentsOf, errorOf, type ListedDocument, listedOf, unrecognised } from './answers.js';
import { rateLimitPauseUntil, SapiError } from './errors.js';
import { holds } from './holds.js';

export { retryAfterMs, type SapiCategory, SapiError } from './errors.js';

export interface SapiCredentials {
  url: string;
  clientId: string;
  clientSecret: string;
  scope?: string | null;
}

const trimBase = (url: string) => url.replace(/\/+$/, '');

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Tokens per (provider, client, secret digest, scope); at most one mint in flight per key. */
const tokens = new Map<string, CachedToken>();
const minting = new Map<string, Promise<CachedToken>>();

/** The key of a set of credentials: its tokens and its hold (holds.ts) are kept under it. */
export const credentialsKey = (c: SapiCredentials) =>
  [
    trimBase(c.url),
    c.clientId,
    createHash('sha256').update(c.clientSecret).digest('hex'),
    c.scope ?? '',
  ].join('|');

/** Forgets every cached token and hold (tests). */
export function clearTokenCache(): void {
  tokens.clear();
  minting.clear();
  holds.clear();
}

/**
 * A SAPI-SK client for one set of credentials. Token cache and holds shared by every client of the same
 * credentials. Every call first checks the credentials' hold (holds.ts): a held call fails at once.
 */
export class SapiClient {
  readonly key: string;

  constructor(
    readonly creds: SapiCredentials,
    private readonly timeoutMs = 30_000,
  ) {
    this.key = credentialsKey(creds);
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    holds.check(this.key);
    let res: Response;
    try {
      res = await fetch(`${trimBase(this.creds.url)}${path}`, {
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
    // A spent rate limit holds every call with these credentials until it resets (429's Retry-After too).
    const pause = rateLimitPauseUntil(
      res.headers.get('x-ratelimit-remaining'),
      res.headers.get('x-ratelimit-reset'),
    );
    if (pause !== null) holds.pause(this.key, pause);
    if (res.status === 429) {
      const wait = Number(res.headers.get('retry-after'));
      holds.pause(this.key, Date.now() + (Number.isFinite(wait) && wait > 0 ? wait * 1000 : 1000));
    }
    return res;
  }

  /** A token for these credentials: the cached one, or one minted now (`fresh`: always minted). */
  async token(fresh = false, refused?: string): Promise<string> {
    const key = this.key;
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

  /** `POST /auth/token` (JSON, client credentials). @throws SapiError; an `AUTH` refusal starts a hold */
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
    if (!res.ok) {
      const e = await errorOf(res);
      if (e.category === 'AUTH') holds.refused(this.key, e);
      throw e;
    }
    const body = (await res.json().catch(() => null)) as {
      access_token?: string;
      expires_in?: number;
    } | null;
    if (!body?.access_token) throw unrecognised(res.status, 'to the token request has no access_token');
    const seconds = Number(body.expires_in) > 0 ? Number(body.expires_in) : 900;
    return { token: body.access_token, expiresAt: Date.now() + seconds * 1000 };
  }

  /**
   * One authorised call; a 401 re-mints the token once. Resolves to the 2xx response.
   * @throws SapiError; `AUTH` after the re-mint starts the credentials' hold
   */
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
      if (res.ok) {
        holds.succeeded(this.key);
        return res;
      }
      if (res.status === 401 && attempt === 0) {
        await res.body?.cancel();
        refused = token;
        continue;
      }
      const e = await errorOf(res);
      if (e.category === 'AUTH') {
        tokens.delete(this.key);
        holds.refused(this.key, e);
      }
      throw e;
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
    const body = (await res.json().catch(() => null)) as any;
    if (!body || typeof body !== 'object' || (body.status === undefined && !body.providerDocumentId))
      throw unrecognised(res.status, 'to a send is not SAPI-SK’s (no status, no providerDocumentId)');
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

  /**
   * `GET /document/receive?status=RECEIVED`: one page of the mailbox, oldest first.
   * @throws SapiError `UNRECOGNISED` when the answer has no `documents` array (nor `payload.documents`):
   * an answer we do not understand is an error, never an empty mailbox
   */
  async list(
    participant: string,
    pageToken: string | null,
    limit = 100,
  ): Promise<{ documents: ListedDocument[]; nextPageToken: string | null }> {
    const q = new URLSearchParams({ status: 'RECEIVED', limit: String(limit) });
    if (pageToken) q.set('pageToken', pageToken);
    const res = await this.call('GET', `/document/receive?${q}`, participant);
    const body = (await res.json().catch(() => null)) as any;
    const docs = documentsOf(body);
    if (!docs) throw unrecognised(res.status, 'to a mailbox listing has no documents array');
    const listed = docs.map(listedOf);
    if (listed.some((d) => d === null))
      throw unrecognised(res.status, 'to a mailbox listing has an item without a documentId');
    const next = body.nextPageToken ?? body.payload?.nextPageToken ?? null;
    return { documents: listed as ListedDocument[], nextPageToken: next ? String(next) : null };
  }

  /**
   * `GET /document/receive/{id}`: the document's payload (the XML as a string), metadata, and the
   * provider's `checksum` (SHA-256 hex of the payload's bytes) when it sends one.
   */
  async fetchDocument(
    participant: string,
    id: string,
  ): Promise<{
    payload: string;
    metadata: Record<string, any> | null;
    encoding: string | null;
    checksum: string | null;
  }> {
    const res = await this.call('GET', `/document/receive/${encodeURIComponent(id)}`, participant);
    const body = (await res.json().catch(() => null)) as any;
    const payload = body?.payload ?? body?.document?.payload;
    if (typeof payload !== 'string') throw unrecognised(res.status, `for document ${id} has no payload`);
    const { payload: _p, metadata, ...flat } = body;
    return {
      payload,
      metadata: { ...flat, ...(metadata && typeof metadata === 'object' ? metadata : {}) },
      encoding: body.payloadEncoding ?? null,
      checksum: typeof body.checksum === 'string' ? body.checksum : null,
    };
  }

  /** `POST /document/receive/{id}/acknowledge` with no body (as the ePošťák SDK); 200 or 204 (idempotent at the provider). */
  async acknowledge(participant: string, id: string): Promise<void> {
    const res = await this.call(
      'POST',
      `/document/receive/${encodeURIComponent(id)}/acknowledge`,
      participant,
    );
    await res.body?.cancel();
  }
}
