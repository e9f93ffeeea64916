/**
 * A NATS request/reply contract: the subject and its zod request and reply schemas, defined once and
 * imported by the gateway and the owning service (CONVENTIONS "A contract is defined once").
 */
import type { z } from '@hono/zod-openapi';

export interface Contract<Req extends z.ZodType = z.ZodType, Rep extends z.ZodType = z.ZodType> {
  /** `<service>.<resource>.<verb>`, e.g. `warehouse.items.create`. */
  readonly subject: string;
  readonly request: Req;
  readonly reply: Rep;
}

/** Declares a contract; the identity function that keeps the literal types. */
export function defineContract<Req extends z.ZodType, Rep extends z.ZodType>(
  c: Contract<Req, Rep>,
): Contract<Req, Rep> {
  return Object.freeze(c);
}

/** The parsed request type of a contract. */
export type RequestOf<C extends Contract> = z.output<C['request']>;
/** The input (pre-parse) request type of a contract. */
export type RequestInputOf<C extends Contract> = z.input<C['request']>;
/** The reply type of a contract. */
export type ReplyOf<C extends Contract> = z.output<C['reply']>;

/** The four operations of a master-data resource (DESIGN §4). */
export interface CrudContracts<In extends z.ZodObject, Out extends z.ZodType> {
  list: Contract<z.ZodType, z.ZodType>;
  get: Contract<z.ZodType, Out>;
  create: Contract<In, Out>;
  update: Contract<z.ZodType, Out>;
  input: In;
  output: Out;
}

/**
 * Message headers every request and event carries (DESIGN §1 "Every message carries headers").
 */
export const Headers = {
  companyId: 'Company-Id',
  userId: 'User-Id',
  requestId: 'Request-Id',
  timeZone: 'Company-Time-Zone',
  instance: 'Service-Instance',
  /**
   * The time left for the request, in ms, when it was sent (issue #12): the receiver stops work and
   * stores nothing past it. Relative, so clocks of different hosts need not agree.
   */
  timeoutMs: 'Timeout-Ms',
  /**
   * W3C trace context (issue #25 "Traces"): `00-<trace id>-<span id>-<flags>`, present while tracing is on.
   * Requests carry the sender's span; events carry the span of the request that wrote them.
   */
  traceparent: 'traceparent',
  /**
   * On a request (and its reply) that carries several requests to one subject as frames (issue #24
   * "fewer messages per document"): how many. Absent on a lone request.
   */
  batchSize: 'Batch-Size',
} as const;

/** The W3C trace-context header on NATS requests and JetStream events (issue #25). */
export const TRACEPARENT_HEADER = Headers.traceparent;
