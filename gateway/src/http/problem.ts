/**
 * RFC 9457 problem responses (DESIGN §2 "Errors"): `type`, `title`, `status`, `detail`, `code`,
 * `errors: [{path, message}]` and extension members, as JSON or XML. The one table from error kind to
 * HTTP status is `statusOfKind` of `@bm/errors`.
 */

import { problemExtensions } from '@bm/contracts';
import { type AppError, statusOfKind } from '@bm/errors';
import type { Context } from 'hono';
import { toXml } from './codec.js';
import type { Format } from './negotiate.js';
import { renderOutput } from './schema-walk.js';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The problem document of an error. */
export function problemBody(
  e: AppError,
  status = statusOfKind[e.kind],
  instance?: string,
  format: Format = 'json',
) {
  return {
    type: `urn:problem-type:${e.code}`,
    title: titles[status] ?? 'Error',
    status,
    detail: e.message,
    code: e.code,
    ...(instance ? { instance } : {}),
    ...(e.errors ? { errors: e.errors } : {}),
    ...(e.extensions ? (renderOutput(problemExtensions[e.code], e.extensions, format) as object) : {}),
  };
}

/** Sends an AppError as a problem response in the negotiated format (JSON when none was agreed). */
export function sendProblem(
  c: Context,
  e: AppError,
  format: Format | null = 'json',
  status = statusOfKind[e.kind],
): Response {
  const body = problemBody(e, status, c.req.path, format === 'xml' ? 'xml' : 'json');
  const headers: Record<string, string> = {};
  if (status === 401) headers['WWW-Authenticate'] = 'Basic realm="1.6", charset="UTF-8"';
  if (e.retryAfterSeconds !== undefined)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(e.retryAfterSeconds)));
  if (format === 'xml') {
    headers['Content-Type'] = 'application/problem+xml; charset=utf-8';
    return c.body(toXml('problem', body), status as any, headers);
  }
  headers['Content-Type'] = 'application/problem+json; charset=utf-8';
  return c.body(JSON.stringify(body), status as any, headers);
}
