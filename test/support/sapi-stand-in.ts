/**
 * A SAPI-SK 1.0 stand-in (issue #35), written from the interface as its public clients use it (the issue
 * text): token, send, receive with pages, fetch, acknowledge, and the error body. Used by every `sapi`
 * test, and by `pnpm sapi-stand-in` to try the stack by hand. Loopback only; state in memory.
 *
 * By hand: `POST {base}/_stand-in/mailbox/{participant}` (body: the XML) puts a document into a mailbox,
 * `GET {base}/_stand-in/sent` lists what was sent, `GET {base}/_stand-in/mailbox` the mailbox's state.
 *
 * Fault injection: `failNext(path, answers)` queues answers (status, error body, `Retry-After`) the next
 * calls to `send`, `token` or `ack` get before the normal behaviour; `expireTokens()` makes every issued
 * token answer 401; `rejectNextSend(reason)` answers the next send 202 `REJECTED`.
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
}

interface Answer {
  status: number;
  category?: string;
  code?: string;
  message?: string;
  retryable?: boolean;
  retryAfter?: string;
}

type FaultPoint = 'send' | 'token' | 'ack' | 'list';

const NO_SUCH_DOCUMENT: Answer = {
  status: 404,
  category: 'VALIDATION',
  code: 'SAPI-DOC-404',
  message: 'no such document',
  retryable: false,
};

export class SapiStandIn {
  readonly app = new Hono();
  readonly sent: SentDocument[] = [];
  /** Every send call, also the refused and repeated ones: its idempotency key. */
  readonly sendCalls: string[] = [];
  readonly mailbox: MailboxDocument[] = [];
  mints = 0;
  /** While true, every acknowledge answers 503 (a provider down between store and acknowledge). */
  ackDown = false;
  /** Every call's method, path and participant header, in order. */
  readonly calls: {
    method: string;
    path: string;
    participant: string | null;
    auth: string | null;
    at: number;
  }[] = [];
  private tokens = new Map<string, { clientId: string; expiresAt: number }>();
  private faults: Record<FaultPoint, Answer[]> = { send: [], token: [], ack: [], list: [] };
  private rejections: string[] = [];
  private server?: ServerType;
  url = '';

  constructor(
    private readonly clients: Record<string, string>,
    readonly base = '/sapi/v1',
    private readonly tokenSeconds = 900,
  ) {
    const r = new Hono();
    r.use('*', async (c, next) => {
      this.calls.push({
        method: c.req.method,
        path: new URL(c.req.url).pathname.slice(base.length),
        participant: c.req.header('x-peppol-participant-id') ?? null,
        auth: c.req.header('authorization') ?? null,
        at: Date.now(),
      });
      await next();
    });
    r.post('/auth/token', async (c) => {
      const fault = this.faults.token.shift();
      if (fault) return this.error(c, fault);
      const body = await c.req.json().catch(() => ({}));
      if (body.grant_type !== 'client_credentials' || this.clients[body.client_id] !== body.client_secret)
        return this.error(c, {
          status: 401,
          category: 'AUTH',
          code: 'SAPI-AUTH-001',
          message: 'invalid client credentials',
          retryable: false,
        });
      this.mints++;
      const token = randomUUID();
      this.tokens.set(token, { clientId: body.client_id, expiresAt: Date.now() + this.tokenSeconds * 1000 });
      return c.json({
        access_token: token,
        token_type: 'Bearer',
        expires_in: this.tokenSeconds,
        scope: body.scope ?? 'document',
      });
    });
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
    r.post('/document/send', async (c) => {
      const key = c.req.header('idempotency-key') ?? '';
      this.sendCalls.push(key);
      const fault = this.faults.send.shift();
      if (fault) return this.error(c, fault);
      const text = await c.req.text();
      const envelope = JSON.parse(text);
      const participant = c.req.header('x-peppol-participant-id')!;
      const before = this.sent.find((s) => s.idempotencyKey === key);
      if (before) {
        if (JSON.stringify(before.envelope.payload) !== JSON.stringify(envelope.payload))
          return this.error(c, {
            status: 422,
            category: 'PERMANENT',
            code: 'IDEMPOTENCY_KEY_MISMATCH',
            message: 'the key was used with another payload',
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
      if (envelope.metadata?.senderParticipantId !== participant)
        return this.error(c, {
          status: 422,
          category: 'VALIDATION',
          code: 'SAPI-DOC-025',
          message: 'participant does not match the document',
          retryable: false,
        });
      if (
        createHash('sha256').update(Buffer.from(envelope.payload, 'utf8')).digest('hex') !== envelope.checksum
      )
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
    });
    r.get('/document/receive', (c) => {
      const fault = this.faults.list.shift();
      if (fault) return this.error(c, fault);
      const participant = c.req.header('x-peppol-participant-id')!;
      const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 100), 1), 100);
      const after = c.req.query('pageToken');
      const mine = this.mailbox.filter(
        (d) => d.participant === participant && d.status === (c.req.query('status') ?? 'RECEIVED'),
      );
      // An opaque cursor: the documents after the last one of the previous page, in arrival order.
      const from = after ? this.mailbox.findIndex((d) => d.documentId === after) : -1;
      const rest = mine.filter((d) => this.mailbox.indexOf(d) > from);
      const page = rest.slice(0, limit);
      return c.json({
        documents: page.map((d) => ({ documentId: d.documentId, metadata: d.metadata, status: d.status })),
        nextPageToken: rest.length > limit ? page[page.length - 1].documentId : null,
      });
    });
    r.get('/document/receive/:id', (c) => {
      const d = this.callersDocument(c);
      if (!d) return this.error(c, NO_SUCH_DOCUMENT);
      return c.json({
        documentId: d.documentId,
        metadata: d.metadata,
        payload: d.payload,
        payloadFormat: 'XML',
        payloadEncoding: 'UTF-8',
      });
    });
    r.post('/document/receive/:id/acknowledge', (c) => {
      const fault = this.ackDown ? { status: 503, message: 'acknowledge is down' } : this.faults.ack.shift();
      if (fault) return this.error(c, fault);
      const d = this.callersDocument(c);
      if (!d) return this.error(c, NO_SUCH_DOCUMENT);
      if (d.status !== 'ACKNOWLEDGED') {
        d.status = 'ACKNOWLEDGED';
        d.acknowledgedAt = new Date().toISOString();
      }
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

  /** The mailbox document `:id` of the calling participant, or undefined. */
  private callersDocument(c: any): MailboxDocument | undefined {
    return this.mailbox.find(
      (x) => x.documentId === c.req.param('id') && x.participant === c.req.header('x-peppol-participant-id'),
    );
  }

  private error(c: any, a: Answer) {
    const headers: Record<string, string> = a.retryAfter ? { 'Retry-After': a.retryAfter } : {};
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
  /** Puts a document addressed to `participant` into its mailbox; returns its provider id. */
  deliver(participant: string, payload: string, sender = '0245:2022222222'): string {
    const documentId = `in-${randomUUID()}`;
    this.mailbox.push({
      documentId,
      participant,
      payload,
      metadata: {
        senderParticipantId: sender,
        receiverParticipantId: participant,
        documentTypeId: 'Invoice',
        creationDateTime: new Date().toISOString(),
      },
      status: 'RECEIVED',
      acknowledgedAt: null,
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
