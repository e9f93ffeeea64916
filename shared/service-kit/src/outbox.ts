/**
 * Transactional outbox relay (DESIGN §1 "Events"): events are written to `<schema>.outbox` in the same
 * transaction as the change; this relay publishes them to the JetStream stream `EVENTS` with the event id
 * as `Nats-Msg-Id` (the stream drops duplicates within its window) and marks them published. No event is
 * lost when a process dies between commit and publish, or while NATS is unreachable: unpublished rows
 * stay and are sent on the next round. Replicas share the work (`for update skip locked`).
 *
 * Issue #12: an event larger than the server's message limit goes through the `events` object store
 * (header `Payload-Object`, `Payload-Bucket: events`); an event the server refuses is counted
 * (`attempts`, `last_error`) and the round goes on with the others; only an unreachable server ends a
 * round early.
 */

import { EVENT_VERSION_HEADER, eventVersionOf, Headers, TRACEPARENT_HEADER } from '@bm/contracts';
import type { Logger } from '@bm/logger';
import { jetStreamReplicas, LARGE_EVENT_BUCKET, outgoing } from '@bm/messaging';
import type { MikroORM } from '@mikro-orm/postgresql';
import { type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { type NatsConnection, errors as natsErrors, headers as natsHeaders } from '@nats-io/transport-node';

const enc = new TextEncoder();

/**
 * True for errors that say the server (or JetStream) cannot be reached now, as opposed to a refusal of
 * one message: a timeout, no responders, a closed or draining connection.
 */
function isLinkFailure(e: unknown): boolean {
  const err = e as Error & { cause?: unknown };
  const is = (x: unknown) =>
    x instanceof natsErrors.TimeoutError ||
    x instanceof natsErrors.NoRespondersError ||
    x instanceof natsErrors.ClosedConnectionError ||
    x instanceof natsErrors.DrainingConnectionError ||
    (x instanceof natsErrors.RequestError && x.isNoResponders());
  return is(err) || is(err?.cause) || /timeout|no responders|connection closed/i.test(String(err?.message));
}

/** The stream every event goes to. */
export const EVENTS_STREAM = 'EVENTS';
/** How long the stream keeps an event (a consumer down for longer misses it). */
export const EVENTS_MAX_AGE_MS = 30 * 24 * 3_600_000;

/** Deletes the rows of `table` whose timestamp `column` is older than `maxAgeMs`; resolves to how many. */
export async function pruneOlderThan(
  orm: MikroORM,
  table: string,
  column: string,
  maxAgeMs: number,
): Promise<number> {
  const r = await orm.em
    .fork()
    .getConnection()
    .execute(
      `delete from ${table} where "${column}" < now() - make_interval(secs => ?)`,
      [maxAgeMs / 1000],
      'run',
    );
  return Number((r as { affectedRows?: number }).affectedRows ?? 0);
}

/**
 * Runs {@link pruneOlderThan} every hour; returns the stop function. Used for published outbox rows and
 * for processed-event ids.
 */
export function pruneHourly(
  orm: MikroORM,
  log: Logger,
  table: string,
  column: string,
  maxAgeMs: number,
): () => void {
  const timer = setInterval(() => {
    pruneOlderThan(orm, table, column, maxAgeMs).catch((e: Error) =>
      log.warn({ err: e.message, table }, 'pruning failed'),
    );
  }, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}

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

/** `p` itself, marked as handled: its outcome is read later, after other awaits (no "unhandled rejection"). */
function settledLater<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

export interface OutboxRelay {
  /** Asks for a round now (after a commit), instead of at the next interval. */
  kick(): void;
  /** Publishes what is pending once more, then stops. */
  stop(): Promise<void>;
  /** One round; resolves with the number of events published. */
  flush(): Promise<number>;
  /** Holds publishing (maintenance, tests of the at-least-once path) until {@link OutboxRelay.resume}. */
  pause(): void;
  resume(): void;
}

interface Row {
  id: string;
  company_id: string;
  subject: string;
  payload: unknown;
  trace_parent: string | null;
}

/** Starts the relay for the outbox table of `schema`. */
export function startOutboxRelay(o: {
  orm: MikroORM;
  nc: NatsConnection;
  log: Logger;
  schema: string;
  intervalMs?: number;
  batch?: number;
}): OutboxRelay {
  const js = jetstream(o.nc, { timeout: 2000 });
  const batch = o.batch ?? 200;
  let streamReady = false;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  let paused = false;

  const round = async (): Promise<number> => {
    if (o.nc.isClosed() || paused) return 0;
    if (!streamReady) {
      await ensureEventsStream(await jetstreamManager(o.nc, { timeout: 2000 }));
      streamReady = true;
    }
    return o.orm.em.fork().transactional(async (tx) => {
      // The least-tried first: an event that keeps failing does not hold up the ones behind it.
      const rows = await tx.execute<Row[]>(
        `select "id", "company_id", "subject", "payload", "trace_parent" from "${o.schema}"."outbox"
          where "published_at" is null order by "attempts", "created_at" limit ? for update skip locked`,
        [batch],
      );
      const done: string[] = [];
      const failed: { id: string; error: string }[] = [];
      // Every event of the round is sent before any acknowledgement is awaited (issue #24: one socket
      // write and one wake-up for a round instead of one per event). They leave in the rows' order (each
      // publish is handed to the connection before the next event is prepared), so the stream keeps it;
      // an event sent again after a failure is dropped by its `Nats-Msg-Id`.
      const sent: { row: Row; ack: Promise<unknown> }[] = [];
      for (const r of rows) {
        const h = natsHeaders();
        h.set(Headers.companyId, r.company_id);
        // The payload's schema version (issue #14); every event in the catalogue has one.
        h.set(EVENT_VERSION_HEADER, String(eventVersionOf(r.subject) ?? 1));
        // The writing request's trace continues in the consumers (issue #25).
        if (r.trace_parent) h.set(TRACEPARENT_HEADER, r.trace_parent);
        let data: Uint8Array;
        try {
          // An event above the server's message limit travels through the `events` object store, under
          // its own id, so a retried publish overwrites rather than duplicates it.
          data = await outgoing(o.nc, enc.encode(JSON.stringify(r.payload)), h, LARGE_EVENT_BUCKET, r.id);
        } catch (e) {
          sent.push({ row: r, ack: settledLater(Promise.reject(e)) });
          continue;
        }
        sent.push({ row: r, ack: settledLater(js.publish(r.subject, data, { msgID: r.id, headers: h })) });
      }
      const outcomes = await Promise.allSettled(sent.map((s) => s.ack));
      for (let i = 0; i < sent.length; i++) {
        const r = sent[i].row;
        const out = outcomes[i];
        if (out.status === 'fulfilled') {
          done.push(r.id);
          continue;
        }
        const e = out.reason;
        if (isLinkFailure(e)) {
          // NATS or JetStream is unreachable: the events from here on go again next round.
          o.log.warn(
            { err: (e as Error).message, pending: rows.length - done.length },
            'outbox: publish failed; will retry',
          );
          break;
        }
        // This event alone cannot be published (e.g. refused by the server): count it, go on.
        o.log.error({ err: (e as Error).message, id: r.id, subject: r.subject }, 'outbox: event refused');
        failed.push({ id: r.id, error: String((e as Error).message).slice(0, 1000) });
      }
      if (done.length)
        await tx.execute(
          `update "${o.schema}"."outbox" set "published_at" = now() where "id" in (${done.map(() => '?').join(',')})`,
          done,
        );
      for (const f of failed)
        await tx.execute(
          `update "${o.schema}"."outbox" set "attempts" = "attempts" + 1, "last_error" = ? where "id" = ?`,
          [f.error, f.id],
        );
      if (done.length === batch) again = true;
      return done.length;
    });
  };

  const flush = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = round()
      .catch((e) => {
        streamReady = false;
        o.log.warn({ err: (e as Error).message }, 'outbox: round failed; will retry');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void flush();
        }
      });
    return running;
  };

  const timer = setInterval(() => void flush(), o.intervalMs ?? 500);
  timer.unref();
  // Published events are kept a week (for inspection and replays by hand), then deleted.
  const stopPruning = pruneHourly(o.orm, o.log, `"${o.schema}"."outbox"`, 'published_at', 7 * 24 * 3_600_000);
  return {
    kick: () => void flush(),
    flush,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      void flush();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      stopPruning();
      await running;
      await flush();
    },
  };
}
