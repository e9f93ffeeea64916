/**
 * The JetStream stream every event goes to (DESIGN §1 "Events"), and which publish errors mean that NATS
 * cannot be reached now rather than that one message was refused.
 */
import { jetStreamReplicas } from '@bm/messaging';
import type { JetStreamManager } from '@nats-io/jetstream';
import { errors as natsErrors } from '@nats-io/transport-node';

/** The stream every event goes to. */
export const EVENTS_STREAM = 'EVENTS';

/** How long the stream keeps an event (a consumer down for longer misses it). */
export const EVENTS_MAX_AGE_MS = 30 * 24 * 3_600_000;

/** Creates the `EVENTS` stream (subjects `events.>`, {@link jetStreamReplicas} replicas) when it does not exist yet. */
export async function ensureEventsStream(jsm: JetStreamManager): Promise<void> {
  try {
    await jsm.streams.info(EVENTS_STREAM);
  } catch {
    try {
      await jsm.streams.add({
        name: EVENTS_STREAM,
        subjects: ['events.>'],
        duplicate_window: 2 * 60 * 1_000_000_000,
        max_age: EVENTS_MAX_AGE_MS * 1_000_000,
        // 3 on a three-node cluster (issue #25): losing a node loses no acknowledged event.
        num_replicas: jetStreamReplicas(),
      } as any);
    } catch (e) {
      if (!/already in use|exists/i.test(String((e as Error).message))) throw e;
    }
  }
}

/**
 * True for errors that say the server (or JetStream) cannot be reached now, as opposed to a refusal of
 * one message: a timeout, no responders, a closed or draining connection.
 */
export function isLinkFailure(e: unknown): boolean {
  const err = e as Error & { cause?: unknown };
  const is = (x: unknown) =>
    x instanceof natsErrors.TimeoutError ||
    x instanceof natsErrors.NoRespondersError ||
    x instanceof natsErrors.ClosedConnectionError ||
    x instanceof natsErrors.DrainingConnectionError ||
    (x instanceof natsErrors.RequestError && x.isNoResponders());
  return is(err) || is(err?.cause) || /timeout|no responders|connection closed/i.test(String(err?.message));
}
