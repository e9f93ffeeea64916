/**
 * Request id on every request (issue #3): taken from `X-Request-Id` when it is a sane token, else a new
 * UUID; echoed on the response and put on every NATS message of the request.
 */
import type { MiddlewareHandler } from 'hono';

export type RequestIdVariables = { requestId: string };

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Creates the request-id middleware. */
export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async function requestIdMiddleware(c, next) {
    const given = c.req.header('x-request-id');
    const id = given && SANE.test(given) ? given : crypto.randomUUID();
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
  };
}
