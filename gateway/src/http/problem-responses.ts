/**
 * The problem answers of the published OpenAPI document (DESIGN §2 "Errors", issue #22): every status the
 * gateway can answer with a problem, in both media types `sendProblem` writes, with the headers it sends.
 */

/**
 * A problem answer is JSON or XML, as the request's `Accept` chose (DESIGN §2 "Errors",
 * `sendProblem`): both media types are documented for every problem status (issue #22).
 */
const problemContent = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
  'application/problem+xml': { schema: { $ref: '#/components/schemas/Problem' } },
} as any;
const retryAfter = (required: boolean) => ({
  'Retry-After': {
    description: 'Seconds to wait before trying again (RFC 9110 §10.2.3)',
    required,
    schema: { type: 'integer' as const, minimum: 1 },
  },
});
/**
 * The problem responses every authenticated operation can give, with the headers the gateway sends
 * with them: `WWW-Authenticate` on 401, `Retry-After` on 429 (always), 503 and 409 (when it applies).
 */
export const problemResponses = {
  400: { description: 'ValidationFailed or BadRequest', content: problemContent },
  401: {
    description: 'Unauthorized (missing or wrong credentials)',
    headers: {
      'WWW-Authenticate': {
        description: 'The Basic challenge',
        required: true,
        schema: { type: 'string' as const, example: 'Basic realm="1.6", charset="UTF-8"' },
      },
    },
    content: problemContent,
  },
  403: {
    description: 'Forbidden (no access to the CompanyID, or a CompanyID that is not a GUID)',
    content: problemContent,
  },
  404: { description: 'NotFound', content: problemContent },
  406: { description: 'NotAcceptable', content: problemContent },
  409: {
    description:
      'Conflict, DuplicateRecordNumber, InvalidState, or an Idempotency-Key still in flight (then with Retry-After)',
    headers: retryAfter(false),
    content: problemContent,
  },
  413: { description: 'The request body is larger than the limit', content: problemContent },
  422: {
    description: 'Business rule refused the request, or IdempotencyKeyReused',
    content: problemContent,
  },
  429: {
    description:
      'TooManyRequests: authentication attempts limited per client address and per (username, address); see Retry-After',
    headers: retryAfter(true),
    content: problemContent,
  },
  503: {
    description:
      'ServiceUnavailable (a service or the message bus is down, or a limit such as printouts in progress)',
    headers: retryAfter(false),
    content: problemContent,
  },
  504: { description: 'Timeout', content: problemContent },
};
