/**
 * The gateway's operation table: each `/1.6` operation names its path, input schemas, reply schema
 * and XML root, and a `run` that turns the validated input into NATS requests. One generic handler
 * does the HTTP side (DESIGN §2): body parsing (JSON or XML), case-insensitive field names, unknown
 * fields → 400, validation with the shared contract, rendering as JSON or XML. Each operation is also
 * registered in the OpenAPI document.
 */

import { type Contract, type ReplyOf, type RequestInputOf, z } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, type FieldError, validationFailed } from '@bm/errors';
import { type NatsConnection, type RequestContext, request, zodFieldErrors } from '@bm/messaging';
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { parseJsonLossless, parseXmlBody, toXml } from '../http/codec.js';
import type { Format } from '../http/negotiate.js';
import { documentNullables } from '../http/openapi-nullables.js';
import { problemResponses } from '../http/problem-responses.js';
import { renderJson } from '../http/render-json.js';
import { normalizeInput, renderOutput } from '../http/schema-walk.js';
import type { AuthVariables } from '../middleware/auth.js';
import type { RequestIdVariables } from '../middleware/request-id.js';

/**
 * Top-level fields of the interface's create example that are not described as fields (INTERFACE §2.3):
 * accepted and ignored on every body that does not define them (DESIGN §2 "Unknown input fields").
 */
export const EXAMPLE_FIELDS = ['PeriodYear', 'Period'];

export type GatewayEnv = { Variables: AuthVariables & RequestIdVariables & { format: Format } };

/** Sends a typed request on behalf of the current principal. */
export type Caller = <C extends Contract>(contract: C, body: RequestInputOf<C>) => Promise<ReplyOf<C>>;

export interface OperationInput {
  body: any;
  query: any;
  params: any;
}

/** A reply whose schema and XML root the operation picks at run time (e.g. a page or a record). */
export class Rendered {
  constructor(
    readonly value: unknown,
    readonly reply: z.ZodType,
    readonly xmlRoot: string,
  ) {}
}

