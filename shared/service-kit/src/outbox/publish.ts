/**
 * Publishing one round of claimed events to JetStream (DESIGN §1 "Events"; issues #12, #14, #24, #25):
 * each with its company, schema version and trace headers, the event id as `Nats-Msg-Id`, a payload above
 * the server's limit through the `events` object store; all sent in one turn of the event loop before any
 * acknowledgement is awaited.
 */
import { EVENT_VERSION_HEADER, eventVersionOf, Headers, TRACEPARENT_HEADER } from '@bm/contracts';
import type { Logger } from '@bm/logger';
import { LARGE_EVENT_BUCKET, outgoing } from '@bm/messaging';
import type { JetStreamClient } from '@nats-io/jetstream';
import { type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import type { OutboxRow } from './claims.js';
import { isLinkFailure } from './stream.js';

const enc = new TextEncoder();

/** What became of a round's events. */
export interface RoundOutcome {
  /** Acknowledged by the stream. */
  done: string[];
  /** Refused one by one (counted, released). */
  failed: { id: string; error: string }[];
  /** NATS could not be reached: the events after the first such failure were not handled. */
  unreachable: boolean;
}

/** A row's headers and encoded payload (or why it could not be encoded). */
async function prepare(nc: NatsConnection, r: OutboxRow) {
  const h = natsHeaders();
  h.set(Headers.companyId, r.company_id);
  // The payload's schema version (issue #14); every event in the catalogue has one.
  h.set(EVENT_VERSION_HEADER, String(eventVersionOf(r.subject) ?? 1));
  // The writing request's trace continues in the consumers (issue #25).
  if (r.trace_parent) h.set(TRACEPARENT_HEADER, r.trace_parent);
  try {
    // An event above the server's message limit travels through the `events` object store, under its
    // own id, so a retried publish overwrites rather than duplicates it.
    const data = await outgoing(nc, enc.encode(JSON.stringify(r.payload)), h, LARGE_EVENT_BUCKET, r.id);
    return { row: r, headers: h, data };
  } catch (error) {
    return { row: r, headers: h, error };
  }
}

/** `p` itself, marked as handled: its outcome is read later, after other awaits (no "unhandled rejection"). */
function settledLater<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * Publishes `rows` in their order (the stream keeps it; one socket write and one wake-up for the round,
 * issue #24) and sorts the acknowledgements: done, refused (logged, the round goes on), or unreachable
 * (the round ends; the rest go again).
 */
export async function publishRound(
  nc: NatsConnection,
  js: JetStreamClient,
  rows: OutboxRow[],
  log: Logger,
): Promise<RoundOutcome> {
  const prepared = [];
  for (const r of rows) prepared.push(await prepare(nc, r));
  const acks = prepared.map((p) =>
    settledLater(
      p.data
        ? js.publish(p.row.subject, p.data, { msgID: p.row.id, headers: p.headers })
        : Promise.reject(p.error),
    ),
  );
  const outcomes = await Promise.allSettled(acks);
  const out: RoundOutcome = { done: [], failed: [], unreachable: false };
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const o = outcomes[i];
    if (o.status === 'fulfilled') {
      out.done.push(r.id);
      continue;
    }
    const e = o.reason as Error;
    if (isLinkFailure(e)) {
      log.warn(
        { err: e.message, pending: rows.length - out.done.length },
        'outbox: publish failed; will retry',
      );
      out.unreachable = true;
      break;
    }
    log.error({ err: e.message, id: r.id, subject: r.subject }, 'outbox: event refused');
    out.failed.push({ id: r.id, error: String(e.message).slice(0, 1000) });
  }
  return out;
}
