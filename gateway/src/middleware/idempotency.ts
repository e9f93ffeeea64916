/**
 * `Idempotency-Key` on the creating POSTs of `/1.6` (issue #12 "Idempotent creates", after the IETF
 * httpapi draft): the first request with a key runs; a repeat with the same key and the same request
 * (method, path with query, body) within 24 h gets the stored answer (header `Idempotent-Replayed: true`)
 * without running again; the same key with another request is 422 `IdempotencyKeyReused`; a repeat while
 * the first is still running is 409 `Conflict` with `Retry-After`.
 *
 * Only 2xx answers are stored. Any other answer means nothing was stored, so the key is released and a
 * retry runs again, except a 504 whose outcome is unknown (no answer from the service): the key then
 * stays locked for the lease, after which the service has abandoned the work at its deadline.
 */
import { createHash } from 'node:crypto';
import { AppError, ErrorCode, ErrorKind, validationFailed } from '@bm/errors';
import type { Logger } from '@bm/logger';
import type { MiddlewareHandler } from 'hono';
import type { IdempotencyStore } from '../identity/idempotency.store.js';
import type { GatewayEnv } from '../routes/operation.js';

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** How long a running request keeps its key locked, ms (covers the request's deadline and a grace). */
  leaseMs: number;
  log: Logger;
}

/** An sf-string (`"…"`) or a bare token of 1–255 visible ASCII characters. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** Reads the key; a present but unusable header is 400 naming it. */
function parseKey(raw: string): string {
  const t = raw.trim();
  const key = t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
  if (!KEY.test(key) || key.includes('"'))
    throw validationFailed([
      { path: 'Idempotency-Key', message: 'expected 1 to 255 visible ASCII characters, e.g. a UUID' },
    ]);
  return key;
}

/** Creates the middleware; put it after authentication on POST operations. */
export function idempotency(o: IdempotencyOptions): MiddlewareHandler<GatewayEnv> {
  return async function idempotencyMiddleware(c, next) {
    const raw = c.req.header('idempotency-key');
    if (raw === undefined) return next();
    const key = parseKey(raw);
    const { companyId } = c.get('principal');
    const url = new URL(c.req.url);
    const fingerprint = createHash('sha256')
      .update(`${c.req.method}\u0000${url.pathname}${url.search}\u0000`)
      .update(await c.req.text())
      .digest('hex');
    const claim = await o.store.claim(companyId, key, fingerprint, o.leaseMs);
    if (claim.kind === 'mismatch')
      throw new AppError(
        ErrorKind.unprocessable,
        ErrorCode.IdempotencyKeyReused,
        'this Idempotency-Key was used with another request (method, path or body); use a new key for a new request',
        { errors: [{ path: 'Idempotency-Key', message: 'already used with another request' }] },
      );
    if (claim.kind === 'in-flight')
      throw new AppError(
        ErrorKind.conflict,
        ErrorCode.Conflict,
        'a request with this Idempotency-Key is still being processed; retry after it has been answered',
        { retryAfterSeconds: claim.retryAfterSeconds },
      );
    if (claim.kind === 'done') {
      const headers: Record<string, string> = { 'Idempotent-Replayed': 'true' };
      if (claim.answer.contentType) headers['Content-Type'] = claim.answer.contentType;
      return c.body(claim.answer.body, claim.answer.status as 200, headers);
    }
    let settled = false;
    try {
      await next();
      const status = c.res.status;
      if (status >= 200 && status < 300) {
        // Stored: the key must never be released now, even if saving the answer fails.
        settled = true;
        await o.store
          .complete(companyId, key, {
            status,
            contentType: c.res.headers.get('content-type'),
            body: await c.res.clone().text(),
          })
          .catch((e: Error) =>
            o.log.error(
              { err: e.message },
              'idempotency: the answer could not be kept; the key stays locked',
            ),
          );
      } else if (c.error instanceof AppError && c.error.outcomeUnknown) {
        settled = true; // stays locked for the lease: see the module comment
      }
    } finally {
      if (!settled)
        await o.store.release(companyId, key).catch((e: Error) => {
          o.log.warn(
            { err: e.message },
            'idempotency: releasing a key failed; it frees itself when its lease ends',
          );
        });
    }
  };
}
