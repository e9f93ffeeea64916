/**
 * Authentication and tenancy of `/1.6` (INTERFACE §5, DESIGN §2 "Auth failure", §3): Basic user
 * credentials, `ClientID`, `ClientSecret` and `CompanyID` are all required. Missing or wrong → 401 with
 * `WWW-Authenticate: Basic`; valid but without access to the company → 403. A verified tuple is cached
 * (keyed by a SHA-256 of the four values) so the slow hash does not run on every request.
 */
import { createHash } from 'node:crypto';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import type { IdentityService, Principal } from '../identity/identity.service.js';

export type AuthVariables = { principal: Principal };

export interface AuthOptions {
  identity: Pick<IdentityService, 'verify'>;
  /** Lifetime of a cached successful verification, ms (failures: at most 5 s). */
  cacheTtlMs: number;
}

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
    if (!verdict) {
      verdict = o.identity.verify(username, password, clientId!, clientSecret!, companyId!);
      cache.set(key, verdict);
      verdict.then(
        (v) => typeof v === 'string' && cache.set(key, verdict!, { ttl: Math.min(o.cacheTtlMs, 5000) || 1 }),
        () => cache.delete(key),
      );
    }
    const v = await verdict;
    if (v === 'unauthorized') throw unauthorized('wrong credentials');
    if (v === 'forbidden')
      throw new AppError(ErrorKind.forbidden, ErrorCode.Forbidden, 'no access to this company');
    c.set('principal', v);
    await next();
  };
}
