/**
 * Request coalescing (issue #24 "fewer messages per document"): requests to one subject that a process
 * sends within one turn of its event loop travel as ONE NATS message, and their replies as one reply.
 * Under load the gateway thus pays one NATS request, the server two deliveries and the service one reply
 * for several documents, where each document paid them alone; a lone request goes as before, unchanged.
 *
 * Wire (docs/asyncapi.yaml, header `Batch-Size`): the body is a sequence of frames, one per request (in
 * the reply: one per request, same order), each `u32 header length, header JSON, u32 body length, body`
 * (lengths big-endian). A frame's headers are the ones the request (or reply) would carry alone, so a
 * frame's error is its `Nats-Service-Error-Code` / `Nats-Service-Error` and its body the WireError; a
 * refusal of the whole message (no frames) refuses every request in it.
 */

import { Headers } from '@bm/contracts';
import { type Msg, type MsgHdrs, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { incoming, outgoing } from './large-payload.js';

/** One request or reply inside a batch: its headers by name and its body. */
export interface Frame {
  headers: Record<string, string>;
  data: Uint8Array;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Encodes frames as one body (see the module comment for the layout). */
export function encodeFrames(frames: readonly Frame[]): Uint8Array {
  const heads = frames.map((f) => enc.encode(JSON.stringify(f.headers)));
  let size = 0;
  for (let i = 0; i < frames.length; i++) size += 8 + heads[i].length + frames[i].data.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  for (let i = 0; i < frames.length; i++) {
    view.setUint32(at, heads[i].length);
    out.set(heads[i], at + 4);
    at += 4 + heads[i].length;
    view.setUint32(at, frames[i].data.length);
    out.set(frames[i].data, at + 4);
    at += 4 + frames[i].data.length;
  }
  return out;
}

/**
 * Decodes a body of frames.
 * @throws Error when the body is not a well-formed sequence of frames (lengths past its end, a header
 *   part that is not a JSON object of strings), or holds more than `expected` frames when given.
 */
export function decodeFrames(body: Uint8Array, expected?: number): Frame[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const frames: Frame[] = [];
  let at = 0;
  const slice = () => {
    if (at + 4 > body.length) throw new Error('batch: truncated frame');
    const n = view.getUint32(at);
    if (at + 4 + n > body.length) throw new Error('batch: frame longer than the message');
    const part = body.subarray(at + 4, at + 4 + n);
    at += 4 + n;
    return part;
  };
  while (at < body.length) {
    const headers = JSON.parse(dec.decode(slice()));
    if (!headers || typeof headers !== 'object' || Array.isArray(headers))
      throw new Error('batch: frame headers are not an object');
    for (const v of Object.values(headers))
      if (typeof v !== 'string') throw new Error('batch: a frame header value is not a string');
    frames.push({ headers, data: slice() });
    if (expected !== undefined && frames.length > expected) throw new Error('batch: more frames than sent');
  }
  return frames;
}

/** NATS headers as a plain object (the first value of each name). */
export function headersToRecord(h: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (h) for (const k of h.keys()) out[k] = h.get(k);
  return out;
}

/** A plain object of headers as NATS headers. */
export function recordToHeaders(r: Record<string, string>): MsgHdrs {
  const h = natsHeaders();
  for (const [k, v] of Object.entries(r)) h.set(k, v);
  return h;
}

/** What a coalesced request resolves to: the reply's body and headers, as a lone request's `Msg` has them. */
export interface CoalescedReply {
  data: Uint8Array;
  headers?: MsgHdrs;
}

interface Waiting {
  headers: MsgHdrs;
  data: Uint8Array;
  timeout: number;
  resolve: (r: CoalescedReply) => void;
  reject: (e: unknown) => void;
}

/** Requests waiting for the end of this turn, by connection and subject. */
const queues = new WeakMap<NatsConnection, Map<string, Waiting[]>>();

/** Requests sent and batches among them since start (for the benchmark's notes and tests). */
export const coalesceStats = { requests: 0, batches: 0, batched: 0 };

/**
 * Sends a request to `subject` together with the others sent to it in this turn of the event loop.
 * `headers` are the request's own (context, deadline, trace, large-payload object); `timeout` in ms.
 * Resolves to the reply's body and headers (an error reply too: the caller reads its
 * `Nats-Service-Error-Code`, as for a lone request).
 * @throws the connection's error for the message (no responders, timeout, closed connection), for every
 *   request of the batch alike; a batch the service refuses as a whole rejects each request with the
 *   refusal's reply.
 */
export function coalescedRequest(
  nc: NatsConnection,
  subject: string,
  data: Uint8Array,
  headers: MsgHdrs,
  timeout: number,
): Promise<CoalescedReply> {
  coalesceStats.requests++;
  let bySubject = queues.get(nc);
  if (!bySubject) {
    bySubject = new Map();
    queues.set(nc, bySubject);
  }
  let queue = bySubject.get(subject);
  if (!queue) {
    queue = [];
    bySubject.set(subject, queue);
    const q = queue;
    setImmediate(() => {
      bySubject.delete(subject);
      void send(nc, subject, q);
    });
  }
  return new Promise((resolve, reject) => {
    queue.push({ headers, data, timeout, resolve, reject });
  });
}

/** Sends the requests of one turn: alone as itself, several as one batch. */
async function send(nc: NatsConnection, subject: string, batch: Waiting[]): Promise<void> {
  if (batch.length === 1) {
    const [w] = batch;
    try {
      const m = await nc.request(subject, w.data, { timeout: w.timeout, headers: w.headers });
      w.resolve({ data: m.data, headers: m.headers });
    } catch (e) {
      w.reject(e);
    }
    return;
  }
  coalesceStats.batches++;
  coalesceStats.batched += batch.length;
  let reply: Msg;
  try {
    const h = natsHeaders();
    h.set(Headers.batchSize, String(batch.length));
    const body = await outgoing(
      nc,
      encodeFrames(batch.map((w) => ({ headers: headersToRecord(w.headers), data: w.data }))),
      h,
    );
    reply = await nc.request(subject, body, {
      timeout: Math.max(...batch.map((w) => w.timeout)),
      headers: h,
    });
  } catch (e) {
    for (const w of batch) w.reject(e);
    return;
  }
  if (reply.headers?.get('Nats-Service-Error-Code')) {
    // The batch as a whole was refused (e.g. a malformed message): each request gets that answer.
    for (const w of batch) w.resolve({ data: reply.data, headers: reply.headers });
    return;
  }
  let frames: Frame[];
  try {
    frames = decodeFrames(await incoming(nc, reply.data, reply.headers), batch.length);
    if (frames.length !== batch.length) throw new Error('batch: fewer replies than requests');
  } catch (e) {
    for (const w of batch) w.reject(e);
    return;
  }
  for (let i = 0; i < batch.length; i++)
    batch[i].resolve({ data: frames[i].data, headers: recordToHeaders(frames[i].headers) });
}
