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

import type { Logger } from '@bm/logger';
import type { MikroORM } from '@mikro-orm/postgresql';
import { type JetStreamClient, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { OutboxTable } from './outbox/claims.js';
import { publishRound } from './outbox/publish.js';
import { ensureEventsStream } from './outbox/stream.js';
import { pruneHourly } from './pruning.js';

export { CLAIM_SECONDS } from './outbox/claims.js';
export { EVENTS_MAX_AGE_MS, EVENTS_STREAM, ensureEventsStream } from './outbox/stream.js';

/**
 * Shortest time between the starts of two rounds asked for by commits (issue #24): under load a round
 * then takes the events of several commits, so the relay's statement, its writes to the socket and its
 * wake-ups are paid once for them (measured side by side: cards 1.13×, invoices 1.06× the documents per
 * second, docs/benchmarks.md). An event waits at most this much longer.
 */
export const MIN_ROUND_MS = 20;

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

/** Options of {@link startOutboxRelay}. */
export interface OutboxRelayOptions {
  orm: MikroORM;
  nc: NatsConnection;
  log: Logger;
  /** The schema whose `outbox` table is relayed. */
  schema: string;
  /** A round at least this often (ms, default 500) besides those commits ask for. */
  intervalMs?: number;
  /** Events per round (default 200). */
  batch?: number;
  /** {@link MIN_ROUND_MS} unless given. */
  minRoundMs?: number;
}

/** Starts the relay for the outbox table of `o.schema`. */
export function startOutboxRelay(o: OutboxRelayOptions): OutboxRelay {
  const relay = new Relay(o);
  const timer = setInterval(() => relay.kick(), o.intervalMs ?? 500);
  timer.unref();
  // Published events are kept a week (for inspection and replays by hand), then deleted.
  const stopPruning = pruneHourly(o.orm, o.log, `"${o.schema}"."outbox"`, 'published_at', 7 * 24 * 3_600_000);
  return {
    kick: () => relay.kick(),
    flush: () => relay.flush(),
    pause: () => relay.pause(),
    resume: () => relay.resume(),
    stop: async () => {
      clearInterval(timer);
      stopPruning();
      await relay.stop();
    },
  };
}

/**
 * One relay: rounds run one after another (a failed one is logged and the next goes on); a round asked
 * for while one is queued joins it; rounds start at most every {@link MIN_ROUND_MS}.
 */
class Relay {
  private readonly js: JetStreamClient;
  private readonly outbox: OutboxTable;
  private readonly batch: number;
  private streamReady = false;
  /** The last round filled its batch: another follows at once. */
  private again = false;
  private stopped = false;
  private paused = false;
  /** A round asked for and not begun yet: later asks join it. */
  private queued = false;
  private lastRound = 0;
  /** Events published in the last round, marked `published_at` by the next round's statement. */
  private published: string[] = [];
  private chain: Promise<number> = Promise.resolve(0);

  constructor(private readonly o: OutboxRelayOptions) {
    this.js = jetstream(o.nc, { timeout: 2000 });
    this.outbox = new OutboxTable(o.orm, o.schema);
    this.batch = o.batch ?? 200;
  }

  /** Asks for a round now (after a commit, by the timer). */
  kick(): void {
    if (this.queued || this.stopped) return;
    this.queued = true;
    void this.exec(async () => {
      // Rounds at most every MIN_ROUND_MS: under load a round takes the events of several commits.
      const wait = this.lastRound + (this.o.minRoundMs ?? MIN_ROUND_MS) - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.lastRound = performance.now();
      this.queued = false;
      const n = await this.round();
      if (this.again) {
        this.again = false;
        this.kick();
      }
      return n;
    });
  }

  /** Publishes and marks everything pending now (after the rounds already asked for). */
  flush(): Promise<number> {
    return this.exec(() => this.drain());
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
  }

  /** Runs `work` after the rounds before it; a failure is logged and the next round goes on. */
  private exec(work: () => Promise<number>): Promise<number> {
    this.chain = this.chain.then(work).catch((e) => {
      this.streamReady = false;
      this.o.log.warn({ err: (e as Error).message }, 'outbox: round failed; will retry');
      return 0;
    });
    return this.chain;
  }

  /**
   * One round: one statement marks the last round's events and claims the next batch; they are published
   * at once; a refused event is counted and released, those not sent while NATS is unreachable released.
   * Returns how many were published.
   */
  private async round(): Promise<number> {
    if (this.o.nc.isClosed() || this.paused) return 0;
    if (!this.streamReady) {
      await ensureEventsStream(await jetstreamManager(this.o.nc, { timeout: 2000 }));
      this.streamReady = true;
    }
    const rows = await this.outbox.claim(this.published, this.batch);
    this.published = [];
    const { done, failed, unreachable } = await publishRound(this.o.nc, this.js, rows, this.o.log);
    this.published = done;
    if (failed.length) await this.outbox.recordRefused(failed);
    if (unreachable) {
      const handled = new Set([...done, ...failed.map((f) => f.id)]);
      await this.outbox.release(rows.filter((r) => !handled.has(r.id)).map((r) => r.id));
    }
    if (done.length === this.batch) this.again = true;
    return done.length;
  }

  /** Rounds until one claims nothing, so that every event published so far is also marked (flush, stop). */
  private async drain(): Promise<number> {
    let n = 0;
    for (;;) {
      const k = await this.round();
      n += k;
      if (!k || this.paused || this.o.nc.isClosed()) break;
    }
    if (this.published.length) {
      // Paused or closed with marks pending: make them without claiming more.
      const ids = this.published;
      this.published = [];
      await this.outbox.markPublished(ids);
    }
    return n;
  }
}
