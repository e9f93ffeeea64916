/**
 * A SAPI-SK 1.0 stand-in (issues #35, #43), written from what the public sources say (the community's
 * `openapi.json`, the ePošťák SDK, Dativery's and Asseco's developer pages, the open clients): token,
 * send, receive with pages, fetch, acknowledge, and the error body. Used by every `sapi` test, and by
 * `pnpm sapi-stand-in` to try the stack by hand. Loopback only; state in memory. It answers as providers do:
 *
 * - the token endpoint takes JSON only; failed mints of a client are counted and, after `lockAfter` of them
 *   within a minute, the client is locked out (423 `AUTH`, `Retry-After`) for `lockMs` (ePošťák: 10 min);
 * - every answer carries `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds), and a spent limit is 429;
 * - the whole send request (participant and body) is compared under one `Idempotency-Key`: the same
 *   request again → the first answer, another → 422 `IDEMPOTENCY_KEY_MISMATCH`; while a key is still in
 *   flight (`sendDelayMs`) another send with it → 409 (with or without an error body);
 * - list items are flat (the metadata fields beside `documentId`), ids may repeat across senders
 *   (`deliver(…, {documentId})`): fetch and acknowledge address the oldest unacknowledged document of
 *   that id in the caller's mailbox;
 * - a fetch carries `checksum` (SHA-256 hex of the payload's UTF-8 bytes); acknowledge takes no body and
 *   answers 200 or 204 (`ackStatus`).
 *
 * By hand: `POST {base}/_stand-in/mailbox/{participant}` (body: the XML) puts a document into a mailbox,
 * `GET {base}/_stand-in/sent` lists what was sent, `GET {base}/_stand-in/mailbox` the mailbox's state.
 *
 * Fault injection: `failNext(point, answers)` queues answers (status, error body or a raw non-SAPI body,
 * `Retry-After`) the next calls to `send`, `token`, `ack` or `list` get before the normal behaviour;
 * `expireTokens()` makes every issued token answer 401; `rejectNextSend(reason)` answers the next send 202
 * `REJECTED`; `listShape` answers listings flat, wrapped in `payload`, or in an unknown shape; `loopPages`
 * gives the same page token for ever; `corruptChecksum(id, n)` sends a wrong checksum the next n fetches.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';

export interface SentDocument {
  idempotencyKey: string;
  participant: string;
  headers: Record<string, string>;
  envelope: any;
  providerDocumentId: string;
}

export interface MailboxDocument {
  documentId: string;
  participant: string;
  payload: string;
  metadata: Record<string, unknown>;
  status: 'RECEIVED' | 'ACKNOWLEDGED';
  acknowledgedAt: string | null;
  /** Order of arrival (ids may repeat). */
  seq: number;
}

interface Answer {
  status: number;
  category?: string;
  code?: string;
  message?: string;
  retryable?: boolean;
  retryAfter?: string;
  /** A body that is not SAPI-SK's (a proxy's page): sent as text/html instead of the error object. */
  raw?: string;
}

type FaultPoint = 'send' | 'token' | 'ack' | 'list';

const NO_SUCH_DOCUMENT: Answer = {
  status: 404,
  category: 'VALIDATION',
  code: 'SAPI-DOC-404',
  message: 'no such document',
  retryable: false,
};

export interface StandInOptions {
  tokenSeconds?: number;
  /** Failed mints of one client within a minute before it is locked out (423). */
  lockAfter?: number;
  lockMs?: number;
  /** Calls per rate-limit window (`X-RateLimit-Limit`), and the window, ms. */
  rateLimit?: number;
  rateWindowMs?: number;
}

