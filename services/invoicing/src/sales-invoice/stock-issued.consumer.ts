/**
 * Durable consumer of `events.warehouse.stock-issued` (DESIGN §5 last rule): an issue card made from a
 * sales invoice fills that invoice's `warehouseRecordNo`. Idempotent: the event id is recorded in
 * `processed_event` in the same transaction, so a redelivered or replayed event changes nothing.
 * Replicas share the durable consumer; messages are acked only after the commit. A poison event, or one
 * that fails MAX_DELIVER times, goes to `events.invoicing.dead-letter` (issue #12).
 */
import { StockIssuedEvent } from '@bm/contracts';
import {
  EVENTS_MAX_AGE_MS,
  EVENTS_STREAM,
  ensureEventsStream,
  MAX_DELIVER,
  observeConsumer,
  processDelivery,
  pruneHourly,
  type ServiceKit,
} from '@bm/service-kit';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { linkIssueCard } from './sales-invoice-link.writer.js';

export const STOCK_ISSUED_CONSUMER = 'invoicing-stock-issued';

/**
 * Applies one event; returns false when it had been processed before or concerns no sales invoice. Only a
 * card copied from a sales invoice changes anything here: every other card (nearly all of them) is
 * acknowledged without a transaction, since applying it twice changes nothing either (issue #13: no
 * database round trips in invoicing per issue card).
 */
export async function applyStockIssued(kit: ServiceKit, raw: unknown): Promise<boolean> {
  const event = StockIssuedEvent.parse(raw);
  if (event.sourceType !== 'SalesInvoice' || !event.sourceId) return false;
  const em = kit.orm.em.fork();
  em.setFilterParams('company', { companyId: event.companyId });
  return em.transactional(async (tx) => {
    const fresh = await tx.execute<{ event_id: string }[]>(
      `insert into "invoicing"."processed_event" ("event_id", "consumer", "processed_at") values (?, ?, now())
       on conflict ("event_id") do nothing returning "event_id"`,
      [event.eventId, STOCK_ISSUED_CONSUMER],
    );
    if (!fresh.length) return false;
    await linkIssueCard(tx as any, event.sourceId!, event.recordNumber);
    return true;
  });
}

/** Starts consuming; resolves to a stop function. Retries setup in the background while NATS is not ready. */
export function startStockIssuedConsumer(kit: ServiceKit): () => Promise<void> {
  let stopped = false;
  let messages: { stop(): void } | undefined;
  let loop: Promise<void> = Promise.resolve();
  const setup = async () => {
    while (!stopped) {
      try {
        const jsm = await jetstreamManager(kit.nc, { timeout: 2000 });
        await ensureEventsStream(jsm);
        // The server stops redelivering after max_deliver; processDelivery dead-letters an event at
        // MAX_DELIVER, and the margin covers a dead letter that could not be stored at once.
        const maxDeliver = MAX_DELIVER + 5;
        const existing = await jsm.consumers
          .info(EVENTS_STREAM, STOCK_ISSUED_CONSUMER)
          .catch(() => undefined);
        if (!existing) {
          await jsm.consumers.add(EVENTS_STREAM, {
            durable_name: STOCK_ISSUED_CONSUMER,
            filter_subject: 'events.warehouse.stock-issued',
            ack_policy: AckPolicy.Explicit,
            deliver_policy: DeliverPolicy.All,
            ack_wait: 30_000_000_000,
            max_deliver: maxDeliver,
          });
        } else if (existing.config.max_deliver !== maxDeliver) {
          // A consumer made by an earlier version redelivered for ever.
          await jsm.consumers.update(EVENTS_STREAM, STOCK_ISSUED_CONSUMER, { max_deliver: maxDeliver });
        }
        const consumer = await jetstream(kit.nc).consumers.get(EVENTS_STREAM, STOCK_ISSUED_CONSUMER);
        const iter = await consumer.consume({ max_messages: 100 });
        messages = iter;
        // Stopped while this was being set up: end at once instead of consuming for ever.
        if (stopped) iter.stop();
        const delivery = { nc: kit.nc, log: kit.log, service: 'invoicing', consumer: STOCK_ISSUED_CONSUMER };
        for await (const m of iter)
          await processDelivery(delivery, m, (payload) => applyStockIssued(kit, payload));
      } catch (e) {
        if (!stopped)
          kit.log.warn({ err: (e as Error).message }, 'stock-issued consumer: setup failed; retrying');
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  };
  loop = setup();
  // Its pending events are a metric (issue #25).
  const unobserve = observeConsumer(kit.nc, EVENTS_STREAM, STOCK_ISSUED_CONSUMER);
  // Ids older than the stream's retention can never come back: forget them.
  const stopPruning = pruneHourly(
    kit.orm,
    kit.log,
    '"invoicing"."processed_event"',
    'processed_at',
    EVENTS_MAX_AGE_MS,
  );
  return async () => {
    stopped = true;
    stopPruning();
    unobserve();
    messages?.stop();
    await loop;
  };
}
