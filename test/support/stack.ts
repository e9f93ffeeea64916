/**
 * The whole stack in one test process, on real PostgreSQL and NATS: the three services (any number of
 * replicas) and the gateway app, driven with `app.request()`. Each stack gets its own database.
 */

import { randomBytes } from 'node:crypto';
import { type BmClient, authHeaders as clientAuthHeaders, createBmClient } from '@bm/client';
import type { NatsUserName } from '@bm/contracts';
import { createLogger } from '@bm/logger';
import { connect, type NatsConnection } from '@bm/messaging';
import { initOrm, natsOptions, observeOrm, pingWritable, type RunningService } from '@bm/service-kit';
import { dropDatabase, ensureDatabase } from '@bm/testing/infra';
import { type NatsCredentials, natsEnv } from '@bm/testing/nats-auth';
import { type DbProcess, provisionDbRoles } from '@bm/testing/pg-roles';
import addFormatsModule from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';
import pg from 'pg';
import { inject } from 'vitest';
import { createApp } from '../../gateway/src/app.js';
import type { GatewayConfig } from '../../gateway/src/config.js';
import { IdempotencyStore } from '../../gateway/src/identity/idempotency.store.js';
import {
  type CompanyCredentials,
  type CreateCompanyInput,
  IdentityService,
} from '../../gateway/src/identity/identity.service.js';
import { ormOptions as identityOrm } from '../../gateway/src/identity/orm-options.js';
import { loadConfig as accessPointConfig } from '../../services/access-point/src/config.js';
import { type RunningAccessPoint, startAccessPoint } from '../../services/access-point/src/service.js';
import { startInvoicing } from '../../services/invoicing/src/service.js';
import { startReporting } from '../../services/reporting/src/service.js';
import { startWarehouse, type WarehouseService } from '../../services/warehouse/src/service.js';
import type { BodyOf, CallPath, Unchecked } from './typed-paths.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
type ServiceName = 'warehouse' | 'invoicing' | 'reporting';
type Replicas = { warehouse: WarehouseService[]; invoicing: RunningService[]; reporting: RunningService[] };
const starters = { warehouse: startWarehouse, invoicing: startInvoicing, reporting: startReporting };

export interface Stack {
  /** The test database, as the superuser (for inspection). */
  databaseUrl: string;
  /** The same database as each process's own role. */
  roleUrls: Record<DbProcess, string>;
  natsUrl: string;
  /** The NATS users of the processes, when the server has users. */
  natsCredentials?: NatsCredentials;
  /** A NATS connection as one of the processes' users (default `admin`, which may do anything). */
  natsConnect(user?: NatsUserName): Promise<NatsConnection>;
  app: ReturnType<typeof createApp>;
  /** Another gateway replica (own caches and limiter memory, shared database and NATS). */
  gatewayReplica(): ReturnType<typeof createApp>;
  replicas: Replicas;
  /** Starts one more replica of a service. */
  startReplica(name: ServiceName): Promise<RunningService>;
  /** Stops every replica of a service. */
  stopService(name: ServiceName): Promise<void>;
  /**
   * Starts the access-point connector (issue #23) as its own NATS user, with a durable consumer of its
   * own (`PEPPOL_CONSUMER`, unique per call unless given); stopped with the stack unless stopped before.
   */
  startAccessPoint(
    env?: Record<string, string>,
    opts?: { logTo?: NodeJS.WritableStream },
  ): Promise<RunningAccessPoint>;
  /** The `SECRETS_KEY` every connector of this stack gets (issue #35), base64. */
  secretsKey: string;
  /** Creates a company through `POST /admin/companies` and returns a client bound to it. */
  company(input?: Partial<CreateCompanyInput>): Promise<Client>;
  stop(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when not JSON). */
  body: any;
}

/**
 * A company's client in the tests: every call goes through the typed REST client (`@bm/client`,
 * openapi-fetch on the types generated from the OpenAPI document), and paths and bodies are checked
 * against those types (see typed-paths.ts; `unchecked(body)` for a body sent against the contract on
 * purpose).
 */
