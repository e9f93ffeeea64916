/**
 * Transactional outbox relay (DESIGN §1 "Events"): events are written to `<schema>.outbox` in the same
 * transaction as the change; this relay publishes them to the JetStream stream `EVENTS` with the event id
 * as `Nats-Msg-Id` (the stream drops duplicates within its window) and marks them published. No event is
 * lost when a process dies between commit and publish, or while NATS is unreachable: unpublished rows
 * stay and are sent on a later round. Replicas share the work: a round claims its events for
 * {@link CLAIM_SECONDS} (`claimed_until`, taken with `for update skip locked`), and the same statement
 * marks what the round before published (issue #24: one statement per round). An event whose relay died
 * between its publish and that mark is published again after the claim: the stream or, past its window,
 * the consumer (which de-duplicates by `eventId`) drops it.
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
import { pruneHourly } from './pruning.js';
import { pgArray } from './set-insert.js';

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
/**
 * How long a relay's claim on the events it is publishing lasts: another replica (or this one after a
 * restart) takes them over after it. Far above a publish's acknowledgement timeout (2 s).
 */
const CLAIM_SECONDS = 15;
/**
 * Shortest time between the starts of two rounds asked for by commits (issue #24): under load a round
 * then takes the events of several commits, so the relay's statement, its writes to the socket and its
 * wake-ups are paid once for them (measured side by side: cards 1.13×, invoices 1.06× the documents per
 * second, docs/benchmarks.md). An event waits at most this much longer.
 */
