/**
 * Payloads over the NATS message limit (DESIGN §1: "Replies that can be larger … must still work"):
 * a request or reply larger than the server's `max_payload` (minus headroom for headers) is put into the
 * JetStream object store bucket `messages` and the message carries only the header `Payload-Object` with
 * its name. The receiver fetches and deletes it. Objects expire after 10 minutes if nobody does.
 *
 * Events (issue #12) use the bucket `events` instead, named by the header `Payload-Bucket`: every
 * subscriber reads the same object, so it is never deleted on reading and expires with the stream's
 * retention (30 days).
 */
import { type ObjectStore, Objm } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';

export const LARGE_PAYLOAD_BUCKET = 'messages';
/** The bucket of large events' payloads (kept as long as the EVENTS stream keeps events). */
export const LARGE_EVENT_BUCKET = 'events';
export const LARGE_PAYLOAD_HEADER = 'Payload-Object';
/** Names the bucket of an offloaded payload when it is not `messages`. */
export const LARGE_PAYLOAD_BUCKET_HEADER = 'Payload-Bucket';
const NANOS_PER_MS = 1_000_000;
const TTL_MS: Record<string, number> = {
  [LARGE_PAYLOAD_BUCKET]: 10 * 60 * 1000,
  [LARGE_EVENT_BUCKET]: 30 * 24 * 3_600_000,
};
const HEADROOM = 64 * 1024;

const stores = new WeakMap<NatsConnection, Map<string, Promise<ObjectStore>>>();

/**
 * Replicas of the JetStream streams and object stores this process creates (issue #25 "NATS cluster"):
 * 1 on a single server, 3 on a three-node cluster (NATS_REPLICAS). Set once at start-up by
 * {@link setJetStreamReplicas}; a stream that exists already keeps its own.
 */
let replicas = 1;

/** Sets the replicas of the streams and object stores created from now on (1–5). */
export function setJetStreamReplicas(n: number): void {
  replicas = Math.min(Math.max(Math.trunc(n) || 1, 1), 5);
}

/** The replicas a new stream or object store gets. */
export const jetStreamReplicas = (): number => replicas;

function store(nc: NatsConnection, bucket: string): Promise<ObjectStore> {
  let byBucket = stores.get(nc);
  if (!byBucket) {
    byBucket = new Map();
    stores.set(nc, byBucket);
  }
  let s = byBucket.get(bucket);
  if (!s) {
    s = (async () => {
      const objm = new Objm(nc);
      try {
        return await objm.open(bucket);
      } catch {
        return objm.create(bucket, {
          ttl: (TTL_MS[bucket] ?? TTL_MS.messages) * NANOS_PER_MS,
          replicas,
        } as any);
      }
    })();
    s.catch(() => byBucket.delete(bucket));
    byBucket.set(bucket, s);
  }
  return s;
}

/** Largest payload sent inline on this connection. */
export const inlineLimit = (nc: NatsConnection) => (nc.info?.max_payload ?? 1024 * 1024) - HEADROOM;

/**
 * Sends `data` inline, or offloads it to `bucket` and marks `headers`; returns what to put in the
 * message. `name` (default: a new UUID) lets a retried publish reuse one object.
 */
export async function outgoing(
  nc: NatsConnection,
  data: Uint8Array,
  headers: { set(name: string, value: string): void },
  bucket = LARGE_PAYLOAD_BUCKET,
  name: string = crypto.randomUUID(),
): Promise<Uint8Array> {
  if (data.byteLength <= inlineLimit(nc)) return data;
  await (await store(nc, bucket)).putBlob({ name }, data);
  headers.set(LARGE_PAYLOAD_HEADER, name);
  if (bucket !== LARGE_PAYLOAD_BUCKET) headers.set(LARGE_PAYLOAD_BUCKET_HEADER, bucket);
  return new Uint8Array(0);
}

/** The payload of a received message, fetched (and deleted) from the object store when offloaded. */
export async function incoming(
  nc: NatsConnection,
  data: Uint8Array,
  headers: { get(name: string): string } | undefined,
): Promise<Uint8Array> {
  const name = headers?.get(LARGE_PAYLOAD_HEADER);
  if (!name) return data;
  const bucket = headers?.get(LARGE_PAYLOAD_BUCKET_HEADER) || LARGE_PAYLOAD_BUCKET;
  const s = await store(nc, bucket);
  const blob = await s.getBlob(name);
  // A request or reply has one reader; an event's object is read by every subscriber and expires.
  if (bucket === LARGE_PAYLOAD_BUCKET) void s.delete(name).catch(() => undefined);
  if (!blob) throw new Error(`offloaded payload ${name} (bucket ${bucket}) is gone`);
  return blob;
}
