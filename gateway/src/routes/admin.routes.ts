/**
 * Operator endpoints (DESIGN §3): `POST /admin/companies` creates a company with its tax profile and
 * default master data and returns the credentials once; `POST /admin/companies/{id}/members` gives a
 * user access. Bearer `ADMIN_TOKEN`; without a configured token they answer 401.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, type FieldError, validationFailed } from '@bm/errors';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { parseJsonLossless } from '../http/codec.js';
import { problemResponses } from '../http/problem-responses.js';
import { normalizeInput } from '../http/schema-walk.js';
import { AddMemberInput, CreateCompanyInput, type IdentityService } from '../identity/identity.service.js';
import { type GatewayEnv, operationIdOf } from './operation.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

function assertAdmin(c: Context, token: string | undefined): void {
  const m = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '');
  if (!token || !m || !timingSafeEqual(digest(m[1].trim()), digest(token))) {
    throw new AppError(ErrorKind.unauthorized, ErrorCode.Unauthorized, 'admin bearer token required');
  }
}

/**
 * The JSON body, walked like every `/1.6` body (DESIGN §2): case-insensitive names, 400 naming an unknown
 * field, a NUL or lone surrogate in a string, or a number where text is expected; 400 when malformed.
 */
async function jsonBody(c: Context, schema: z.ZodObject): Promise<unknown> {
  let body: unknown;
  try {
    body = parseJsonLossless((await c.req.text()) || '{}');
  } catch (e) {
    throw new AppError(ErrorKind.invalid, ErrorCode.BadRequest, `malformed JSON: ${(e as Error).message}`);
  }
  const errors: FieldError[] = [];
  const value = normalizeInput(schema as any, undefined, body, { timeZone: 'UTC', xml: false }, errors);
  if (errors.length) throw validationFailed(errors);
  return value;
}

const Credentials = z.object({
  companyId: z.guid(),
  username: z.string(),
  password: z.string(),
  clientId: z.string(),
  clientSecret: z.string(),
});

/** Registers the admin routes. */
export function registerAdminRoutes(
  app: OpenAPIHono<GatewayEnv>,
  identity: IdentityService,
  adminToken: string | undefined,
): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/admin/companies',
    operationId: operationIdOf('post', '/admin/companies'),
    summary: 'Create a company with its default master data; returns its credentials once',
    tags: ['Admin'],
    security: [{ adminBearer: [] }],
    request: {
      body: { required: true, content: { 'application/json': { schema: CreateCompanyInput as any } } },
    },
    responses: {
      201: { description: 'Created', content: { 'application/json': { schema: Credentials } } },
      ...problemResponses,
    },
  });
  app.post('/admin/companies', async (c) => {
    assertAdmin(c, adminToken);
    const creds = await identity.createCompany(await jsonBody(c, CreateCompanyInput), c.get('requestId'));
    return c.json(creds, 201);
  });

  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/admin/companies/{id}/members',
    operationId: operationIdOf('post', '/admin/companies/{id}/members'),
    summary: 'Give a user access to a company (creates the user when new; its password is returned once)',
    tags: ['Admin'],
    security: [{ adminBearer: [] }],
    request: {
      params: z.object({ id: z.guid() }),
      body: {
        required: true,
        content: { 'application/json': { schema: AddMemberInput } },
      },
    },
    responses: {
      201: {
        description: 'Member added',
        content: {
          'application/json': { schema: z.object({ username: z.string(), password: z.string().optional() }) },
        },
      },
      ...problemResponses,
    },
  });
  app.post('/admin/companies/:id/members', async (c) => {
    assertAdmin(c, adminToken);
    const id = c.req.param('id');
    if (!/^[0-9a-f-]{36}$/i.test(id))
      throw new AppError(ErrorKind.not_found, ErrorCode.NotFound, 'Company not found');
    return c.json(await identity.addMember(id.toLowerCase(), await jsonBody(c, AddMemberInput)), 201);
  });
}
