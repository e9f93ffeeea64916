/**
 * E-invoice routes (issue #21; DESIGN §6a). The documents travel as they are: UBL 2.1 XML bytes, never
 * re-rendered by the gateway.
 *
 * - `GET /1.6/sales/invoices/{id}/e-invoice`: `application/xml`, header `E-Invoice-Status: draft|issued`;
 *   once issued the frozen bytes with `ETag: "<sha256>"`.
 * - `POST /1.6/sales/invoices/{id}/e-invoice`: issues it: 201 with the XML; a repeat answers the same
 *   bytes (200). 422 EInvoiceNotValid names each failed rule.
 * - `POST /1.6/purchase/e-invoices`: body a UBL Invoice or CreditNote (`Content-Type: application/xml`),
 *   answer 201 with the purchase invoice (JSON or XML per Accept).
 * - `GET /1.6/purchase/invoices/{id}/e-invoice`: the received bytes, `ETag` of their SHA-256.
 * Errors as problem documents (JSON or XML per Accept): 400, 401, 403, 404, 406, 409, 413, 422, 503, 504.
 */
import {
  EInvoiceDelivery,
  EInvoiceStatusChange,
  getEInvoiceHistory,
  getPurchaseEInvoice,
  getSalesEInvoice,
  isGuid,
  issueSalesEInvoice,
  PurchaseInvoice,
  receivePurchaseEInvoice,
  resendSalesEInvoice,
  z,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type NatsConnection, request } from '@bm/messaging';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { parseAccept } from '../http/negotiate.js';
import { problemResponses } from '../http/problem-responses.js';
import { registerInboxDocumentRoute } from './inbox.routes.js';
import { type GatewayEnv, messageContext, operationIdOf, render } from './operation.js';

export interface EInvoiceRouteDeps {
  nc: NatsConnection;
  timeoutMs: number;
}

const security = [{ basic: [], clientId: [], clientSecret: [], companyId: [] }];
const xmlDocument = {
  'application/xml': {
    schema: { type: 'string', description: 'UBL 2.1 Invoice or CreditNote (Peppol BIS Billing 3.0)' },
  },
} as any;
const IdParams = z.object({ id: z.guid().openapi({ description: 'The invoice id (GUID)' }) });

/** 404 for a path id that is not a GUID (the same answer as for an unknown `what`). */
function idOf(c: Context, what: string): string {
  const id = c.req.param('id') ?? '';
  if (!isGuid(id)) throw new AppError(ErrorKind.not_found, ErrorCode.NotFound, `${what} not found`);
  return id.toLowerCase();
}

/** Media ranges that admit `application/xml`. */
const XML_RANGES = ['application/xml', 'text/xml', 'application/*', 'text/*', '*/*'];

/** 406 unless the client accepts XML (no Accept, or a range with q > 0 that admits it). */
function requireXmlAccept(c: Context): void {
  const accept = c.req.header('accept');
  if (accept?.trim() && !parseAccept(accept).some((r) => XML_RANGES.includes(r.type)))
    throw new AppError(ErrorKind.not_acceptable, ErrorCode.NotAcceptable, 'an e-invoice is application/xml');
}

const xmlReply = (
  c: Context,
  status: 200 | 201,
  doc: { document: string; sha256: string },
  headers: Record<string, string>,
) => {
  const bytes = Buffer.from(doc.document, 'base64');
  return c.body(bytes as unknown as ArrayBuffer, status, {
    'Content-Type': 'application/xml; charset=utf-8',
    'Content-Length': String(bytes.byteLength),
    ...headers,
  });
};

/** `GET …/e-invoice/history`: the status changes, oldest first. */
const EInvoiceHistory = z.object({ items: z.array(EInvoiceStatusChange) });

