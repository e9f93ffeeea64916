/**
 * Payloads over the NATS message limit (DESIGN §1: "Replies that can be larger … must still work"):
 * a request or reply larger than the server's `max_payload` (minus headroom for headers) is put into the
 * JetStream object store bucket `messages` and the message carries only the header `Payload-Object` with
 * its name. The receiver fetches and deletes it. Objects expire after 10 minutes if nobody does.
 */
import { type ObjectStore, Objm } from '@nats-io/obj';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';

export const LARGE_PAYLOAD_BUCKET = 'messages';
export const LARGE_PAYLOAD_HEADER = 'Payload-Object';
const TTL_NANOS = 10 * 60 * 1_000_000_000;
const HEADROOM = 64 * 1024;

const stores = new WeakMap<NatsConnection, Promise<ObjectStore>>();

function store(nc: NatsConnection): Promise<ObjectStore> {
  let s = stores.get(nc);
  if (!s) {
    s = (async () => {
      const objm = new Objm(nc);
      try {
        return await objm.open(LARGE_PAYLOAD_BUCKET);
      } catch {
        return objm.create(LARGE_PAYLOAD_BUCKET, { ttl: TTL_NANOS } as any);
      }
    })();
    s.catch(() => stores.delete(nc));
    stores.set(nc, s);
  }
  return s;
}

/** Largest payload sent inline on this connection. */
export const inlineLimit = (nc: NatsConnection) => (nc.info?.max_payload ?? 1024 * 1024) - HEADROOM;

/** Sends `data` inline, or offloads it and marks `headers`; returns what to put in the message. */
export async function outgoing(nc: NatsConnection, data: Uint8Array, headers: MsgHdrs): Promise<Uint8Array> {
  if (data.byteLength <= inlineLimit(nc)) return data;
  const name = crypto.randomUUID();
  await (await store(nc)).putBlob({ name }, data);
  headers.set(LARGE_PAYLOAD_HEADER, name);
  return new Uint8Array(0);
}

/** The payload of a received message, fetched (and deleted) from the object store when offloaded. */
export async function incoming(
  nc: NatsConnection,
  data: Uint8Array,
  headers: MsgHdrs | undefined,
): Promise<Uint8Array> {
  const name = headers?.get(LARGE_PAYLOAD_HEADER);
  if (!name) return data;
  const s = await store(nc);
  const blob = await s.getBlob(name);
  void s.delete(name).catch(() => undefined);
  if (!blob) throw new Error(`offloaded payload ${name} is gone`);
  return blob;
}
