/**
 * A subscriber of the warehouse's stock events (issue #14), as a team outside the product would write
 * one from `docs/asyncapi.json`: one durable JetStream consumer per subject on the stream `EVENTS`,
 * explicit acks, payloads read inline or from the `events` object store (header `Payload-Object`), and
 * de-duplication by `eventId` — delivery is at least once, so the same event can arrive twice.
 *
 * It uses only the NATS client libraries, not the product's code.
 */
import { AckPolicy, DeliverPolicy, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { LRUCache } from 'lru-cache';

/** The subjects this example follows (AsyncAPI channels of the same names). */
export const SUBJECTS = ['events.warehouse.stock-issued', 'events.warehouse.stock-revalued'] as const;
/** The schema versions this code understands (header `Event-Version`); a newer one is not acked. */
const KNOWN_VERSION = 1;

/** One event as received: its subject, version and JSON payload (fields as in the AsyncAPI document). */
export interface StockEvent {
  subject: (typeof SUBJECTS)[number];
  version: number;
  /** `eventId`, `companyId`, `issueCardId`, `recordNumber`, `rows`, … */
  payload: { eventId: string; [field: string]: unknown };
}

export interface ConsumerOptions {
  nc: NatsConnection;
  /** Prefix of the durable consumers' names (one per subject): keep it to resume where you stopped. */
  durable: string;
  /** Called once per event id; the event is acked after it returns. */
  onEvent: (e: StockEvent) => void | Promise<void>;
  /** How many recent event ids to remember for de-duplication (default 100,000). */
  remember?: number;
}

/** A running consumer: `stop()` ends it after the event in hand. */
export interface RunningConsumer {
  stop(): Promise<void>;
  /** Events handled and duplicates skipped so far. */
  counts(): { handled: number; duplicates: number };
}

/** Creates (or resumes) the durable consumers and handles events until stopped. */
export async function startConsumer(o: ConsumerOptions): Promise<RunningConsumer> {
  const jsm = await jetstreamManager(o.nc);
  const js = jetstream(o.nc);
  const seen = new LRUCache<string, true>({ max: o.remember ?? 100_000 });
  const counts = { handled: 0, duplicates: 0 };
  let bucket: ReturnType<Objm['open']> | undefined;
  const dec = new TextDecoder();

  const payloadOf = async (m: JsMsg): Promise<string> => {
    const object = m.headers?.get('Payload-Object');
    if (!object) return dec.decode(m.data);
    bucket ??= new Objm(o.nc).open(m.headers?.get('Payload-Bucket') || 'events');
    const blob = await (await bucket).getBlob(object);
    if (!blob) throw new Error(`payload object ${object} is gone`);
    return dec.decode(blob);
  };

  const handle = async (m: JsMsg) => {
    const version = Number(m.headers?.get('Event-Version') || 1);
    if (version > KNOWN_VERSION) {
      // A newer schema than this code knows: leave it for an upgraded consumer (nak with a delay).
      m.nak(60_000);
      return;
    }
    const payload = JSON.parse(await payloadOf(m)) as StockEvent['payload'];
    if (seen.has(payload.eventId)) {
      counts.duplicates++;
    } else {
      await o.onEvent({ subject: m.subject as StockEvent['subject'], version, payload });
      seen.set(payload.eventId, true);
      counts.handled++;
    }
    m.ack();
  };

  const loops: Promise<void>[] = [];
  const stops: (() => void)[] = [];
  for (const subject of SUBJECTS) {
    const name = `${o.durable}-${subject.split('.').pop()}`;
    try {
      await jsm.consumers.info('EVENTS', name);
    } catch {
      await jsm.consumers.add('EVENTS', {
        durable_name: name,
        filter_subject: subject,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: 30_000_000_000,
      });
    }
    const messages = await (await js.consumers.get('EVENTS', name)).consume({ max_messages: 100 });
    stops.push(() => void messages.stop());
    loops.push(
      (async () => {
        for await (const m of messages) {
          try {
            await handle(m);
          } catch (e) {
            console.error(`event ${m.seq} on ${m.subject} failed: ${(e as Error).message}`);
            m.nak(5000);
          }
        }
      })(),
    );
  }
  return {
    stop: async () => {
      for (const s of stops) s();
      await Promise.all(loops);
    },
    counts: () => ({ ...counts }),
  };
}