export interface Client {
  creds: CompanyCredentials;
  headers: Record<string, string>;
  /** The typed client itself, bound to this company's credentials. */
  api: BmClient;
  get<P extends CallPath<'get'>>(path: P, headers?: Record<string, string>): Promise<Reply>;
  post<P extends CallPath<'post'>>(
    path: P,
    body?: BodyOf<P, 'post'> | Unchecked,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  put<P extends CallPath<'put'>>(
    path: P,
    body?: BodyOf<P, 'put'> | Unchecked,
    headers?: Record<string, string>,
  ): Promise<Reply>;
}

/** Basic + client + company headers of a set of credentials. */
export const authHeaders = (c: CompanyCredentials): Record<string, string> => clientAuthHeaders(c);

// ajv-formats is CommonJS typed as an ES default export: take the function whichever way it arrives.
type AddFormats = (ajv: unknown) => unknown;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ??
  (addFormatsModule as unknown as AddFormats);

/**
 * The published OpenAPI document as a response validator (openapi-backend, JSON Schema 2020-12 as OpenAPI
 * 3.1 uses it), built once per test worker from the app's own `GET /1.6/openapi.json`.
 */
let validator: Promise<OpenAPIBackend> | undefined;
function openApiValidator(app: Stack['app']): Promise<OpenAPIBackend> {
  validator ??= (async () => {
    const definition = await (await app.request('/1.6/openapi.json')).json();
    // quick: no check of the document itself against the 3.0 meta-schema (the 3.1 document is validated in
    // openapi-schemas.int.test.ts); responses are still validated in full.
    const api = new OpenAPIBackend({
      definition,
      quick: true,
      validate: true,
      // Formats (uuid, date, date-time, email, …) are checked too, not ignored.
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
    return api;
  })();
  return validator;
}

/**
 * Checks a JSON answer of the interface against the published document (issue #11: the contract must be
 * true to every answer): the operation must be documented, and the body must match the schema of its
 * status. Throws with the violations, so the test that received the answer fails.
 */
export async function assertDocumented(
  app: Stack['app'],
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
): Promise<void> {
  if (!/^\/(1\.6|admin)\//.test(path) || /^\/1\.6\/(openapi|asyncapi)\.json/.test(path)) return;
  if (!contentType || !/json/.test(contentType) || body === undefined) return;
  const api = await openApiValidator(app);
  const [pathname, query = ''] = path.split('?');
  const op = api.matchOperation({ method, path: pathname, query, headers: {} });
  // A path the gateway answers without a route (an unknown path's 404, a 405) has no operation.
  if (!op) {
    if (status === 404 || status === 405) return;
    throw new Error(`OpenAPI: ${method} ${pathname} answered ${status} but is not in the published document`);
  }
  const result = api.validateResponse(body, op, status);
  if (result.errors?.length)
    throw new Error(
      `OpenAPI: the ${status} answer of ${method} ${pathname} (${op.operationId}) violates the published document: ${JSON.stringify(result.errors.slice(0, 5))}`,
    );
}

/** The reply text of each response the app gave, read before openapi-fetch sees the response. */
const replyTexts = new WeakMap<Response, string>();

/**
 * The typed client of an app (`@bm/client`) on the app's in-process `request`: no socket, the same
 * requests and responses. Every JSON answer is checked against the OpenAPI document on the way.
 */
function appClient(app: Stack['app'], credentials?: CompanyCredentials): BmClient {
  return createBmClient({
    baseUrl: 'http://localhost',
    credentials,
    fetch: async (req: Request) => {
      const res = await app.request(req);
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const url = new URL(req.url);
      await assertDocumented(
        app,
        req.method.toLowerCase(),
        url.pathname + url.search,
        res.status,
        res.headers.get('content-type'),
        parsed,
      );
      // A fresh response with the same status, headers and body (the original body is read).
      const copy = new Response(res.status === 204 || res.status === 304 ? null : text, {
        status: res.status,
        headers: res.headers,
      });
      replyTexts.set(copy, text);
      return copy;
    },
  });
}

/**
 * Sends one request through a typed client and reads the reply. `path` is a concrete URL (the callers'
 * types check it); a string body is sent as it is (raw JSON or XML), anything else as JSON.
 */
async function call(
  api: BmClient,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const { response } = await api.request(
    method.toLowerCase() as 'get',
    path as never,
    {
      headers,
      ...(body !== undefined
        ? {
            body: body as never,
            bodySerializer: (b: unknown) => (typeof b === 'string' ? b : JSON.stringify(b)),
          }
        : {}),
      parseAs: 'stream',
    } as never,
  );
  const text = replyTexts.get(response) ?? (await response.text());
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/**
 * Sends a request outside any company's client (anonymous, admin or deliberately malformed calls), still
 * through the typed client; JSON answers are checked against the OpenAPI document.
 */
export async function send(
  app: Stack['app'],
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return call(appClient(app), method, path, body, headers);
}

/** Starts a stack with a fresh database. */
export async function startStack(
  opts: {
    replicas?: Partial<Record<ServiceName, number>>;
    /** Another NATS server (with `natsCredentials` when it has users). */
    natsUrl?: string;
    natsCredentials?: NatsCredentials;
    /** Replicas of the streams and object stores the services create (3 on a three-node cluster). */
    natsReplicas?: number;
    requestTimeoutMs?: number;
    /** Lifetime of a verified credential in the gateway's cache, ms (default 60 s). */
    authCacheTtlMs?: number;
    /**
     * Authentication limits (issue #12). Default: limits far above what a test sends, since every
     * in-process request shares one client address; the flood test passes the production defaults.
     */
    authLimits?: Partial<GatewayConfig>;
    /**
     * Another PostgreSQL server (an admin URL) for some processes' schemas (issue #25 "Per-service
     * database URLs"): their database and role are made there, the others stay on the test server.
     */
    serverOf?: Partial<Record<DbProcess, string>>;
    /** Another PostgreSQL server (an admin URL) for every process: a local cluster's stable address (issue #46). */
    pgUrl?: string;
  } = {},
): Promise<Stack> {
  const databaseName = `t_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const databaseUrl = await ensureDatabase(opts.pgUrl ?? inject('pgUrl'), databaseName);
  const natsUrl = opts.natsUrl ?? inject('natsUrl');
  const natsCredentials: NatsCredentials | undefined = opts.natsUrl
    ? opts.natsCredentials
    : inject('natsCredentials')
      ? JSON.parse(inject('natsCredentials'))
      : undefined;
  // Each process connects as its own PostgreSQL role that owns only its schema (issue #12).
  const roleUrls = await provisionDbRoles(databaseUrl, JSON.parse(inject('dbRolePasswords')));
  const otherDatabases: string[] = [];
  for (const [proc, server] of Object.entries(opts.serverOf ?? {}) as [DbProcess, string][]) {
    const other = await ensureDatabase(server, databaseName);
    otherDatabases.push(other);
    roleUrls[proc] = (await provisionDbRoles(other, JSON.parse(inject('dbRolePasswords'))))[proc];
  }
  const config = {
    NATS_URL: natsUrl,
    LOG_LEVEL: (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent',
    NATS_REPLICAS: opts.natsReplicas ?? 1,
  };
  const replicas: Replicas = { warehouse: [], invoicing: [], reporting: [] };
  // Each service connects as its own NATS user, as in production (issue #12).
  const startReplica = async (name: ServiceName) => {
    const r = await starters[name]({
      ...config,
      DATABASE_URL: roleUrls[name],
      ...natsEnv(natsCredentials, name),
    });
    (replicas[name] as RunningService[]).push(r);
    return r;
  };
  for (const name of Object.keys(replicas) as ServiceName[]) {
    for (let i = 0; i < (opts.replicas?.[name] ?? 1); i++) await startReplica(name);
  }
  const log = createLogger('gateway', 'silent');
  const orm = await initOrm({ ...identityOrm, clientUrl: roleUrls.gateway, log });
  // The gateway's pool gauges, as its process entry registers them (issue #25).
  const unobserveIdentity = observeOrm(orm, identityOrm.schema, { outbox: false });
  const natsConnect = (user: NatsUserName = 'admin') =>
    connect({ ...natsOptions({ NATS_URL: natsUrl, ...natsEnv(natsCredentials, user) }, `test-${user}`) });
  const nc = await natsConnect('gateway');
  const identity = new IdentityService(orm, nc);
  const authStores: pg.Pool[] = [];
  const accessPoints: RunningAccessPoint[] = [];
  const secretsKey = randomBytes(32).toString('base64');
  /** One gateway app on the stack's database and NATS; each has its own caches, as a replica does. */
  const gatewayApp = () => {
    const authStore = new pg.Pool({ connectionString: roleUrls.gateway, max: 3 });
    // An idle connection ended by the server (the database dropped at the end) is no error of the test.
    authStore.on('error', () => undefined);
    authStores.push(authStore);
    return createApp({
      authStore,
      config: {
        ADMIN_TOKEN,
        REQUEST_TIMEOUT_MS: opts.requestTimeoutMs ?? 3000,
        BODY_LIMIT_BYTES: 4 * 1024 * 1024,
        ...(opts.authLimits ?? {
          AUTH_ATTEMPTS_PER_ADDRESS: 100_000,
          AUTH_FAILURES_PER_ADDRESS: 100_000,
          AUTH_FAILURES_PER_USERNAME_ADDRESS: 100_000,
          AUTH_FAILURES_PER_USERNAME: 100_000,
          AUTH_HASH_QUEUE: 100_000,
          AUTH_HASH_QUEUE_PER_ADDRESS: 100_000,
        }),
        // After the limits: `authLimits` may be a whole configuration with its own cache lifetime.
        AUTH_CACHE_TTL_MS: opts.authCacheTtlMs ?? 60_000,
      },
      identity,
      idempotency: new IdempotencyStore(orm),
      nc,
      log,
      pingDb: () => pingWritable(orm),
    });
  };
  const app = gatewayApp();
  const clientFor = (creds: CompanyCredentials): Client => {
    const headers = authHeaders(creds);
    const api = appClient(app, creds);
    return {
      creds,
      headers,
      api,
      get: (path, h = {}) => call(api, 'GET', path, undefined, h),
      post: (path, body, h = {}) => call(api, 'POST', path, body, h),
      put: (path, body, h = {}) => call(api, 'PUT', path, body, h),
    };
  };
  let n = 0;
  return {
    databaseUrl,
    roleUrls,
    natsUrl,
    natsCredentials,
    natsConnect,
    app,
    gatewayReplica: gatewayApp,
    replicas,
    startReplica,
    secretsKey,
    startAccessPoint: async (env = {}, opts = {}) => {
      const ap = await startAccessPoint(
        accessPointConfig({
          NATS_URL: natsUrl,
          ...natsEnv(natsCredentials, 'access-point'),
          LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
          PEPPOL_CONSUMER: `ap-${crypto.randomUUID().slice(0, 8)}`,
          PEPPOL_FORWARDING_PORT: '0',
          // Issue #35: quick retries and polls in tests; one key for every connector of this stack.
          PEPPOL_RETRY_BASE_MS: '500',
          SAPI_POLL_MS: '100',
          SECRETS_KEY: secretsKey,
          ...env,
        }),
        opts,
      );
      let stopped = false;
      const stop = ap.stop;
      ap.stop = async () => {
        if (stopped) return;
        stopped = true;
        await stop();
      };
      accessPoints.push(ap);
      return ap;
    },
    stopService: async (name) => {
      await Promise.all(replicas[name].map((r) => r.stop()));
      replicas[name] = [];
    },
    company: async (input = {}) => {
      n++;
      const r = await send(
        app,
        'POST',
        '/admin/companies',
        {
          name: `Firma ${n} s.r.o.`,
          country: 'SK',
          vatNumber: `SK20201234${String(n).padStart(2, '0')}`,
          ...input,
        },
        { Authorization: `Bearer ${ADMIN_TOKEN}` },
      );
      if (r.status !== 201) throw new Error(`company creation failed: ${r.status} ${r.text}`);
      return clientFor(r.body);
    },
    stop: async () => {
      await Promise.all(accessPoints.map((a) => a.stop().catch(() => undefined)));
      for (const list of Object.values(replicas)) await Promise.all(list.map((r) => r.stop()));
      await nc.drain().catch(() => undefined);
      await Promise.all(authStores.map((p) => p.end().catch(() => undefined)));
      unobserveIdentity();
      await orm.close();
      await dropDatabase(databaseUrl).catch(() => undefined);
      for (const other of otherDatabases) await dropDatabase(other).catch(() => undefined);
    },
  };
}
