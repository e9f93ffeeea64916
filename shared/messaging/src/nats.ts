/**
 * NATS request/reply on top of the shared contracts (CONVENTIONS "A contract is defined once"): the client
 * side and what both sides share (contexts from headers, validation, error mapping). The service side,
 * `serve`, is serve.ts.
 *
 * - {@link request} sends a typed request and returns the reply or throws the rebuilt {@link AppError};
 *   no responder → 503 `ServiceUnavailable`, no reply in time → 504 `Timeout`. With `coalesce`, requests
 *   to one subject of one turn of the event loop travel as one message (batch.ts).
 */

import type { Contract, ReplyOf, RequestInputOf, RequestOf } from '@bm/contracts';
import { Headers } from '@bm/contracts';
import {
  AppError,
  ErrorCode,
  ErrorKind,
  isAppError,
  unavailable,
  validationFailed,
  type WireError,
} from '@bm/errors';
import { injectTrace, inSpan, messagingClientDuration, SpanKind, timed } from '@bm/telemetry';
import {
  type MsgHdrs,
  type NatsConnection,
  errors as natsErrors,
  headers as natsHeaders,
} from '@nats-io/transport-node';
import { ZodError, type z } from 'zod';
import { coalescedRequest } from './batch.js';
import type { RequestContext } from './context.js';
import { incoming, outgoing } from './large-payload.js';

export type { NatsConnection } from '@nats-io/transport-node';
export { connect } from '@nats-io/transport-node';

/** Connections whose link to the server is down at the moment (between `disconnect` and `reconnect`). */
const linkDown = new WeakSet<NatsConnection>();
const watched = new WeakSet<NatsConnection>();

/**
 * Follows a connection's status events so that {@link isLinkDown} knows, without I/O, whether the server
 * is reachable now. Idempotent; {@link request} calls it on first use.
 */
export function watchLink(nc: NatsConnection): void {
  if (watched.has(nc)) return;
  watched.add(nc);
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') linkDown.add(nc);
      else if (s.type === 'reconnect') linkDown.delete(nc);
    }
  })().catch(() => undefined);
}

/** True while the connection is closed or between a disconnect and the next reconnect (issue #12 "Fail fast"). */
export const isLinkDown = (nc: NatsConnection): boolean => nc.isClosed() || linkDown.has(nc);

const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * Converts a ZodError to field errors with dotted paths. Given the parsed `input`, a field that is
 * absent where a value is required reads "required" instead of the type it expected.
 */
export function zodFieldErrors(
  e: ZodError,
  prefix = '',
  input?: unknown,
): { path: string; message: string }[] {
  const absent = (path: PropertyKey[]) => {
    let node: unknown = input;
    for (const k of path) {
      if (node === null || typeof node !== 'object') return false;
      node = (node as Record<PropertyKey, unknown>)[k];
    }
    return node === undefined;
  };
  return e.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(body)',
    message:
      input !== undefined && i.code === 'invalid_type' && i.path.length && absent(i.path)
        ? 'required'
        : i.message,
  }));
}

/** Parses `value` with a schema, throwing 400 ValidationFailed that names each bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationFailed(zodFieldErrors(r.error, prefix, value));
  return r.data;
}

/**
 * Time a receiver keeps for its reply to travel back: a service's deadline is this much earlier than the
 * moment its caller gives up, so "ran past the deadline, nothing stored" reaches the caller in time.
 */
export const REPLY_MARGIN_MS = 250;

/** What is read of a message's headers: NATS headers, or a batch frame's (`get` gives '' when absent). */
export interface HeaderReader {
  get(name: string): string;
}

/** Reads the request context from message headers; `Timeout-Ms` becomes an absolute `deadline`. */
export function contextFromHeaders(h: HeaderReader | undefined): RequestContext {
  const budget = Number(h?.get(Headers.timeoutMs));
  return {
    companyId: h?.get(Headers.companyId) || undefined,
    userId: h?.get(Headers.userId) || undefined,
    requestId: h?.get(Headers.requestId) || crypto.randomUUID(),
    timeZone: h?.get(Headers.timeZone) || 'Europe/Bratislava',
    ...(Number.isFinite(budget) && budget > 0 ? { deadline: Date.now() + budget } : {}),
  };
}

/**
 * Builds NATS headers from a request context. `timeoutMs` (how long the sender will wait) becomes the
 * receiver's budget `Timeout-Ms`, {@link REPLY_MARGIN_MS} shorter.
 */
export function headersFromContext(ctx: Partial<RequestContext>, timeoutMs?: number): MsgHdrs {
  const h = natsHeaders();
  if (ctx.companyId) h.set(Headers.companyId, ctx.companyId);
  if (ctx.userId) h.set(Headers.userId, ctx.userId);
  h.set(Headers.requestId, ctx.requestId ?? crypto.randomUUID());
  if (ctx.timeZone) h.set(Headers.timeZone, ctx.timeZone);
  if (timeoutMs !== undefined)
    h.set(Headers.timeoutMs, String(Math.max(Math.round(timeoutMs - REPLY_MARGIN_MS), 50)));
  return h;
}

/** Maps any thrown value to an AppError; unknown errors become `internal` (logged by the caller). */
export function toAppError(e: unknown): AppError {
  if (isAppError(e)) return e;
  if (e instanceof ZodError) return validationFailed(zodFieldErrors(e));
  return new AppError(ErrorKind.internal, ErrorCode.InternalError, 'internal error', { cause: e });
}

