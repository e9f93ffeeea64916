/**
 * Typed REST client of interface 1.6 (issue #14): `paths` is generated from the OpenAPI document by
 * openapi-typescript (`src/schema.d.ts`, `pnpm generate`), the calls are made by openapi-fetch. A call to
 * a path, method, parameter or body the document does not have does not compile.
 *
 * ```ts
 * const api = createBmClient({ baseUrl: 'http://127.0.0.1:8080', credentials });
 * const { data, error } = await api.POST('/1.6/warehouses/issue-cards', { body: card });
 * ```
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** A client bound to the generated `paths`. */
export type BmClient = Client<paths>;

/** API credentials of a company (INTERFACE-1.6 "Authentication"; `pnpm create-company` prints them). */
export interface Credentials {
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  companyId: string;
}

/** The four authentication headers of a request: Basic, `ClientID`, `ClientSecret`, `CompanyID`. */
export function authHeaders(c: Credentials): Record<string, string> {
  return {
    Authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
    ClientID: c.clientId,
    ClientSecret: c.clientSecret,
    CompanyID: c.companyId,
  };
}

export interface BmClientOptions {
  /** Where the gateway listens, e.g. `http://127.0.0.1:8080` (paths begin with `/1.6/`). */
  baseUrl: string;
  /** Sent on every request when given; public paths (`/1.6/openapi.json`, health) need none. */
  credentials?: Credentials;
  /** Extra headers on every request (e.g. `Accept: application/xml`). */
  headers?: Record<string, string>;
  /** Another fetch (tests pass the app's in-process `request`). */
  fetch?: ClientOptions['fetch'];
}

/** A typed client of interface 1.6 (see the module comment). */
export function createBmClient(o: BmClientOptions): BmClient {
  return createClient<paths>({
    baseUrl: o.baseUrl,
    fetch: o.fetch,
    headers: { ...(o.credentials ? authHeaders(o.credentials) : {}), ...o.headers },
  });
}