export class SapiStandIn {
  readonly app = new Hono();
  readonly sent: SentDocument[] = [];
  /** Every send call, also the refused and repeated ones: its idempotency key. */
  readonly sendCalls: string[] = [];
  readonly mailbox: MailboxDocument[] = [];
  /** Successful mints. */
  mints = 0;
  /** Every mint request, also the refused ones. */
  mintCalls = 0;
  /** While true, every acknowledge answers 503 (a provider down between store and acknowledge). */
  ackDown = false;
  /** The acknowledge's success status (both are in use). */
  ackStatus: 200 | 204 = 200;
  /** How a listing is answered: `flat` (SAPI-SK), `payload` (the reference sandbox's wrapper), `unknown`. */
  listShape: 'flat' | 'payload' | 'unknown' = 'flat';
  /** While true, every listing page names the same next page token (a provider's paging bug). */
  loopPages = false;
  /** How long a send is processed before it answers, ms (a second send with its key meanwhile: 409). */
  sendDelayMs = 0;
  /** How long a fetch of a received document takes, ms (a slow provider: replicas overlap). */
  fetchDelayMs = 0;
  /** Whether a 409 for a key in flight carries SAPI-SK's error body (ePošťák: sometimes not). */
  conflictBody = true;
  /** Every call's method, path and participant header, in order. */
  readonly calls: {
    method: string;
    path: string;
    participant: string | null;
    auth: string | null;
    at: number;
    status?: number;
  }[] = [];
  private tokens = new Map<string, { clientId: string; expiresAt: number }>();
  private faults: Record<FaultPoint, Answer[]> = { send: [], token: [], ack: [], list: [] };
  private rejections: string[] = [];
  private corrupt = new Map<string, number>();
  private inFlight = new Set<string>();
  private failedMints = new Map<string, number[]>();
  private lockedUntil = new Map<string, number>();
  private rate = { windowStart: 0, used: 0 };
  private seq = 0;
  private server?: ServerType;
  private readonly o: Required<StandInOptions>;
  url = '';

