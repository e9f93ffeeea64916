/**
 * Payments from the bank (issue #45; DESIGN §6d):
 *
 * - `POST /1.6/bank/statements`: the bank's camt.053 file as it came (`Content-Type: application/xml`) →
 *   201 with the statement and its entries paired; the same file again → 200 with the stored one.
 * - `GET /1.6/bank/statements?accountId=&page=`; `GET /1.6/bank/statements/{id}`: JSON, or the bytes as
 *   received with `Accept: application/xml` (`ETag` of their SHA-256).
 * - `GET /1.6/bank/entries?status=&accountId=&page=`; `POST /1.6/bank/entries/{id}/pairings`
 *   `{invoiceId, amount?}`; `DELETE /1.6/bank/entries/{id}/pairings/{pairingId}`; `POST …/{id}/ignore`.
 * - `GET /1.6/bank/overpayments?partnerId=`.
 * - `POST /1.6/bank/payment-orders` `{bankAccountId, invoiceIds, executionDate?}` → 201;
 *   `GET /1.6/bank/payment-orders/{id}` (JSON, or the pain.001.001.03 bytes with `Accept: application/xml`);
 *   `DELETE /1.6/bank/payment-orders/{id}` cancels an open one.
 */
import {
  BankStatement,
  getBankStatement,
  getBankStatementDocument,
  getPaymentOrder,
  importBankStatement,
  isGuid,
  PaymentOrder,
  z,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type NatsConnection, request } from '@bm/messaging';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { parseAccept } from '../http/negotiate.js';
import { problemResponses } from '../http/problem-responses.js';
import { type GatewayEnv, messageContext, operationIdOf, render } from './operation.js';

const IdParams = z.object({ id: z.guid().openapi({ description: 'The id (GUID)' }) });
const lower = (id: string) => id.toLowerCase();

/** Whether the client asked for the bytes (`application/xml` before any `application/json`) rather than the JSON record. */
function wantsBytes(c: Context): boolean {
  const accept = c.req.header('accept')?.trim();
  if (!accept) return false;
  const ranges = parseAccept(accept).map((r) => r.type);
  const xml = ranges.findIndex((t) => t === 'application/xml' || t === 'text/xml');
  const json = ranges.indexOf('application/json');
  if (xml >= 0 && (json < 0 || xml < json)) return true;
  if (json >= 0 || ranges.some((t) => t === '*/*' || t === 'application/*')) return false;
  throw new AppError(
    ErrorKind.not_acceptable,
    ErrorCode.NotAcceptable,
    'use application/json, or application/xml for the bytes',
  );
}

const xmlBytes = (c: Context, document: string, sha256: string) => {
  const bytes = Buffer.from(document, 'base64');
  return c.body(bytes as unknown as ArrayBuffer, 200, {
    'Content-Type': 'application/xml',
    'Content-Length': String(bytes.byteLength),
    ETag: `"${sha256}"`,
  });
};

const security = [{ basic: [], clientId: [], clientSecret: [], companyId: [] }];
/** An import pairs a whole statement in one transaction: it may take longer than a plain request. */
const IMPORT_TIMEOUT_MS = 120_000;

