/**
 * Authentication and tenancy of `/1.6` (INTERFACE §5, DESIGN §2 "Auth failure", §3): Basic user
 * credentials, `ClientID`, `ClientSecret` and `CompanyID` are all required. Missing or wrong → 401 with
 * `WWW-Authenticate: Basic`; valid but without access to the company → 403. A verified tuple is cached
 * (keyed by a SHA-256 of the four values) so the slow hash does not run on every request.
 *
 * An uncached tuple is verified through the {@link AuthGuard} (issues #12, #22): failures count per
 * client address and per (username, address), never so that a right credential from an address that has
 * not failed is refused; a tuple that verified from an address before is admitted from it at once. A
 * `CompanyID` that is not a GUID is answered 403 before any limit is consulted or hash run. A source
 * over its budget gets its 429 after the {@link Tarpit}'s hold, not at once (issue #46).
 */

import { createHash } from 'node:crypto';
import { isGuid } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { authRefusals, authVerifications } from '@bm/telemetry';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import type { IdentityService, Principal } from '../identity/identity.service.js';
import { type AuthGuard, clientAddress } from './auth-guard.js';
import type { Tarpit } from './tarpit.js';

export type AuthVariables = { principal: Principal };

export interface AuthOptions {
  identity: Pick<IdentityService, 'verify'>;
  /** Lifetime of a cached successful verification, ms (failures: at most 5 s). */
  cacheTtlMs: number;
  guard: AuthGuard;
  /** Proxies in front of the gateway whose `X-Forwarded-For` is trusted (0: use the TCP peer). */
  trustedProxies: number;
  /** Holds the 429s of sources over their budget (issue #46); absent: answered at once. */
  tarpit?: Tarpit;
}

/** The TCP peer of a request served by @hono/node-server; undefined in-process (`app.request`). */
const peerOf = (c: Parameters<MiddlewareHandler>[0]) => () => {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
};

type Verdict = Principal | 'unauthorized' | 'forbidden';

const unauthorized = (detail: string) => new AppError(ErrorKind.unauthorized, ErrorCode.Unauthorized, detail);

/** Creates the authentication middleware. */
export function auth(o: AuthOptions): MiddlewareHandler<{ Variables: AuthVariables }> {
  const cache = new LRUCache<string, Promise<Verdict>>({ max: 10_000, ttl: Math.max(o.cacheTtlMs, 1) });
  return async function authMiddleware(c, next) {
    const authorization = c.req.header('authorization');
    const clientId = c.req.header('clientid');
    const clientSecret = c.req.header('clientsecret');
    const companyId = c.req.header('companyid');
    const missing = [
      !authorization && 'Authorization',
      !clientId && 'ClientID',
      !clientSecret && 'ClientSecret',
      !companyId && 'CompanyID',
    ].filter(Boolean);
    if (missing.length) throw unauthorized(`missing header ${missing.join(', ')}`);
    // No company has such an id: refused before it costs a verification or a failure budget (issue #22).
    if (!isGuid(companyId!.trim())) {
      authRefusals.inc({ reason: 'company_id' });
      throw new AppError(ErrorKind.forbidden, ErrorCode.Forbidden, 'no access to this company');
    }
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization!);
    const decoded = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 1) throw unauthorized('Authorization must be Basic credentials (username:password)');
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const key = createHash('sha256')
      .update([authorization, clientId, clientSecret, companyId].join('\u0000'))
      .digest('base64');
    let verdict = cache.get(key);
    const address = verdict ? '' : clientAddress(c, o.trustedProxies, peerOf(c));
    if (!verdict) {
      // Cached before it settles: concurrent first calls with one tuple share one admission and one
      // verification (a client opening 32 connections at once is not 32 attempts).
      verdict = o.guard.verify(
        { address, username, tuple: [authorization!, clientId!, clientSecret!, companyId!] },
        async () => {
          const v = await o.identity.verify(username, password, clientId!, clientSecret!, companyId!);
          const outcome = v === 'unauthorized' ? 'failed' : 'ok';
          authVerifications.inc({ result: outcome });
          return { value: v, outcome };
        },
      );
      cache.set(key, verdict);
      verdict.then(
        // A verdict is kept at most 5 s when it is a refusal, the full lifetime when it is a principal.
        (v) => typeof v === 'string' && cache.set(key, verdict!, { ttl: Math.min(o.cacheTtlMs, 5000) || 1 }),
        // A refusal (429) or an error is not kept: the next call tries again.
        () => cache.delete(key),
      );
    }
    const v = await verdict.catch(async (e: unknown) => {
      // Over its budget: answered later rather than faster, so a keep-alive flood sends far fewer requests.
      if (o.tarpit && e instanceof AppError && e.kind === ErrorKind.too_many && address)
        await o.tarpit.hold(address, e.retryAfterSeconds ?? 1);
      throw e;
    });
    if (v === 'unauthorized') throw unauthorized('wrong credentials');
    if (v === 'forbidden')
      throw new AppError(ErrorKind.forbidden, ErrorCode.Forbidden, 'no access to this company');
    c.set('principal', v);
    await next();
  };
}