export interface RequestOptions {
  /** Reply timeout in ms (default 5000). */
  timeoutMs?: number;
  /**
   * Send together with the other requests to the same subject of this turn of the event loop, as one
   * message (batch.ts; issue #24). For requests whose order among themselves does not matter.
   */
  coalesce?: boolean;
}

/**
 * Sends a typed request and returns the reply.
 * @throws AppError rebuilt from the service's error reply; `unavailable`/ServiceUnavailable when nothing
 *   listens on the subject; `timeout`/Timeout when no reply comes within `timeoutMs`.
 */
export async function request<C extends Contract>(
  nc: NatsConnection,
  contract: C,
  body: RequestInputOf<C> | RequestOf<C>,
  ctx: Partial<RequestContext>,
  opts: RequestOptions = {},
): Promise<ReplyOf<C> & { readonly __instance?: string }> {
  const r = await requestRaw(nc, contract.subject, enc.encode(JSON.stringify(body)), ctx, opts);
  return JSON.parse(dec.decode(r.data));
}

/**
 * Checks made before every request leaves this process; each throws to refuse the request. service-kit
 * installs "no request inside an open database transaction" (docs/architecture.md, issue #22).
 */
const requestGuards: ((subject: string) => void)[] = [];

/** Adds a check run before every {@link request} (once per distinct function). */
export function guardRequests(guard: (subject: string) => void): void {
  if (!requestGuards.includes(guard)) requestGuards.push(guard);
}

/**
 * Like {@link request} but with raw bytes; returns the reply data and headers. Runs in a client span whose
 * `traceparent` goes in the request headers, and is counted in
 * `messaging_client_operation_duration_seconds` by subject and outcome (issue #25).
 */
export function requestRaw(
  nc: NatsConnection,
  subject: string,
  data: Uint8Array,
  ctx: Partial<RequestContext>,
  opts: RequestOptions = {},
): Promise<{ data: Uint8Array; headers?: MsgHdrs }> {
  return timed(
    messagingClientDuration,
    () =>
      inSpan(
        'messaging',
        `send ${subject}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
        },
        () => sendRequest(nc, subject, data, ctx, opts),
      ),
    (e) => ({
      messaging_destination_name: subject,
      outcome: e === undefined ? 'ok' : ((e as AppError).code ?? ErrorCode.InternalError),
    }),
  );
}

async function sendRequest(
  nc: NatsConnection,
  subject: string,
  data: Uint8Array,
  ctx: Partial<RequestContext>,
  opts: RequestOptions = {},
): Promise<{ data: Uint8Array; headers?: MsgHdrs }> {
  let m: { data: Uint8Array; headers?: MsgHdrs };
  for (const guard of requestGuards) guard(subject);
  watchLink(nc);
  // While the message bus is unreachable a request would only wait for its timeout: answer at once.
  if (isLinkDown(nc))
    throw unavailable('the message bus is unreachable at the moment; nothing was done, retry shortly', 2);
  // A request made while serving another one gets no more time than that one has left.
  let timeout = opts.timeoutMs ?? 5000;
  if (ctx.deadline !== undefined) timeout = Math.min(timeout, ctx.deadline - Date.now());
  if (timeout <= 0) throw deadlinePassed(subject);
  const headers = headersFromContext(ctx, timeout);
  injectTrace(headers);
  try {
    const payload = await outgoing(nc, data, headers);
    m = opts.coalesce
      ? await coalescedRequest(nc, subject, payload, headers, timeout)
      : await nc.request(subject, payload, { timeout, headers });
  } catch (e) {
    throw mapRequestError(e, subject);
  }
  const code = m.headers?.get('Nats-Service-Error-Code');
  if (code) {
    let wire: WireError;
    try {
      wire = JSON.parse(dec.decode(m.data));
    } catch {
      wire = {
        kind: 'internal',
        code: m.headers?.get('Nats-Service-Error') || ErrorCode.InternalError,
        detail: 'service error',
      };
    }
    throw AppError.fromWire(wire);
  }
  return { data: await incoming(nc, m.data, m.headers), headers: m.headers };
}

function mapRequestError(e: unknown, subject: string): AppError {
  const noResponders =
    e instanceof natsErrors.NoRespondersError ||
    (e instanceof natsErrors.RequestError && e.isNoResponders()) ||
    (e as Error)?.cause instanceof natsErrors.NoRespondersError;
  if (noResponders) {
    return unavailable(`no service answers ${subject}; try again shortly`, 1);
  }
  if (e instanceof natsErrors.TimeoutError || (e as Error)?.cause instanceof natsErrors.TimeoutError) {
    return new AppError(
      ErrorKind.timeout,
      ErrorCode.Timeout,
      `no reply from ${subject} in time: the outcome is unknown (the service stops work at its deadline, so the request is normally not stored); a retry with the same Idempotency-Key is safe`,
      { outcomeUnknown: true },
    );
  }
  if (e instanceof natsErrors.ClosedConnectionError || e instanceof natsErrors.DrainingConnectionError) {
    return unavailable('message bus connection is closed', 2);
  }
  return new AppError(ErrorKind.unavailable, ErrorCode.ServiceUnavailable, `request to ${subject} failed`, {
    cause: e,
  });
}

/**
 * 504 Timeout raised by the receiver itself when its deadline passed before it committed: nothing was
 * stored (issue #12), so a retry is safe with or without an Idempotency-Key.
 */
export function deadlinePassed(what: string): AppError {
  return new AppError(
    ErrorKind.timeout,
    ErrorCode.Timeout,
    `${what} ran past the request's deadline and was abandoned: nothing was stored; retry the request`,
  );
}
