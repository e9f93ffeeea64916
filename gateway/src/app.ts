/**
 * The gateway application (DESIGN §1): the only HTTP entry. Authenticates, resolves the company,
 * validates with the shared contracts, forwards over NATS, renders JSON or XML, and documents it all
 * in `GET /1.6/openapi.json`. Holds no business logic.
 */
import { buildAsyncApiDocument, Shortfall } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import type { Logger } from '@bm/logger';
import type { NatsConnection } from '@bm/messaging';
import { mapDbError } from '@bm/service-kit';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Pool } from 'pg';
import type { GatewayConfig } from './config.js';
import { readiness } from './http/health.js';
import { chooseFormat } from './http/negotiate.js';
import { sendProblem } from './http/problem.js';
import type { IdempotencyStore } from './identity/idempotency.store.js';
import type { IdentityService } from './identity/identity.service.js';
import { type AuthLimits, authentication } from './middleware/authentication.js';
import { bodyLimit } from './middleware/body-limit.js';
import { idempotency } from './middleware/idempotency.js';
import { requestId } from './middleware/request-id.js';
import { telemetry } from './middleware/telemetry.js';
import { registerAdminRoutes } from './routes/admin.routes.js';
import { registerBankRoutes } from './routes/bank.routes.js';
import { registerEInvoiceRoutes } from './routes/e-invoice.routes.js';
import { invoiceOperations } from './routes/invoices.routes.js';
import { masterDataOperations } from './routes/master-data.routes.js';
import { type GatewayEnv, type Operation, registerOperations } from './routes/operation.js';
import { registerPrintoutRoute } from './routes/printout.routes.js';
import { registerTaxRoutes } from './routes/tax.routes.js';
import { warehouseOperations } from './routes/warehouse.routes.js';

export interface AppDeps {
  config: Pick<
    GatewayConfig,
    'ADMIN_TOKEN' | 'REQUEST_TIMEOUT_MS' | 'BODY_LIMIT_BYTES' | 'AUTH_CACHE_TTL_MS'
  > &
    Partial<
      AuthLimits & Pick<GatewayConfig, 'HEALTH_CACHE_MS' | 'OPS_STATUS_DIR' | 'STATEMENT_BODY_LIMIT_BYTES'>
    >;
  identity: IdentityService;
  /** Where `Idempotency-Key`s and their answers are kept (issue #12). */
  idempotency: IdempotencyStore;
  nc: NatsConnection;
  log: Logger;
  /**
   * PostgreSQL pool of the identity database where the authentication failure counts are shared by
   * all gateway replicas (issue #22); without it they are per process.
   */
  authStore?: Pool;
  /** Checks the identity database; rejects when it is unreachable. */
  /** The readiness probe's database check (`pingWritable`): rejects unreachable, `read-only` a standby. */
  pingDb: () => Promise<unknown>;
  /** Extra operations (later issues plug theirs in here). */
  operations?: Operation[];
}

/** The services `/health` expects to answer a NATS service ping. */
export const SERVICES = ['warehouse', 'invoicing', 'reporting'] as const;

