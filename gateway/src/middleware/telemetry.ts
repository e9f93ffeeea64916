/**
 * Metrics and traces of every HTTP request (issue #25; docs/operations.md "Metrics", "Traces"): one
 * observation of `http_server_request_duration_seconds{http_request_method, http_route,
 * http_response_status_code}` by route template (never the raw path: ids would make a series each), and
 * one server span that continues a caller's W3C `traceparent`; the NATS requests made while it runs are its
 * children, and the service's spans theirs.
 */
import { extractTrace, httpServerDuration, inSpan, SpanKind } from '@bm/telemetry';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';

/** Creates the middleware; install it first, so that it sees every answer, refusals included. */
export function telemetry(): MiddlewareHandler {
  return async function telemetryMiddleware(c, next) {
    const method = c.req.method;
    const end = httpServerDuration.startTimer();
    await inSpan(
      'gateway',
      method,
      {
        kind: SpanKind.SERVER,
        parent: extractTrace(c.req.raw.headers),
        attributes: { 'http.request.method': method, 'url.path': c.req.path },
      },
      async (span) => {
        await next();
        const route = routeOf(c);
        const status = c.res.status;
        span.updateName(`${method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
        end({ http_request_method: method, http_route: route, http_response_status_code: String(status) });
      },
    );
  };
}

/**
 * The template of the operation the request matched (`/1.6/issue-cards/:id`), or `unmatched` when only
 * the catch-all middlewares matched (a 404): the path itself would be unbounded.
 */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const path = routePath(c, -1);
  return !path || path === '*' || path === '/*' ? 'unmatched' : path;
}