/** Registers the statement import and the bytes-or-record routes behind `authenticate`. */
export function registerBankRoutes(
  app: OpenAPIHono<GatewayEnv>,
  deps: { nc: NatsConnection; timeoutMs: number },
  authenticate: MiddlewareHandler<GatewayEnv>,
  negotiate: MiddlewareHandler<GatewayEnv>,
): void {
  const registry = app.openAPIRegistry;
  registry.registerPath({
    method: 'post',
    path: '/1.6/bank/statements',
    operationId: operationIdOf('post', '/1.6/bank/statements'),
    summary: 'Import a bank statement (ISO 20022 camt.053 .001.02 to .001.08) as the bank gave it',
    description:
      "Its entries are stored once per account (by the bank's reference) and paired with open invoices by variable symbol, then by the counterparty's IBAN and amount; fees and interest posted; reversals undo their entry. 201 with the statement; 200 when the same file was imported before. 400 not a camt.053 (DTDs refused), 422 an IBAN that is not a company bank account or an entry in another currency.",
    tags: ['Bank'],
    security,
    request: { body: { required: true, content: { 'application/xml': { schema: { type: 'string' } } } } },
    responses: {
      201: {
        description: 'The statement, its entries and their pairings',
        content: { 'application/json': { schema: BankStatement as any } },
      },
      200: {
        description: 'The same file, stored before',
        content: { 'application/json': { schema: BankStatement as any } },
      },
      ...problemResponses,
    },
  } as any);
  app.post('/1.6/bank/statements', authenticate, negotiate, async (c) => {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    if (!type.includes('xml'))
      throw new AppError(
        ErrorKind.invalid,
        ErrorCode.BadRequest,
        `unsupported Content-Type ${type || '(none)'}; send the camt.053 file as application/xml`,
        {
          errors: [{ path: 'Content-Type', message: 'use application/xml' }],
        },
      );
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (!bytes.byteLength)
      throw new AppError(
        ErrorKind.invalid,
        ErrorCode.BadRequest,
        'the body is empty: send the camt.053 file',
        {
          errors: [{ path: '(body)', message: 'a request body is required' }],
        },
      );
    const r = await request(
      deps.nc,
      importBankStatement,
      { document: bytes.toString('base64') },
      messageContext(c),
      {
        timeoutMs: Math.max(deps.timeoutMs, IMPORT_TIMEOUT_MS),
      },
    );
    return render(c, r.created ? 201 : 200, 'BankStatement', BankStatement, r.statement, c.get('format'));
  });

  registry.registerPath({
    method: 'get',
    path: '/1.6/bank/statements/{id}',
    operationId: operationIdOf('get', '/1.6/bank/statements/{id}'),
    summary: 'A statement with its entries (JSON), or its bytes as received (`Accept: application/xml`)',
    tags: ['Bank'],
    security,
    request: { params: IdParams as any },
    responses: {
      200: {
        description: 'The statement, or its bytes with ETag of their SHA-256',
        content: {
          'application/json': { schema: BankStatement as any },
          'application/xml': { schema: { type: 'string' } },
        },
      },
      ...problemResponses,
    },
  } as any);
  app.get('/1.6/bank/statements/:id', authenticate, async (c) => {
    const id = c.req.param('id') ?? '';
    if (!isGuid(id)) throw new AppError(ErrorKind.not_found, ErrorCode.NotFound, 'Bank statement not found');
    const opts = { timeoutMs: deps.timeoutMs };
    if (wantsBytes(c)) {
      const d = await request(deps.nc, getBankStatementDocument, { id: lower(id) }, messageContext(c), opts);
      return xmlBytes(c, d.document, d.sha256);
    }
    const s = await request(deps.nc, getBankStatement, { id: lower(id) }, messageContext(c), opts);
    return render(c, 200, 'BankStatement', BankStatement, s, 'json');
  });

  registry.registerPath({
    method: 'get',
    path: '/1.6/bank/payment-orders/{id}',
    operationId: operationIdOf('get', '/1.6/bank/payment-orders/{id}'),
    summary: 'A payment order (JSON), or its pain.001.001.03 bytes (`Accept: application/xml`)',
    tags: ['Bank'],
    security,
    request: { params: IdParams as any },
    responses: {
      200: {
        description: 'The order, or its bytes with ETag of their SHA-256',
        content: {
          'application/json': { schema: PaymentOrder as any },
          'application/xml': { schema: { type: 'string' } },
        },
      },
      ...problemResponses,
    },
  } as any);
  app.get('/1.6/bank/payment-orders/:id', authenticate, async (c) => {
    const id = c.req.param('id') ?? '';
    if (!isGuid(id)) throw new AppError(ErrorKind.not_found, ErrorCode.NotFound, 'Payment order not found');
    const bytes = wantsBytes(c);
    const o = await request(deps.nc, getPaymentOrder, { id: lower(id) }, messageContext(c), {
      timeoutMs: deps.timeoutMs,
    });
    if (bytes) return xmlBytes(c, o.document, o.sha256);
    const { document: _d, ...order } = o;
    return render(c, 200, 'PaymentOrder', PaymentOrder, order, 'json');
  });
}