export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI-style path, e.g. `/1.6/items/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** `optional`: a request without a body is read as `{}` (e.g. a storno without a date). */
  body?: { schema: z.ZodObject; accepted?: z.ZodType; ignore?: string[]; optional?: boolean };
  query?: z.ZodObject;
  params?: z.ZodObject;
  reply: z.ZodType;
  /** Root element of the XML reply. */
  xmlRoot: string;
  status?: 200 | 201;
  run: (input: OperationInput, call: Caller) => Promise<unknown>;
}

export interface OperationDeps {
  nc: NatsConnection;
  timeoutMs: number;
}

/** Reads the request body as JSON (lossless) or XML; malformed → 400 BadRequest. */
async function readBody(c: Context): Promise<{ value: unknown; xml: boolean }> {
  const type = (c.req.header('content-type') ?? 'application/json').toLowerCase();
  const text = await c.req.text();
  if (!text.trim()) return { value: undefined, xml: false };
  if (type.includes('xml')) {
    try {
      return { value: parseXmlBody(text), xml: true };
    } catch (e) {
      throw new AppError(ErrorKind.invalid, ErrorCode.BadRequest, `malformed XML: ${(e as Error).message}`);
    }
  }
  if (!type.includes('json')) {
    throw new AppError(
      ErrorKind.invalid,
      ErrorCode.BadRequest,
      `unsupported Content-Type ${type}; send application/json or application/xml`,
      {
        errors: [{ path: 'Content-Type', message: 'use application/json or application/xml' }],
      },
    );
  }
  try {
    return { value: parseJsonLossless(text), xml: false };
  } catch (e) {
    throw new AppError(ErrorKind.invalid, ErrorCode.BadRequest, `malformed JSON: ${(e as Error).message}`);
  }
}

/** Query parameters as a flat object (the first value of each name). */
const queryObject = (c: Context): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(c.req.url).searchParams) if (!(k in out)) out[k] = v;
  return out;
};

function validate(schema: z.ZodType, value: unknown, prefix: string, errors: FieldError[]): unknown {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  errors.push(...zodFieldErrors(r.error, prefix === 'body' ? '' : prefix, value ?? {}));
  return undefined;
}

/** Renders a reply in the negotiated format. */
export function render(
  c: Context,
  status: number,
  root: string,
  schema: z.ZodType | undefined,
  value: unknown,
  format: Format,
): Response {
  if (format === 'xml')
    return c.body(toXml(root, renderOutput(schema as any, value, format)), status as any, {
      'Content-Type': 'application/xml; charset=utf-8',
    });
  return c.body((renderJson(schema as any, value) ?? null) as string, status as any, {
    'Content-Type': 'application/json; charset=utf-8',
  });
}

/** The headers every NATS message of this request carries: tenant, user, request id, time zone (DESIGN §1). */
export function messageContext(c: Context<GatewayEnv>): RequestContext {
  const p = c.get('principal');
  return { companyId: p.companyId, userId: p.userId, requestId: c.get('requestId'), timeZone: p.timeZone };
}

/** The generic handler of one operation. */
export function handlerFor(
  op: Operation,
  deps: OperationDeps,
): (c: Context<GatewayEnv>) => Promise<Response> {
  return async (c) => {
    const principal = c.get('principal');
    const ctx = messageContext(c);
    // Concurrent HTTP requests to one subject travel as one NATS message (issue #24, batch.ts).
    const call: Caller = (contract, body) =>
      request(deps.nc, contract, body, ctx, { timeoutMs: deps.timeoutMs, coalesce: true });
    const errors: FieldError[] = [];
    const input: OperationInput = { body: undefined, query: {}, params: {} };
    if (op.params) input.params = validate(op.params, c.req.param(), 'path', errors);
    if (op.query) {
      const queryErrors: FieldError[] = [];
      const q = normalizeInput(
        op.query as any,
        undefined,
        queryObject(c),
        { xml: true, timeZone: principal.timeZone },
        queryErrors,
      );
      errors.push(
        ...queryErrors.map((e) => ({
          path: `query.${e.path}`,
          message: e.message === 'unknown field' ? 'unknown query parameter' : e.message,
        })),
      );
      input.query = validate(op.query, q, 'query', errors);
    } else if (Object.keys(queryObject(c)).length) {
      errors.push(
        ...Object.keys(queryObject(c)).map((k) => ({
          path: `query.${k}`,
          message: 'unknown query parameter',
        })),
      );
    }
    if (op.body) {
      const read = await readBody(c);
      const { xml } = read;
      const value = read.value === undefined && op.body.optional ? {} : read.value;
      if (value === undefined)
        throw validationFailed([{ path: '(body)', message: 'a request body is required' }]);
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        throw validationFailed([{ path: '(body)', message: 'the body must be an object' }]);
      }
      const normalized = normalizeInput(
        op.body.schema as any,
        (op.body.accepted ?? op.reply) as any,
        value,
        {
          xml,
          timeZone: principal.timeZone,
          ignore: op.body.ignore ?? EXAMPLE_FIELDS,
        },
        errors,
      );
      if (!errors.length) input.body = validate(op.body.schema, normalized, 'body', errors);
    }
    if (errors.length) throw validationFailed(errors);
    const result = await op.run(input, call);
    if (result instanceof Rendered)
      return render(c, op.status ?? 200, result.xmlRoot, result.reply, result.value, c.get('format'));
    return render(c, op.status ?? 200, op.xmlRoot, op.reply, result, c.get('format'));
  };
}

/** OpenAPI `{id}` → Hono `:id`. */
export const honoPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

/**
 * The OpenAPI `operationId` of a route, derived from its method and path so it is unique and stable:
 * `get /1.6/warehouses/{id}/stock` → `getWarehousesByIdStock` (generated clients name their calls by it).
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/1\.6\//, '/')
    .split('/')
    .filter(Boolean)
    .map((seg) => {
      const param = /^\{(\w+)\}$/.exec(seg);
      const word = param ? `by-${param[1]}` : seg;
      return word
        .split(/[-_.]/)
        .filter(Boolean)
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join('');
    });
  return method.toLowerCase() + words.join('');
}

/** Registers the operations on the app and in its OpenAPI registry. */
export function registerOperations(
  app: OpenAPIHono<GatewayEnv>,
  ops: Operation[],
  deps: OperationDeps,
  middleware: MiddlewareHandler<GatewayEnv>[],
  /** Runs after `middleware` on POST operations only (the `Idempotency-Key` handling, issue #12). */
  postMiddleware: MiddlewareHandler<GatewayEnv>[] = [],
): void {
  for (const op of ops) {
    for (const schema of [op.params, op.query, op.body?.schema, op.reply]) documentNullables(schema);
    const route: RouteConfig = {
      method: op.method,
      path: op.path,
      operationId: operationIdOf(op.method, op.path),
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      security: [{ basic: [], clientId: [], clientSecret: [], companyId: [] }],
      request: {
        ...(op.method === 'post' ? { headers: IdempotencyHeader as any } : {}),
        ...(op.params ? { params: op.params as any } : {}),
        ...(op.query ? { query: op.query as any } : {}),
        ...(op.body
          ? {
              body: {
                required: !op.body.optional,
                content: {
                  'application/json': { schema: op.body.schema as any },
                  'application/xml': { schema: op.body.schema as any },
                },
              },
            }
          : {}),
      },
      responses: {
        [op.status ?? 200]: {
          description: 'OK',
          content: {
            'application/json': { schema: op.reply as any },
            'application/xml': { schema: op.reply as any },
          },
        },
        ...problemResponses,
      },
    };
    app.openAPIRegistry.registerPath(route);
    const extra = op.method === 'post' ? postMiddleware : [];
    app.on(
      [op.method.toUpperCase()],
      [honoPath(op.path)],
      ...middleware,
      ...extra,
      handlerFor(op, deps) as any,
    );
  }
}

/** The `Idempotency-Key` request header of every POST (issue #12), as documented in the OpenAPI document. */
const IdempotencyHeader = z.object({
  'Idempotency-Key': z.string().min(1).max(255).optional().openapi({
    description:
      'Makes a retry safe (IETF httpapi Idempotency-Key draft): the same key and request within 24 h returns the stored answer with `Idempotent-Replayed: true`; the same key with another request is 422 IdempotencyKeyReused; while the first request runs, 409 with Retry-After.',
    example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
  }),
});
