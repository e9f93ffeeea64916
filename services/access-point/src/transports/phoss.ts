/**
 * `PEPPOL_AP=phoss` (issue #23): phoss-ap's REST API as a Sender and Receiver Backend sees it.
 * - submit: `POST {url}/api/outbound/submit/{senderID}/{receiverID}/{docTypeID}/{processID}/{c1CountryCode}`
 *   with `?sbdhInstanceID=`, header `X-Token`, body the UBL → 200 (a sending report), 422 when its own
 *   verification refuses the document;
 * - status: `GET {url}/api/outbound/status/{sbdhInstanceID}` → `status` (`pending`, `rejected`,
 *   `sending`, `sent`, `failed`, `permanently_failed`), `mlsStatus` (`pending`, `received_ap`,
 *   `received_ab`, `received_re`, `not_applicable`), `errorDetails`, `completedDT`; 404 when unknown;
 * - forwarding (`http_post_sync`): phoss-ap POSTs each received SBD to `POST /peppol/inbound` here with
 *   the operator's custom header `Authorization: Bearer <PEPPOL_FORWARDING_SECRET>`, and expects 2xx with
 *   `{"countryCodeC4": "SK"}`; a non-2xx answer is a forwarding failure (after its retries MLS `RE`/`FD`).
 */
import { timingSafeEqual } from 'node:crypto';
import type { DeliveryReason } from '@bm/contracts';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { BILLING_PROCESS, countryOfEndpoint, DOCUMENT_TYPES, participantId } from '../domain/peppol.js';
import type { Outbound, Outcome, Transport } from './transport.js';

export interface PhossOptions {
  url: string;
  token: string;
  forwardingPort: number;
  forwardingHost: string;
  forwardingSecret: string;
  /** Largest forwarded document, bytes. */
  maxBytes?: number;
  /** Reports the bound port of the forwarding listener (0 picks a free one). */
  onListening?: (port: number) => void;
}

const reasonsOf = (details: unknown, fallback: string): DeliveryReason[] => {
  if (Array.isArray(details))
    return details.map((d) => ({
      code: String((d as any)?.code ?? (d as any)?.errorCode ?? 'AP'),
      message: String((d as any)?.message ?? (d as any)?.errorText ?? JSON.stringify(d)),
    }));
  if (typeof details === 'string' && details) return [{ code: 'AP', message: details }];
  return [{ code: 'AP', message: fallback }];
};

/** phoss-ap's status of a transmission as our outcome. */
export function outcomeOfPhossStatus(s: {
  status?: string;
  mlsStatus?: string;
  errorDetails?: unknown;
}): Outcome {
  switch (s.status) {
    case 'rejected':
      return {
        status: 'rejected',
        sent: false,
        reasons: reasonsOf(s.errorDetails, 'refused by the access point'),
      };
    case 'permanently_failed':
      return { status: 'failed', reasons: reasonsOf(s.errorDetails, 'the access point gave up sending') };
    case 'sent':
      switch (s.mlsStatus) {
        case 'received_ap':
          return { status: 'delivered', mls: 'AP' };
        case 'received_ab':
          return { status: 'delivered', mls: 'AB' };
        case 'received_re':
          return {
            status: 'rejected',
            sent: true,
            reasons: reasonsOf(s.errorDetails, 'the receiving access point rejected the document').map((r) =>
              r.code === 'AP' ? { ...r, code: 'FD' } : r,
            ),
          };
        default:
          return { status: 'sent' };
      }
    default:
      // pending, sending, failed (phoss-ap retries a failed sending itself).
      return { status: 'pending' };
  }
}

export function phossTransport(o: PhossOptions): Transport {
  const base = o.url.replace(/\/+$/, '');
  const headers = { 'X-Token': o.token };
  return {
    name: 'phoss',
    async submit(doc: Outbound): Promise<Outcome> {
      const path = [
        participantId(doc.senderId),
        participantId(doc.receiverId),
        DOCUMENT_TYPES[doc.documentType],
        BILLING_PROCESS,
        countryOfEndpoint(doc.senderId),
      ]
        .map(encodeURIComponent)
        .join('/');
      const res = await fetch(
        `${base}/api/outbound/submit/${path}?sbdhInstanceID=${encodeURIComponent(doc.transmissionId)}`,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/xml' },
          body: new Uint8Array(doc.document),
        },
      );
      const text = await res.text();
      if (res.status === 422 || res.status === 400) {
        let details: unknown = text;
        try {
          const j = JSON.parse(text);
          details = j.errorDetails ?? j.errors ?? j.message ?? text;
        } catch {
          /* text */
        }
        return {
          status: 'rejected',
          sent: false,
          reasons: reasonsOf(details, `refused by the access point (${res.status})`).map((r) =>
            r.code === 'AP' ? { ...r, code: 'BV' } : r,
          ),
        };
      }
      if (res.status === 401 || res.status === 403)
        return {
          status: 'failed',
          reasons: [{ code: 'AUTH', message: `the access point refused the token (${res.status})` }],
        };
      if (!res.ok) throw new Error(`phoss-ap submit answered ${res.status}: ${text.slice(0, 200)}`);
      return { status: 'pending' };
    },
    async follow(doc) {
      const res = await fetch(`${base}/api/outbound/status/${encodeURIComponent(doc.transmissionId)}`, {
        headers,
      });
      if (res.status === 404) return 'unknown';
      if (!res.ok) throw new Error(`phoss-ap status answered ${res.status}`);
      return outcomeOfPhossStatus((await res.json()) as any);
    },
    async registered() {
      return null;
    },
    async startInbound(receive) {
      const secret = Buffer.from(`Bearer ${o.forwardingSecret}`);
      const app = new Hono();
      app.post('/peppol/inbound', async (c) => {
        const given = Buffer.from(c.req.header('authorization') ?? '');
        if (!o.forwardingSecret || given.length !== secret.length || !timingSafeEqual(given, secret))
          return c.json({ error: 'wrong or missing forwarding secret' }, 401);
        const bytes = Buffer.from(await c.req.arrayBuffer());
        if (bytes.byteLength > (o.maxBytes ?? 20 * 1024 * 1024))
          return c.json({ error: 'document too large' }, 413);
        if (!bytes.byteLength) return c.json({ error: 'empty body' }, 400);
        const r = await receive(bytes, `phoss:${c.req.header('x-sbdh-instance-id') ?? ''}`).catch(
          (e: Error) => ({
            ok: false as const,
            status: 503 as const,
            code: 'TEMPORARY',
            reason: e.message,
          }),
        );
        if (r.ok) return c.json({ countryCodeC4: 'SK' }, 200);
        return c.json({ error: r.reason, code: r.code }, r.status);
      });
      const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        // Not replacing the process's global Request/Response (other HTTP code shares the process in tests).
        const s = serve(
          {
            fetch: app.fetch,
            port: o.forwardingPort,
            hostname: o.forwardingHost,
            overrideGlobalObjects: false,
          },
          () => resolve(s),
        );
      });
      const addr = server.address();
      o.onListening?.(typeof addr === 'object' && addr ? addr.port : o.forwardingPort);
      return () => new Promise<void>((r) => server.close(() => r()));
    },
  };
}