  constructor(
    private readonly clients: Record<string, string>,
    readonly base = '/sapi/v1',
    options: StandInOptions | number = {},
  ) {
    const given = typeof options === 'number' ? { tokenSeconds: options } : options;
    this.o = {
      tokenSeconds: 900,
      lockAfter: 5,
      lockMs: 10 * 60_000,
      rateLimit: 100_000,
      rateWindowMs: 60_000,
      ...given,
    };
    const r = new Hono();
    r.use('*', async (c, next) => {
      const call = {
        method: c.req.method,
        path: new URL(c.req.url).pathname.slice(base.length),
        participant: c.req.header('x-peppol-participant-id') ?? null,
        auth: c.req.header('authorization') ?? null,
        at: Date.now(),
      } as (typeof this.calls)[number];
      this.calls.push(call);
      const now = Date.now();
      if (now - this.rate.windowStart >= this.o.rateWindowMs) this.rate = { windowStart: now, used: 0 };
      this.rate.used++;
      const reset = Math.max(1, Math.ceil((this.rate.windowStart + this.o.rateWindowMs - now) / 1000));
      const remaining = Math.max(0, this.o.rateLimit - this.rate.used);
      if (this.rate.used > this.o.rateLimit) {
        const res = this.error(c, {
          status: 429,
          category: 'TEMPORARY',
          code: 'SAPI-RATE-001',
          message: 'rate limit exceeded',
          retryable: true,
          retryAfter: String(reset),
        });
        this.rateHeaders(res, remaining, reset);
        call.status = res.status;
        return res;
      }
      await next();
      this.rateHeaders(c.res, remaining, reset);
      call.status = c.res.status;
    });
    r.post('/auth/token', (c) => this.token(c));
    r.use('/document/*', async (c, next) => {
      const t = (c.req.header('authorization') ?? '').replace(/^Bearer /, '');
      const known = this.tokens.get(t);
      if (!known || known.expiresAt < Date.now())
        return this.error(c, {
          status: 401,
          category: 'AUTH',
          code: 'SAPI-AUTH-002',
          message: 'token invalid or expired',
          retryable: false,
        });
      if (!c.req.header('x-peppol-participant-id'))
        return this.error(c, {
          status: 400,
          category: 'VALIDATION',
          code: 'SAPI-VAL-001',
          message: 'X-Peppol-Participant-Id is required',
          retryable: false,
        });
      await next();
    });
    r.post('/document/send', (c) => this.send(c));
    r.get('/document/receive', (c) => this.list(c));
    r.get('/document/receive/:id', async (c) => {
      if (this.fetchDelayMs) await new Promise((res) => setTimeout(res, this.fetchDelayMs));
      const d = this.callersDocument(c);
      if (!d) return this.error(c, NO_SUCH_DOCUMENT);
      const left = this.corrupt.get(d.documentId) ?? 0;
      if (left > 0) this.corrupt.set(d.documentId, left - 1);
      const checksum = left > 0 ? '0'.repeat(64) : sha256(d.payload);
      return c.json({
        documentId: d.documentId,
        ...d.metadata,
        payload: d.payload,
        payloadFormat: 'XML',
        payloadEncoding: 'UTF-8',
        checksum,
      });
    });
    r.post('/document/receive/:id/acknowledge', async (c) => {
      const fault = this.ackDown ? { status: 503, message: 'acknowledge is down' } : this.faults.ack.shift();
      if (fault) return this.error(c, fault);
      if ((await c.req.text()).length > 0)
        return this.error(c, {
          status: 400,
          category: 'VALIDATION',
          code: 'SAPI-VAL-002',
          message: 'acknowledge takes no body',
          retryable: false,
        });
      const d = this.callersDocument(c);
      if (!d) return this.error(c, NO_SUCH_DOCUMENT);
      if (d.status !== 'ACKNOWLEDGED') {
        d.status = 'ACKNOWLEDGED';
        d.acknowledgedAt = new Date().toISOString();
      }
      if (this.ackStatus === 204) return c.body(null, 204);
      return c.json({
        documentId: d.documentId,
        status: 'ACKNOWLEDGED',
        acknowledgedDateTime: d.acknowledgedAt,
      });
    });
    // For trying it by hand (`pnpm sapi-stand-in`): put a document into a mailbox, see what was sent.
    r.post('/_stand-in/mailbox/:participant', async (c) =>
      c.json({ documentId: this.deliver(c.req.param('participant'), await c.req.text()) }, 201),
    );
    r.get('/_stand-in/sent', (c) =>
      c.json(
        this.sent.map((s) => ({
          providerDocumentId: s.providerDocumentId,
          participant: s.participant,
          idempotencyKey: s.idempotencyKey,
          metadata: s.envelope.metadata,
          checksum: s.envelope.checksum,
        })),
      ),
    );
    r.get('/_stand-in/mailbox', (c) => c.json(this.mailbox.map(({ payload: _p, ...d }) => d)));
    this.app.route(base, r);
  }

  private rateHeaders(res: Response, remaining: number, reset: number) {
    res.headers.set('X-RateLimit-Limit', String(this.o.rateLimit));
    res.headers.set('X-RateLimit-Remaining', String(remaining));
    res.headers.set('X-RateLimit-Reset', String(reset));
  }

  /** `POST /auth/token`: JSON client credentials; repeated failures lock the client out (423). */
  private async token(c: any) {
    this.mintCalls++;
    const fault = this.faults.token.shift();
    if (fault) return this.error(c, fault);
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
      return this.error(c, {
        status: 415,
        category: 'VALIDATION',
        code: 'SAPI-VAL-415',
        message: 'the token request is JSON',
        retryable: false,
      });
    const body = await c.req.json().catch(() => ({}));
    const client = String(body.client_id ?? '');
    const now = Date.now();
    const locked = this.lockedUntil.get(client) ?? 0;
    if (locked > now)
      return this.error(c, {
        status: 423,
        category: 'AUTH',
        code: 'SAPI-AUTH-423',
        message: 'client locked out after repeated failed authentication',
        retryable: false,
        retryAfter: String(Math.ceil((locked - now) / 1000)),
      });
    if (body.grant_type !== 'client_credentials' || this.clients[client] !== body.client_secret) {
      const recent = (this.failedMints.get(client) ?? []).filter((t) => now - t < 60_000);
      recent.push(now);
      this.failedMints.set(client, recent);
      if (recent.length >= this.o.lockAfter) this.lockedUntil.set(client, now + this.o.lockMs);
      return this.error(c, {
        status: 401,
        category: 'AUTH',
        code: 'SAPI-AUTH-001',
        message: 'invalid client credentials',
        retryable: false,
      });
    }
    this.failedMints.delete(client);
    this.mints++;
    const token = randomUUID();
    this.tokens.set(token, { clientId: client, expiresAt: now + this.o.tokenSeconds * 1000 });
    return c.json({
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.o.tokenSeconds,
      scope: body.scope ?? 'document',
    });
  }