export const MIN_ROUND_MS = 20;

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
  /** Rounds until nothing is left to publish, every published event marked; resolves with how many. */
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
  /** {@link MIN_ROUND_MS} unless given. */
  minRoundMs?: number;
}): OutboxRelay {
  const js = jetstream(o.nc, { timeout: 2000 });
  const batch = o.batch ?? 200;
  let streamReady = false;
  let again = false;
  let stopped = false;
  let paused = false;

  /** Events published in the last round, marked `published_at` by the next round's statement. */
  let published: string[] = [];
  const table = `"${o.schema}"."outbox"`;
  /** Marks the events of an array parameter published (and unclaimed). */
  const markPublished = `update ${table} set "published_at" = now(), "claimed_until" = null where "id" = any(?::uuid[])`;
  const db = () => o.orm.em.getConnection();

  /**
   * One round in ONE statement (issue #24: the relay's transaction of four statements was half of an
   * invoice's round trips): it marks the events the previous round published and claims the next
   * `batch` unpublished ones (`claimed_until`, so another replica skips them), least-tried first. Their
   * publishes are then sent at once. Returns how many were published.
   */
  const round = async (): Promise<number> => {
    if (o.nc.isClosed() || paused) return 0;
    if (!streamReady) {
      await ensureEventsStream(await jetstreamManager(o.nc, { timeout: 2000 }));
      streamReady = true;
    }
    const marking = pgArray(published);
    const claimed = await db().execute<(Row & { attempts: number; created_at: Date | string })[]>(
      `with "done" as (${markPublished}), "next" as (
         select "id" from ${table}
          where "published_at" is null and ("claimed_until" is null or "claimed_until" < now())
            and not ("id" = any(?::uuid[]))
          order by "attempts", "created_at" limit ? for update skip locked
       )
       update ${table} o set "claimed_until" = now() + make_interval(secs => ?) from "next"
        where o."id" = "next"."id"
       returning o."id", o."company_id", o."subject", o."payload", o."trace_parent", o."attempts", o."created_at"`,
      [marking, marking, batch, CLAIM_SECONDS],
    );
    published = [];
    // `returning` keeps no order: the least-tried first, then as written.
    const rows = claimed.sort(
      (x, y) =>
        x.attempts - y.attempts || new Date(x.created_at).getTime() - new Date(y.created_at).getTime(),
    );
    const done: string[] = [];
    const failed: { id: string; error: string }[] = [];
    let unreachable = false;
    // Every event of the round is sent before any acknowledgement is awaited, and all in one turn of
    // the event loop, so that the connection writes them to the socket at once (issue #24: one write and
    // one wake-up for a round instead of one per event; each write costs both ends of the loopback).
    // They leave in the rows' order, so the stream keeps it; an event sent again after a failure is
    // dropped by its `Nats-Msg-Id`.
    const prepared: {
      row: Row;
      headers: ReturnType<typeof natsHeaders>;
      data?: Uint8Array;
      error?: unknown;
    }[] = [];
    for (const r of rows) {
      const h = natsHeaders();
      h.set(Headers.companyId, r.company_id);
      // The payload's schema version (issue #14); every event in the catalogue has one.
      h.set(EVENT_VERSION_HEADER, String(eventVersionOf(r.subject) ?? 1));
      // The writing request's trace continues in the consumers (issue #25).
      if (r.trace_parent) h.set(TRACEPARENT_HEADER, r.trace_parent);
      try {
        // An event above the server's message limit travels through the `events` object store, under
        // its own id, so a retried publish overwrites rather than duplicates it.
        const data = await outgoing(o.nc, enc.encode(JSON.stringify(r.payload)), h, LARGE_EVENT_BUCKET, r.id);
        prepared.push({ row: r, headers: h, data });
      } catch (e) {
        prepared.push({ row: r, headers: h, error: e });
      }
    }
    const sent = prepared.map((p) => ({
      row: p.row,
      ack: settledLater(
        p.data
          ? js.publish(p.row.subject, p.data, { msgID: p.row.id, headers: p.headers })
          : Promise.reject(p.error),
      ),
    }));
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
        unreachable = true;
        break;
      }
      // This event alone cannot be published (e.g. refused by the server): count it, go on.
      o.log.error({ err: (e as Error).message, id: r.id, subject: r.subject }, 'outbox: event refused');
      failed.push({ id: r.id, error: String((e as Error).message).slice(0, 1000) });
    }
    published = done;
    // A refused event is counted and, like those not sent while NATS is unreachable, released at once
    // for the next round (rare: one statement each).
    if (failed.length)
      await db().execute(
        `update ${table} set "attempts" = "attempts" + 1, "last_error" = f."error", "claimed_until" = null
           from unnest(?::uuid[], ?::text[]) as f("id", "error") where ${table}."id" = f."id"`,
        [pgArray(failed.map((f) => f.id)), pgArray(failed.map((f) => f.error))],
      );
    if (unreachable) {
      const handled = new Set([...done, ...failed.map((f) => f.id)]);
      await db().execute(`update ${table} set "claimed_until" = null where "id" = any(?::uuid[])`, [
        pgArray(rows.filter((r) => !handled.has(r.id)).map((r) => r.id)),
      ]);
    }
    if (done.length === batch) again = true;
    return done.length;
  };

  /** Rounds until one claims nothing, so that every event published so far is also marked (flush, stop). */
  const drain = async (): Promise<number> => {
    let n = 0;
    for (;;) {
      const k = await round();
      n += k;
      if (!k || paused || o.nc.isClosed()) break;
    }
    if (published.length) {
      // Paused or closed with marks pending: make them without claiming more.
      const ids = pgArray(published);
      published = [];
      await db().execute(markPublished, [ids]);
    }
    return n;
  };

  /** Rounds run one after another; a failed one is logged and the next goes on. */
  let chain: Promise<number> = Promise.resolve(0);
  const exec = (work: () => Promise<number>): Promise<number> => {
    chain = chain.then(work).catch((e) => {
      streamReady = false;
      o.log.warn({ err: (e as Error).message }, 'outbox: round failed; will retry');
      return 0;
    });
    return chain;
  };
  /** A round asked for (after a commit, by the timer) and not begun yet: later asks join it. */
  let queued = false;
  let lastRound = 0;
  const kick = (): void => {
    if (queued || stopped) return;
    queued = true;
    void exec(async () => {
      // Rounds at most every MIN_ROUND_MS: under load a round takes the events of several commits.
      const wait = lastRound + (o.minRoundMs ?? MIN_ROUND_MS) - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      lastRound = performance.now();
      queued = false;
      const n = await round();
      if (again) {
        again = false;
        kick();
      }
      return n;
    });
  };
  /** Publishes and marks everything pending now (after the rounds already asked for). */
  const flush = (): Promise<number> => exec(drain);

  const timer = setInterval(kick, o.intervalMs ?? 500);
  timer.unref();
  // Published events are kept a week (for inspection and replays by hand), then deleted.
  const stopPruning = pruneHourly(o.orm, o.log, `"${o.schema}"."outbox"`, 'published_at', 7 * 24 * 3_600_000);
  return {
    kick,
    flush,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      kick();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      stopPruning();
      await flush();
    },
  };
}
