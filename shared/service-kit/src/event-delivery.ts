/**
 * Handling of one JetStream event delivery by a service's durable consumer (issue #12 "Events"):
 * - the payload is read inline or from the `events` object store (large events);
 * - a handled event is acked; a failed one is redelivered with a growing delay;
 * - a poison event (not JSON, not the contract's shape) or one that failed {@link MAX_DELIVER} times is
 *   copied to the service's dead-letter subject `events.<service>.dead-letter` (in the EVENTS stream,
 *   with the original subject, sequence, consumer and reason as headers) and terminated, so it is never
 *   redelivered for ever. Operators inspect and replay dead letters by hand (docs/operations.md).
 */
import { DeadLetterHeaders, deadLetterSubject, EVENT_VERSION_HEADER, eventVersionOf } from '@bm/contracts';
import type { Logger } from '@bm/logger';
import { incoming } from '@bm/messaging';
import { consumerRedeliveries, extractTrace, inSpan, SpanKind } from '@bm/telemetry';
import { type JsMsg, jetstream } from '@nats-io/jetstream';
import { type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { ZodError } from 'zod';

/** Deliveries of one event before it goes to the dead-letter subject (the consumers' `max_deliver`). */
export const MAX_DELIVER = 5;

// The dead-letter subject and headers are part of the published contract (AsyncAPI document, issue #14).
export { DeadLetterHeaders, deadLetterSubject };

const dec = new TextDecoder();

export interface DeliveryDeps {
  nc: NatsConnection;
  log: Logger;
  /** The consuming service (its dead-letter subject). */
  service: string;
  /** The durable consumer's name. */
  consumer: string;
}

/** Copies `m` to the service's dead-letter subject; resolves once JetStream stored it. */
async function deadLetter(d: DeliveryDeps, m: JsMsg, reason: string): Promise<void> {
  const h = natsHeaders();
  m.headers?.keys().forEach((k) => {
    if (!k.startsWith('Nats-')) h.set(k, m.headers!.get(k));
  });
  h.set(DeadLetterHeaders.subject, m.subject);
  h.set(DeadLetterHeaders.streamSequence, String(m.seq));
  h.set(DeadLetterHeaders.consumer, d.consumer);
  h.set(DeadLetterHeaders.reason, reason.slice(0, 500));
  h.set(DeadLetterHeaders.deliveries, String(m.info.deliveryCount));
  await jetstream(d.nc, { timeout: 2000 }).publish(deadLetterSubject(d.service), m.data, {
    headers: h,
    msgID: `dead-letter-${d.consumer}-${m.seq}`,
  });
}

/** A failure that no redelivery can cure: the event's own content is wrong. */
const isPoison = (e: unknown) =>
  e instanceof ZodError || e instanceof SyntaxError || e instanceof UnknownEventVersion;

/** An event whose `Event-Version` is newer than the consumer's contract. */
class UnknownEventVersion extends Error {}

/**
 * Handles one delivery with `handle` (which must be idempotent: a delivery can repeat). Never throws.
 */
export function processDelivery(
  d: DeliveryDeps,
  m: JsMsg,
  handle: (payload: unknown) => Promise<unknown>,
): Promise<void> {
  // A redelivery is a metric (issue #25); the handling continues the writer's trace (`traceparent`).
  if (m.info.deliveryCount > 1) consumerRedeliveries.inc({ consumer: d.consumer });
  return inSpan(
    'events',
    `process ${m.subject}`,
    {
      kind: SpanKind.CONSUMER,
      parent: extractTrace(m.headers),
      attributes: {
        'messaging.system': 'nats',
        'messaging.destination.name': m.subject,
        'messaging.consumer.group.name': d.consumer,
      },
    },
    () => deliver(d, m, handle),
  );
}

async function deliver(
  d: DeliveryDeps,
  m: JsMsg,
  handle: (payload: unknown) => Promise<unknown>,
): Promise<void> {
  try {
    // An event of a newer major version than this code knows would be misread: it waits as a dead letter
    // until the consumer is upgraded (docs/decisions.md "Event versions").
    const version = Number(m.headers?.get(EVENT_VERSION_HEADER) || 1);
    const known = eventVersionOf(m.subject) ?? 1;
    if (version > known) throw new UnknownEventVersion(`event version ${version} is newer than ${known}`);
    const data = await incoming(d.nc, m.data, m.headers);
    await handle(JSON.parse(dec.decode(data)));
    m.ack();
  } catch (e) {
    const reason =
      e instanceof ZodError ? `not a valid event: ${e.issues[0]?.message}` : String((e as Error).message);
    const last = isPoison(e) || m.info.deliveryCount >= MAX_DELIVER;
    if (!last) {
      d.log.warn(
        { err: reason, seq: m.seq, deliveries: m.info.deliveryCount },
        'event handling failed; redelivering later',
      );
      m.nak(Math.min(1000 * 2 ** m.info.deliveryCount, 30_000));
      return;
    }
    try {
      await deadLetter(d, m, reason);
      d.log.error({ err: reason, seq: m.seq, subject: m.subject }, 'event moved to the dead-letter subject');
      // No reason argument: nats-server before 2.10.4 ignores a TERM that carries one.
      m.term();
    } catch (dl) {
      // Not even the dead letter could be stored: leave the event for a later delivery.
      d.log.error({ err: (dl as Error).message, seq: m.seq }, 'dead-lettering failed; redelivering later');
      m.nak(5000);
    }
  }
}