  /** `POST /document/send`: the whole request is compared under one key; 409 while the key is in flight. */
  private async send(c: any) {
    const key = c.req.header('idempotency-key') ?? '';
    this.sendCalls.push(key);
    const fault = this.faults.send.shift();
    if (fault) return this.error(c, fault);
    if (this.inFlight.has(key))
      return this.conflictBody
        ? this.error(c, {
            status: 409,
            category: 'PROCESSING',
            code: 'SAPI-IDEMPOTENCY-409',
            message: 'a request with this Idempotency-Key is still being processed',
            retryable: true,
          })
        : c.body(null, 409);
    const text = await c.req.text();
    const participant = c.req.header('x-peppol-participant-id')!;
    const before = this.sent.find((s) => s.idempotencyKey === key);
    if (before) {
      if (
        before.participant !== participant ||
        JSON.stringify(before.envelope) !== JSON.stringify(JSON.parse(text))
      )
        return this.error(c, {
          status: 422,
          category: 'VALIDATION',
          code: 'IDEMPOTENCY_KEY_MISMATCH',
          message: 'the key was used with another request',
          retryable: false,
        });
      return c.json(
        {
          providerDocumentId: before.providerDocumentId,
          status: 'ACCEPTED',
          timestamp: new Date().toISOString(),
        },
        202,
      );
    }
    this.inFlight.add(key);
    try {
      if (this.sendDelayMs) await new Promise((r) => setTimeout(r, this.sendDelayMs));
      return this.accept(c, key, participant, JSON.parse(text));
    } finally {
      this.inFlight.delete(key);
    }
  }

  private accept(c: any, key: string, participant: string, envelope: any) {
    if (envelope.metadata?.senderParticipantId !== participant)
      return this.error(c, {
        status: 422,
        category: 'VALIDATION',
        code: 'SAPI-DOC-025',
        message: 'participant does not match the document',
        retryable: false,
      });
    if (sha256(envelope.payload) !== envelope.checksum)
      return this.error(c, {
        status: 422,
        category: 'VALIDATION',
        code: 'SAPI-VAL-010',
        message: 'checksum mismatch',
        retryable: false,
      });
    const rejection = this.rejections.shift();
    const providerDocumentId = `prov-${randomUUID()}`;
    if (rejection !== undefined)
      return c.json(
        { providerDocumentId, status: 'REJECTED', reason: rejection, timestamp: new Date().toISOString() },
        202,
      );
    this.sent.push({
      idempotencyKey: key,
      participant,
      headers: Object.fromEntries(c.req.raw.headers),
      envelope,
      providerDocumentId,
    });
    return c.json(
      {
        providerDocumentId,
        status: 'ACCEPTED',
        receivedAt: new Date().toISOString(),
        timestamp: new Date().toISOString(),
      },
      202,
    );
  }

