/**
 * The request body limit (`BODY_LIMIT_BYTES`, 413 above it). A body with a `Content-Length` (and no
 * `Transfer-Encoding`) is judged by that header alone: Node's HTTP parser delivers exactly that many
 * bytes, so the body is then read once, straight from the socket, by `c.req.text()`. Hono's `bodyLimit`
 * reads `c.req.raw.body`, which builds a full web `Request` and stream for every request, GETs included
 * (issue #24: 5 % of the gateway's CPU per invoice); it still counts a chunked body as it arrives.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit as streamingBodyLimit } from 'hono/body-limit';

/**
 * Creates the middleware: `onTooLarge` runs (and must throw or answer) when the body is longer than
 * `maxSize` bytes.
 */
export function bodyLimit(maxSize: number, onTooLarge: () => never): MiddlewareHandler {
  const streaming = streamingBodyLimit({ maxSize, onError: onTooLarge });
  return async function bodyLimitMiddleware(c, next) {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(length) > maxSize) onTooLarge();
      return next();
    }
    return streaming(c, next);
  };
}
