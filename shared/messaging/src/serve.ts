/**
 * The service side of NATS request/reply (see nats.ts for the client side):
 * {@link serve} registers a contract as an endpoint of a NATS micro-service (queue group, so replicas
 * share load), decodes and validates each request before any logic runs, and replies with the JSON reply
 * or with an error: `Nats-Service-Error-Code` (HTTP-like status), `Nats-Service-Error` (the error code)
 * and the {@link WireError} as body. A message with `Batch-Size` carries several requests (batch.ts);
 * each is handled as it would be alone and answered in a frame of one reply.
 */

import type { Contract, ReplyOf, RequestOf } from '@bm/contracts';
import { Headers } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, statusOfKind } from '@bm/errors';
import type { Logger } from '@bm/logger';
import { extractTrace, inSpan, messagingProcessDuration, SpanKind, timed } from '@bm/telemetry';
import type { ServiceGroup, ServiceMsg } from '@nats-io/services';
import { type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { decodeFrames, encodeFrames, type Frame } from './batch.js';
import type { RequestContext } from './context.js';
import { incoming, outgoing } from './large-payload.js';
import { contextFromHeaders, type HeaderReader, parseOrThrow, toAppError } from './nats.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

export interface ServeOptions {
  log: Logger;
  /** The connection the service runs on: large payloads travel through its object store. */
  nc: NatsConnection;
  /** Instance id put on every reply (`Service-Instance`), to see which replica answered. */
  instance?: string;
  /** Called around the handler, e.g. to fork an EntityManager and run in its context. */
  wrap?: <T>(
    ctx: RequestContext,
    fn: (extra: Record<string, unknown>) => Promise<T>,
    subject?: string,
  ) => Promise<T>;
}

/**
 * Registers `handler` for a contract on a service (group). The request is validated with the contract's
 * schema first; a handler error is sent as a service error reply. A message without a reply subject is
 * ignored.
 */
export function serve<C extends Contract, X = Record<string, unknown>>(
  group: ServiceGroup,
  contract: C,
  handler: (req: RequestOf<C>, ctx: RequestContext & X & { log: Logger }) => Promise<ReplyOf<C>>,
  opts: ServeOptions,
): void {
  const name = contract.subject.replace(/\./g, '-');
  group.addEndpoint(name, {
    subject: contract.subject,
    handler: (err, msg) => {
      if (err) {
        opts.log.error({ err, subject: contract.subject }, 'endpoint failed');
        return;
      }
      if (msg.headers?.get(Headers.batchSize)) void handleBatch(msg, contract, handler as any, opts);
      else void handleMessage(msg, contract, handler as any, opts);
    },
  });
}

/**
 * Handles one request inside a server span that continues the sender's `traceparent`, and counts it in
 * `messaging_process_duration_seconds` by subject and outcome (issue #25).
 */
async function handleMessage(
  msg: ServiceMsg,
  contract: Contract,
  handler: (req: unknown, ctx: any) => Promise<unknown>,
  opts: ServeOptions,
): Promise<void> {
  const out = await processOne(msg.headers, msg.data, contract, handler, opts);
  const replyHeaders = natsHeaders();
  if (opts.instance) replyHeaders.set(Headers.instance, opts.instance);
  if (out.error) msg.respondError(out.error.status, out.error.code, out.data, { headers: replyHeaders });
  else msg.respond(await outgoing(opts.nc, out.data, replyHeaders), { headers: replyHeaders });
}

/**
 * Handles a batch of requests (header `Batch-Size`, frames: batch.ts): each frame as a lone request
 * would be (its own context, deadline, span, metric and outcome), all at once, then one reply with a
 * frame per request in the same order. A message that is not a well-formed batch is refused whole.
 */
async function handleBatch(
  msg: ServiceMsg,
  contract: Contract,
  handler: (req: unknown, ctx: any) => Promise<unknown>,
  opts: ServeOptions,
): Promise<void> {
  const replyHeaders = natsHeaders();
  if (opts.instance) replyHeaders.set(Headers.instance, opts.instance);
  let frames: Frame[];
  try {
    frames = decodeFrames(await incoming(opts.nc, msg.data, msg.headers));
  } catch (e) {
    const err = new AppError(
      ErrorKind.invalid,
      ErrorCode.BadRequest,
      `malformed batch: ${(e as Error).message}`,
    );
    msg.respondError(400, err.code, enc.encode(JSON.stringify(err.toWire())), { headers: replyHeaders });
    return;
  }
  const answer = async (f: Frame): Promise<Frame> => {
    const h = { get: (k: string) => f.headers[k] ?? '' };
    const out = await processOne(h, f.data, contract, handler, opts);
    const headers: Record<string, string> = opts.instance ? { [Headers.instance]: opts.instance } : {};
    if (out.error) {
      headers['Nats-Service-Error-Code'] = String(out.error.status);
      headers['Nats-Service-Error'] = out.error.code;
      return { headers, data: out.data };
    }
    try {
      // An offloaded reply marks the frame's own headers (Payload-Object).
      const data = await outgoing(opts.nc, out.data, {
        set: (k, v) => {
          headers[k] = v;
        },
      });
      return { headers, data };
    } catch (e) {
      // A reply too large for the message that could not be stored aside: the request was done, its
      // answer is lost. Its caller learns what a lone request's caller would (a 504, outcome unknown).
      opts.log.error({ err: e, subject: contract.subject }, 'batch: a reply could not be sent');
      const lost = new AppError(
        ErrorKind.timeout,
        ErrorCode.Timeout,
        `the reply of ${contract.subject} could not be sent: the outcome is unknown; a retry with the same Idempotency-Key is safe`,
        { outcomeUnknown: true },
      );
      headers['Nats-Service-Error-Code'] = String(statusOfKind[lost.kind]);
      headers['Nats-Service-Error'] = lost.code;
      return { headers, data: enc.encode(JSON.stringify(lost.toWire())) };
    }
  };
  // Every request of the message starts in this turn of the event loop, so they reach the group commit
  // together and share a group (issue #24). Starting them one per turn, so that the process answered its
  // I/O between them, made the later ones 3 ms late on average and cost about a tenth of the documents
  // per second once the preparation of a request had become cheap (docs/benchmarks.md "Fourth step").
  const pending = frames.map(answer);
  const replies = await Promise.all(pending);
  replyHeaders.set(Headers.batchSize, String(replies.length));
  try {
    msg.respond(await outgoing(opts.nc, encodeFrames(replies), replyHeaders), { headers: replyHeaders });
  } catch (e) {
    // The callers time out (504, outcome unknown), as after a lone request whose reply is lost.
    opts.log.error({ err: e, subject: contract.subject }, 'batch: the reply could not be sent');
  }
}

/** The outcome of one request: the reply's JSON, or an error's status, code and WireError JSON. */
interface Outcome {
  data: Uint8Array;
  error?: { status: number; code: string };
}

/** One request in its server span and metric (see {@link handleMessage}). */
function processOne(
  headers: HeaderReader | undefined,
  data: Uint8Array,
  contract: Contract,
  handler: (req: unknown, ctx: any) => Promise<unknown>,
  opts: ServeOptions,
): Promise<Outcome> {
  const subject = contract.subject;
  let outcome = 'ok';
  return timed(
    messagingProcessDuration,
    () =>
      inSpan(
        'messaging',
        `process ${subject}`,
        {
          kind: SpanKind.SERVER,
          parent: extractTrace(headers),
          attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
        },
        async (span) => {
          const out = await run(headers, data, contract, handler, opts);
          outcome = out.error?.code ?? 'ok';
          if (out.error) span.setAttribute('error.type', outcome);
          return out;
        },
      ),
    () => ({ messaging_destination_name: subject, outcome }),
  );
}

/** Decodes, validates and runs the handler; never throws: an error becomes the outcome's error. */
async function run(
  headers: HeaderReader | undefined,
  raw: Uint8Array,
  contract: Contract,
  handler: (req: unknown, ctx: any) => Promise<unknown>,
  opts: ServeOptions,
): Promise<Outcome> {
  const ctx = contextFromHeaders(headers);
  const log = opts.log.child({
    requestId: ctx.requestId,
    subject: contract.subject,
    companyId: ctx.companyId,
  });
  try {
    let body: unknown;
    const data = await incoming(opts.nc, raw, headers);
    try {
      body = data.length ? JSON.parse(dec.decode(data)) : {};
    } catch {
      throw new AppError(ErrorKind.invalid, ErrorCode.BadRequest, 'message body is not JSON');
    }
    const req = parseOrThrow(contract.request, body);
    const exec = (extra: Record<string, unknown>) => handler(req, { ...ctx, ...extra, log });
    const reply = opts.wrap ? await opts.wrap(ctx, exec, contract.subject) : await exec({});
    return { data: enc.encode(JSON.stringify(reply ?? null)) };
  } catch (e) {
    const appErr = toAppError(e);
    if (appErr.kind === 'internal') log.error({ err: e }, 'handler failed');
    else log.debug({ code: appErr.code }, 'request refused');
    return {
      data: enc.encode(JSON.stringify(appErr.toWire())),
      error: { status: statusOfKind[appErr.kind], code: appErr.code },
    };
  }
}