  /** `GET /document/receive`: flat items, oldest first, an opaque cursor (the last item's arrival). */
  private list(c: any) {
    const fault = this.faults.list.shift();
    if (fault) return this.error(c, fault);
    const participant = c.req.header('x-peppol-participant-id')!;
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 100), 1), 100);
    const after = Number(c.req.query('pageToken') ?? -1);
    const mine = this.mailbox.filter(
      (d) => d.participant === participant && d.status === (c.req.query('status') ?? 'RECEIVED'),
    );
    const rest = mine.filter((d) => d.seq > after);
    const page = rest.slice(0, limit);
    const items = page.map((d) => ({ documentId: d.documentId, ...d.metadata, status: d.status }));
    const next = this.loopPages ? '7' : rest.length > limit ? String(page[page.length - 1].seq) : null;
    if (this.listShape === 'payload') return c.json({ payload: { documents: items, nextPageToken: next } });
    if (this.listShape === 'unknown') return c.json({ items, next });
    return c.json({ documents: items, nextPageToken: next });
  }

  /** The oldest unacknowledged document `:id` of the calling participant (else its newest), or undefined. */
  private callersDocument(c: any): MailboxDocument | undefined {
    const all = this.mailbox.filter(
      (x) => x.documentId === c.req.param('id') && x.participant === c.req.header('x-peppol-participant-id'),
    );
    return all.find((x) => x.status === 'RECEIVED') ?? all.at(-1);
  }

  private error(c: any, a: Answer) {
    const headers: Record<string, string> = a.retryAfter ? { 'Retry-After': a.retryAfter } : {};
    if (a.raw !== undefined) return c.html(a.raw, a.status, headers);
    return c.json(
      {
        error: {
          category: a.category ?? (a.status >= 500 || a.status === 429 ? 'TEMPORARY' : 'PERMANENT'),
          code: a.code ?? `SAPI-${a.status}`,
          message: a.message ?? `status ${a.status}`,
          retryable: a.retryable ?? (a.status >= 500 || a.status === 429),
          correlation_id: randomUUID(),
        },
      },
      a.status,
      headers,
    );
  }

  /** Queues answers the next calls at `point` get. */
  failNext(point: FaultPoint, ...answers: Answer[]): void {
    this.faults[point].push(...answers);
  }
  /** The next send is answered 202 `REJECTED` with `reason`. */
  rejectNextSend(reason: string): void {
    this.rejections.push(reason);
  }
  /** Every token issued so far answers 401 from now on. */
  expireTokens(): void {
    for (const t of this.tokens.values()) t.expiresAt = 0;
  }
  /** Changes (or adds) a client's secret: tokens minted before stay valid until they expire. */
  setSecret(clientId: string, secret: string): void {
    this.clients[clientId] = secret;
    this.lockedUntil.delete(clientId);
    this.failedMints.delete(clientId);
  }
  /** The next `times` fetches of `documentId` carry a wrong checksum. */
  corruptChecksum(documentId: string, times: number): void {
    this.corrupt.set(documentId, times);
  }
  /**
   * Puts a document addressed to `participant` into its mailbox; returns its provider id (`documentId`
   * given: the sender's own number, which another sender may use too).
   */
  deliver(
    participant: string,
    payload: string,
    sender: string | { sender?: string; documentId?: string } = '0245:2022222222',
  ): string {
    const o = typeof sender === 'string' ? { sender } : sender;
    const documentId = o.documentId ?? `in-${randomUUID()}`;
    this.mailbox.push({
      documentId,
      participant,
      payload,
      metadata: {
        senderParticipantId: o.sender ?? '0245:2022222222',
        receiverParticipantId: participant,
        documentTypeId: 'Invoice',
        creationDateTime: new Date().toISOString(),
      },
      status: 'RECEIVED',
      acknowledgedAt: null,
      seq: this.seq++,
    });
    return documentId;
  }

  /** Serves on loopback; resolves to the base URL (`http://127.0.0.1:<port>/sapi/v1`). */
  async listen(port = 0): Promise<string> {
    this.server = await new Promise<ServerType>((resolve) => {
      const s = serve(
        { fetch: this.app.fetch, port, hostname: '127.0.0.1', overrideGlobalObjects: false },
        () => resolve(s),
      );
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${this.base}`;
    return this.url;
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
