/**
 * The inbox of received e-invoices and the company's own access point (issue #35; DESIGN §6a):
 *
 * - `GET /1.6/purchase/e-invoices?status=&page=&pageSize=`: every received document, newest first.
 * - `GET /1.6/purchase/e-invoices/{id}`: the bytes as delivered (`application/xml`, `ETag` of their
 *   SHA-256), or the record with `Accept: application/json`.
 * - `POST /1.6/purchase/e-invoices/{id}/book`: book a `needs-attention` document again: 201 with the
 *   purchase invoice, 422 with the problems, 409 when it is booked already.
 * - `GET`/`PUT /1.6/company/access-point`, `POST /1.6/company/access-point/test`: served by the
 *   access-point connector (503 when none runs).
 */
import {
  AccessPointSettings,
  bookReceivedEInvoice,
  getAccessPointSettings,
  getReceivedEInvoice,
  isGuid,
  listReceivedEInvoices,
  Page,
  PageQuery,
  PurchaseInvoice,
  putAccessPointSettings,
  ReceivedEInvoiceRecord,
  ReceivedEInvoiceStatus,
  testAccessPointSettings,
  z,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type NatsConnection, request } from '@bm/messaging';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { parseAccept } from '../http/negotiate.js';
import { problemResponses } from '../http/problem-responses.js';
import { type GatewayEnv, messageContext, type Operation, operationIdOf, render } from './operation.js';

const IdParams = z.object({ id: z.guid().openapi({ description: 'The received e-invoice id (GUID)' }) });

/** `PUT /1.6/company/access-point` body as the gateway checks it; the connector checks the rest (400 naming the field). */
const AccessPointSettingsBody = z.object({
  transport: z.enum(['default', 'sapi']),
  url: z.string().optional(),
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
  scope: z.string().nullable().optional(),
});

/** The inbox operations and the company's access point, through the generic operation handler. */
export const inboxOperations: Operation[] = [
  {
    method: 'get',
    path: '/1.6/purchase/e-invoices',
    summary: 'The inbox: every received e-invoice, newest first (issue #35)',
    description:
      'Status `received` (stored, booking pending), `booked` (with `purchaseInvoiceId`), `needs-attention` (with `problems`: rule id, field, text; book again after fixing master data), `duplicate` (the same invoice re-sent in other bytes).',
    tag: 'E-invoices',
    query: PageQuery.extend({ status: ReceivedEInvoiceStatus.optional() }),
    reply: Page(ReceivedEInvoiceRecord),
    xmlRoot: 'ReceivedEInvoices',
    run: ({ query }, call) => call(listReceivedEInvoices, query),
  },
  {
    method: 'post',
    path: '/1.6/purchase/e-invoices/{id}/book',
    summary: 'Book a received e-invoice that needs attention again, after master data were fixed',
    description:
      '201 with the purchase invoice; 422 with the problems in `errors` (the document stays `needs-attention`); 409 InvalidState when it is `booked` or `duplicate` already.',
    tag: 'E-invoices',
    params: IdParams,
    reply: PurchaseInvoice,
    xmlRoot: 'PurchaseInvoice',
    status: 201,
    run: ({ params }, call) => call(bookReceivedEInvoice, { id: params.id.toLowerCase() }),
  },
  {
    method: 'get',
    path: '/1.6/company/access-point',
    summary: "The company's access point: `default` or its own SAPI-SK provider (never the secret)",
    tag: 'Company',
    reply: AccessPointSettings,
    xmlRoot: 'AccessPoint',
    run: (_i, call) => call(getAccessPointSettings, {}),
  },
  {
    method: 'put',
    path: '/1.6/company/access-point',
    summary:
      'Set the company\'s access point: `{transport: "sapi", url, clientId, clientSecret, scope?}` or `{transport: "default"}`',
    description:
      'The secret is write-only: stored encrypted (AES-256-GCM), never returned. A PUT without `clientSecret` keeps the stored one. `url` is the SAPI-SK base up to the version path (`…/sapi/v1` or `…/sapi`), https unless on loopback. 400 naming the field.',
    tag: 'Company',
    body: { schema: AccessPointSettingsBody, accepted: AccessPointSettings },
    reply: AccessPointSettings,
    xmlRoot: 'AccessPoint',
    run: ({ body }, call) => call(putAccessPointSettings, body),
  },
  {
    method: 'post',
    path: '/1.6/company/access-point/test',
    summary: "Test the company's SAPI-SK provider: mint a token and list the mailbox once",
    description:
      "200 with the number of documents waiting; 502 AccessPointError with the provider's code and message.",
    tag: 'Company',
    reply: testAccessPointSettings.reply,
    xmlRoot: 'AccessPointTest',
    run: (_i, call) => call(testAccessPointSettings, {}),
  },
];

/** Media ranges that admit the bytes (`application/xml`). */
const XML_RANGES = ['application/xml', 'text/xml', 'application/*', 'text/*', '*/*'];

/** Registers `GET /1.6/purchase/e-invoices/{id}` (bytes or record by Accept) behind `authenticate`. */
export function registerInboxDocumentRoute(
  app: OpenAPIHono<GatewayEnv>,
  deps: { nc: NatsConnection; timeoutMs: number },
  authenticate: MiddlewareHandler<GatewayEnv>,
): void {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/1.6/purchase/e-invoices/{id}',
    operationId: operationIdOf('get', '/1.6/purchase/e-invoices/{id}'),
    summary: 'A received e-invoice: its bytes as delivered (XML), or its inbox record (JSON)',
    description:
      '`Accept: application/xml` (or none): the bytes exactly as the access point delivered them, with `ETag` of their SHA-256. `Accept: application/json`: the inbox record.',
    tags: ['E-invoices'],
    security: [{ basic: [], clientId: [], clientSecret: [], companyId: [] }],
    request: { params: IdParams as any },
    responses: {
      200: {
        description: 'The bytes, or the record',
        headers: { ETag: { schema: { type: 'string' }, description: 'SHA-256 of the bytes' } },
        content: {
          'application/xml': { schema: { type: 'string', description: 'The document as delivered' } },
          'application/json': { schema: ReceivedEInvoiceRecord as any },
        },
      },
      ...problemResponses,
    },
  } as any);
  app.get('/1.6/purchase/e-invoices/:id', authenticate, async (c) => {
    const id = c.req.param('id') ?? '';
    if (!isGuid(id))
      throw new AppError(ErrorKind.not_found, ErrorCode.NotFound, 'Received e-invoice not found');
    const accept = c.req.header('accept')?.trim();
    const ranges = accept ? parseAccept(accept).map((r) => r.type) : [];
    const json =
      ranges.includes('application/json') && !ranges.some((t) => t === 'application/xml' || t === 'text/xml');
    if (!json && accept && !ranges.some((t) => XML_RANGES.includes(t)))
      throw new AppError(
        ErrorKind.not_acceptable,
        ErrorCode.NotAcceptable,
        'a received e-invoice is application/xml, or its record application/json',
      );
    const rec = await request(deps.nc, getReceivedEInvoice, { id: id.toLowerCase() }, messageContext(c), {
      timeoutMs: deps.timeoutMs,
    });
    const { document, ...record } = rec;
    if (json) return render(c, 200, 'ReceivedEInvoice', ReceivedEInvoiceRecord, record, 'json');
    const bytes = Buffer.from(document, 'base64');
    return c.body(bytes as unknown as ArrayBuffer, 200, {
      'Content-Type': 'application/xml',
      'Content-Length': String(bytes.byteLength),
      ETag: `"${rec.sha256}"`,
      'Received-E-Invoice-Status': rec.status,
    });
  });
}