/** Registers the e-invoice routes behind `authenticate`. */
export function registerEInvoiceRoutes(
  app: OpenAPIHono<GatewayEnv>,
  deps: EInvoiceRouteDeps,
  authenticate: MiddlewareHandler<GatewayEnv>,
  negotiate: MiddlewareHandler<GatewayEnv>,
): void {
  const call = <C extends Parameters<typeof request>[1]>(c: Context<GatewayEnv>, contract: C, body: any) =>
    request(deps.nc, contract, body, messageContext(c), { timeoutMs: deps.timeoutMs });

  // Issue #35: the inbox's bytes-or-record route, beside the other e-invoice routes.
  registerInboxDocumentRoute(app, deps, authenticate);
  const registry = app.openAPIRegistry;
  registry.registerPath({
    method: 'get',
    path: '/1.6/sales/invoices/{id}/e-invoice',
    operationId: operationIdOf('get', '/1.6/sales/invoices/{id}/e-invoice'),
    summary: 'The sales invoice as a Peppol BIS Billing 3.0 e-invoice (draft, or the frozen issued bytes)',
    description:
      'UBL 2.1 Invoice (380) or CreditNote (381). Header `E-Invoice-Status` is `draft` before issue, then the delivery status (`issued`, `queued`, `sent`, `delivered`, `rejected`, `failed`); issued bytes never change and carry `ETag` of their SHA-256. 422 EInvoiceNotValid when the invoice cannot be an e-invoice (the rule ids in `errors`).',
    tags: ['E-invoices'],
    security,
    request: { params: IdParams as any },
    responses: {
      200: {
        description: 'The e-invoice',
        headers: {
          'E-Invoice-Status': {
            schema: {
              type: 'string',
              enum: ['draft', 'issued', 'queued', 'sent', 'delivered', 'rejected', 'failed'],
            },
            description: '`draft`, or the delivery status of the issued e-invoice (issue #23)',
          },
          ETag: {
            schema: { type: 'string' },
            description: 'SHA-256 of the issued bytes (every status but draft)',
          },
        },
        content: xmlDocument,
      },
      ...problemResponses,
    },
  });
  app.get('/1.6/sales/invoices/:id/e-invoice', authenticate, async (c) => {
    requireXmlAccept(c);
    const doc = await call(c, getSalesEInvoice, { id: idOf(c, 'Sales invoice') });
    return xmlReply(c, 200, doc, {
      'E-Invoice-Status': doc.status,
      // The frozen bytes carry their digest whatever the delivery status (issue #35); a draft has none.
      ...(doc.status !== 'draft' ? { ETag: `"${doc.sha256}"` } : {}),
    });
  });

  registry.registerPath({
    method: 'post',
    path: '/1.6/sales/invoices/{id}/e-invoice',
    operationId: operationIdOf('post', '/1.6/sales/invoices/{id}/e-invoice'),
    summary: 'Issue the e-invoice: pre-flight rules, frozen bytes, event for the access point',
    description:
      'Runs the pre-flight rules (EN 16931, Peppol BIS 3.0, Slovak CIUS; 422 EInvoiceNotValid naming each rule id and field, nothing stored), freezes the XML (SHA-256, issuedAt), refuses later PUTs (409 InvalidState) and publishes `events.invoicing.e-invoice-issued`. 201 with the XML; a repeated call answers the same bytes with 200.',
    tags: ['E-invoices'],
    security,
    request: { params: IdParams as any },
    responses: {
      201: {
        description: 'Issued',
        headers: {
          'E-Invoice-Status': { schema: { type: 'string' }, description: 'The delivery status' },
          ETag: { schema: { type: 'string' } },
        },
        content: xmlDocument,
      },
      200: { description: 'Already issued: the same bytes', content: xmlDocument },
      ...problemResponses,
    },
  });
  app.post('/1.6/sales/invoices/:id/e-invoice', authenticate, async (c) => {
    requireXmlAccept(c);
    const doc = await call(c, issueSalesEInvoice, { id: idOf(c, 'Sales invoice') });
    return xmlReply(c, doc.created ? 201 : 200, doc, {
      'E-Invoice-Status': doc.status,
      ETag: `"${doc.sha256}"`,
    });
  });

  registry.registerPath({
    method: 'post',
    path: '/1.6/purchase/e-invoices',
    operationId: operationIdOf('post', '/1.6/purchase/e-invoices'),
    summary: 'Book a received e-invoice (UBL 2.1 Invoice or CreditNote) as a purchase invoice',
    description:
      'Record mode: the figures as the document states them; supplier matched by VAT number, then IČO, else created; booked on the day of receipt; the bytes archived. 400 not UBL (DTDs and entities refused), 409 DuplicateRecordNumber (same supplier and number), 413 too large, 422 EInvoiceNotForThisCompany or EInvoiceNotValid.',
    tags: ['E-invoices'],
    security,
    request: { body: { required: true, content: xmlDocument } },
    responses: {
      201: {
        description: 'The purchase invoice',
        content: {
          'application/json': { schema: PurchaseInvoice as any },
          'application/xml': { schema: PurchaseInvoice as any },
        },
      },
      ...problemResponses,
    },
  });
  app.post('/1.6/purchase/e-invoices', authenticate, negotiate, async (c) => {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    if (!type.includes('xml'))
      throw new AppError(
        ErrorKind.invalid,
        ErrorCode.BadRequest,
        `unsupported Content-Type ${type || '(none)'}; send the e-invoice as application/xml`,
        { errors: [{ path: 'Content-Type', message: 'use application/xml' }] },
      );
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (!bytes.byteLength)
      throw new AppError(
        ErrorKind.invalid,
        ErrorCode.BadRequest,
        'the body is empty: send the UBL document',
        {
          errors: [{ path: '(body)', message: 'a request body is required' }],
        },
      );
    const inv = await call(c, receivePurchaseEInvoice, { document: bytes.toString('base64') });
    return render(c, 201, 'PurchaseInvoice', PurchaseInvoice, inv, c.get('format'));
  });

  registry.registerPath({
    method: 'get',
    path: '/1.6/purchase/invoices/{id}/e-invoice',
    operationId: operationIdOf('get', '/1.6/purchase/invoices/{id}/e-invoice'),
    summary: 'The received e-invoice of a purchase invoice, byte for byte',
    tags: ['E-invoices'],
    security,
    request: { params: IdParams as any },
    responses: {
      200: {
        description: 'The bytes as received',
        headers: { ETag: { schema: { type: 'string' }, description: 'SHA-256 of the bytes' } },
        content: xmlDocument,
      },
      ...problemResponses,
    },
  });
  app.get('/1.6/purchase/invoices/:id/e-invoice', authenticate, async (c) => {
    requireXmlAccept(c);
    const doc = await call(c, getPurchaseEInvoice, { id: idOf(c, 'Purchase invoice') });
    return xmlReply(c, 200, doc, { ETag: `"${doc.sha256}"` });
  });

  registry.registerPath({
    method: 'get',
    path: '/1.6/sales/invoices/{id}/e-invoice/history',
    operationId: operationIdOf('get', '/1.6/sales/invoices/{id}/e-invoice/history'),
    summary: "Every change of the e-invoice's delivery status, oldest first (issue #23)",
    description:
      '`issued`, `queued`, `sent`, then `delivered` (MLS `AP`/`AB`), `rejected` (MLS `RE` or refused by the access point, with `reasons`) or `failed`; a resend starts the next `attempt`. Empty before issue.',
    tags: ['E-invoices'],
    security,
    request: { params: IdParams as any },
    responses: {
      200: {
        description: 'The history',
        content: {
          'application/json': { schema: EInvoiceHistory as any },
          'application/xml': { schema: EInvoiceHistory as any },
        },
      },
      ...problemResponses,
    },
  });
  app.get('/1.6/sales/invoices/:id/e-invoice/history', authenticate, negotiate, async (c) => {
    const history = await call(c, getEInvoiceHistory, { id: idOf(c, 'Sales invoice') });
    return render(c, 200, 'EInvoiceHistory', EInvoiceHistory, history, c.get('format'));
  });

  registry.registerPath({
    method: 'post',
    path: '/1.6/sales/invoices/{id}/e-invoice/resend',
    operationId: operationIdOf('post', '/1.6/sales/invoices/{id}/e-invoice/resend'),
    summary: 'Send the same e-invoice bytes again after the delivery failed (issue #23)',
    description:
      "Only when the delivery status is `failed` (409 InvalidState otherwise): the next attempt, status `issued`, handed to the access point again. Replies with the invoice's `eInvoice`.",
    tags: ['E-invoices'],
    security,
    request: { params: IdParams as any },
    responses: {
      200: {
        description: 'The delivery after the resend',
        content: {
          'application/json': { schema: EInvoiceDelivery as any },
          'application/xml': { schema: EInvoiceDelivery as any },
        },
      },
      ...problemResponses,
    },
  });
  app.post('/1.6/sales/invoices/:id/e-invoice/resend', authenticate, negotiate, async (c) => {
    const delivery = await call(c, resendSalesEInvoice, { id: idOf(c, 'Sales invoice') });
    return render(c, 200, 'EInvoiceDelivery', EInvoiceDelivery, delivery, c.get('format'));
  });
}