/** Builds the Hono app; `app.request()` drives it in tests without a server. */
export function createApp(deps: AppDeps): OpenAPIHono<GatewayEnv> {
  const app = new OpenAPIHono<GatewayEnv>();
  const { log } = deps;

  app.use('*', telemetry());
  app.use('*', requestId());
  app.use('*', async function accessLog(c, next) {
    const t0 = performance.now();
    await next();
    log.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - t0),
      },
      'request',
    );
  });
  app.use('*', async function preferredFormat(c, next) {
    c.set('format', chooseFormat(c.req.header('accept')) ?? 'json');
    await next();
  });
  // PostgreSQL text cannot hold NUL: refuse it at the edge, in the URL here and in bodies in the schema walk.
  app.use('*', async function noNulInUrl(c, next) {
    if (/%00/i.test(c.req.url))
      throw new AppError(ErrorKind.invalid, ErrorCode.BadRequest, 'the URL contains a NUL character (%00)');
    await next();
  });
  // A bank statement (issue #45) is a month of a busy account: its own, larger limit.
  const limitOf = (bytes: number) =>
    bodyLimit(bytes, () => {
      throw new HTTPException(413, { message: `request body larger than ${bytes} bytes` });
    });
  const [anyBody, statementBody] = [
    limitOf(deps.config.BODY_LIMIT_BYTES),
    limitOf(deps.config.STATEMENT_BODY_LIMIT_BYTES ?? 64 * 1024 * 1024),
  ];
  app.use('*', (c, next) => (c.req.path === '/1.6/bank/statements' ? statementBody : anyBody)(c, next));

  app.onError((err, c) => {
    const format = c.get('format') ?? 'json';
    if (err instanceof AppError) return sendProblem(c, err, format);
    // The gateway's own database (credentials, Idempotency-Keys): a failover's lost connection is a 503,
    // not a 500 (issue #46), as in the services.
    const mapped = mapDbError(err);
    if (mapped instanceof AppError) return sendProblem(c, mapped, format);
    if (err instanceof HTTPException) {
      return sendProblem(
        c,
        new AppError(ErrorKind.invalid, ErrorCode.BadRequest, err.message),
        format,
        err.status,
      );
    }
    log.error({ err, requestId: c.get('requestId') }, 'unhandled error');
    return sendProblem(
      c,
      new AppError(ErrorKind.internal, ErrorCode.InternalError, 'internal error'),
      format,
    );
  });
  app.notFound((c) =>
    sendProblem(
      c,
      new AppError(ErrorKind.not_found, ErrorCode.NotFound, `no operation ${c.req.method} ${c.req.path}`),
      c.get('format'),
    ),
  );

  // Probes (issue #12): liveness without I/O; readiness at most 1 s old; `/health` stays readiness.
  const ready = readiness({
    nc: deps.nc,
    pingDb: deps.pingDb,
    services: SERVICES,
    maxAgeMs: deps.config.HEALTH_CACHE_MS,
    opsStatusDir: deps.config.OPS_STATUS_DIR,
  });
  app.get('/health/live', (c) => c.json({ status: 'ok' }));
  const readyHandler = async (c: Context) => {
    const r = await ready();
    return c.json(r, r.status === 'ok' ? 200 : 503);
  };
  app.get('/health/ready', readyHandler);
  app.get('/health', readyHandler);

  const negotiate: MiddlewareHandler<GatewayEnv> = async function negotiateFormat(c, next) {
    const f = chooseFormat(c.req.header('accept'));
    if (!f)
      throw new AppError(
        ErrorKind.not_acceptable,
        ErrorCode.NotAcceptable,
        'Accept must allow application/json or application/xml',
      );
    c.set('format', f);
    await next();
  };
  const authenticate = authentication(
    deps.config,
    deps.identity,
    deps.authStore,
  ) as unknown as MiddlewareHandler<GatewayEnv>;

  app.openAPIRegistry.registerComponent('securitySchemes', 'basic', { type: 'http', scheme: 'basic' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'clientId', {
    type: 'apiKey',
    in: 'header',
    name: 'ClientID',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'clientSecret', {
    type: 'apiKey',
    in: 'header',
    name: 'ClientSecret',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'companyId', {
    type: 'apiKey',
    in: 'header',
    name: 'CompanyID',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'adminBearer', { type: 'http', scheme: 'bearer' });
  app.openAPIRegistry.registerComponent('schemas', 'Problem', {
    type: 'object',
    description:
      'RFC 9457 problem details (DESIGN §2 "Errors"); as XML the root element is `problem` and `errors` holds one `error` element per entry',
    xml: { name: 'problem' },
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string' },
      instance: { type: 'string' },
      errors: {
        type: 'array',
        items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
      },
      shortfalls: {
        type: 'array',
        description: 'OperationCanceledException only: one entry per item and lot short',
        items: { $ref: '#/components/schemas/Shortfall' },
      },
    },
    required: ['type', 'title', 'status', 'code'],
  });
  app.openAPIRegistry.register('Shortfall', Shortfall);

  registerAdminRoutes(app, deps.identity, deps.config.ADMIN_TOKEN);
  // The routes outside the operation table: the same NATS connection and request deadline.
  const nats = { nc: deps.nc, timeoutMs: deps.config.REQUEST_TIMEOUT_MS };
  registerPrintoutRoute(app, nats, authenticate, negotiate);
  registerEInvoiceRoutes(app, nats, authenticate, negotiate);
  registerTaxRoutes(app, nats, authenticate);
  registerBankRoutes(app, nats, authenticate, negotiate);
  const keyed = idempotency({
    store: deps.idempotency,
    // A running request holds its key for two NATS round trips' worth of deadline plus a grace.
    leaseMs: 2 * deps.config.REQUEST_TIMEOUT_MS + 5000,
    log,
  });
  registerOperations(
    app,
    [...warehouseOperations, ...invoiceOperations, ...masterDataOperations, ...(deps.operations ?? [])],
    { nc: deps.nc, timeoutMs: deps.config.REQUEST_TIMEOUT_MS },
    [authenticate, negotiate],
    [keyed],
  );

  // The documents are built once, on their first request (every route is registered by then), and
  // served from memory afterwards (issue #12: the OpenAPI document used to be rebuilt on every request).
  // Both are public, like the interface's description of itself (issue #14 for AsyncAPI).
  let openApiJson: string | undefined;
  app.get('/1.6/openapi.json', (c) => {
    openApiJson ??= JSON.stringify(openApiDocument(app));
    return c.body(openApiJson, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });
  let asyncApiJson: string | undefined;
  app.get('/1.6/asyncapi.json', (c) => {
    asyncApiJson ??= JSON.stringify(buildAsyncApiDocument());
    return c.body(asyncApiJson, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });
  return app;
}

/**
 * The OpenAPI 3.1 document of an app built by {@link createApp}: every registered route with its zod
 * request and response schemas (INTERFACE-1.6 paths, DESIGN §2 problems). `docs/openapi.json` and the
 * typed client are generated from it (`pnpm generate`, issue #14).
 */
export function openApiDocument(
  app: OpenAPIHono<GatewayEnv>,
): ReturnType<OpenAPIHono['getOpenAPI31Document']> {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Business management interface',
      version: '1.6',
      description:
        'Issue cards, purchase invoices and sales invoices (INTERFACE-1.6), with the decisions of DESIGN.md.',
    },
  });
}
