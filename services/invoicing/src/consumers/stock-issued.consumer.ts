/**
 * Durable consumer of `events.warehouse.stock-issued` (DESIGN §5 last rule): an issue card made from a
 * sales invoice fills that invoice's `warehouseRecordNo`. Idempotent: the event id is recorded in
 * `processed_event` in the same transaction, so a redelivered or replayed event changes nothing.
 * Replicas share the durable consumer; messages are acked only after the commit.
 */
import { StockIssuedEvent } from '@bm/contracts';
import {
  EVENTS_MAX_AGE_MS,
  EVENTS_STREAM,
  ensureEventsStream,
  pruneHourly,
  type ServiceKit,
} from '@bm/service-kit';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { linkIssueCard } from '../application/sales-invoice.service.js';

export const STOCK_ISSUED_CONSUMER = 'invoicing-stock-issued';

/** Applies one event; returns false when it had been processed before. */
export async function applyStockIssued(kit: ServiceKit, raw: unknown): Promise<boolean> {
  const event = StockIssuedEvent.parse(raw);
  const em = kit.orm.em.fork();
  em.setFilterParams('company', { companyId: event.companyId });
  return em.transactional(async (tx) => {
    const fresh = await tx.execute<{ event_id: string }[]>(
      `insert into "invoicing"."processed_event" ("event_id", "consumer", "processed_at") values (?, ?, now())
       on conflict ("event_id") do nothing returning "event_id"`,
      [event.eventId, STOCK_ISSUED_CONSUMER],
    );
    if (!fresh.length) return false;
    if (event.sourceType === 'SalesInvoice' && event.sourceId)
      await linkIssueCard(tx as any, event.sourceId, event.recordNumber);
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
        try {
          await jsm.consumers.info(EVENTS_STREAM, STOCK_ISSUED_CONSUMER);
        } catch {
          await jsm.consumers.add(EVENTS_STREAM, {
            durable_name: STOCK_ISSUED_CONSUMER,
            filter_subject: 'events.warehouse.stock-issued',
            ack_policy: AckPolicy.Explicit,
            deliver_policy: DeliverPolicy.All,
            ack_wait: 30_000_000_000,
          });
        }
        const consumer = await jetstream(kit.nc).consumers.get(EVENTS_STREAM, STOCK_ISSUED_CONSUMER);
        const iter = await consumer.consume({ max_messages: 100 });
        messages = iter;
        for await (const m of iter) {
          try {
            await applyStockIssued(kit, m.json());
            m.ack();
          } catch (e) {
            kit.log.warn(
              { err: (e as Error).message, seq: m.seq },
              'stock-issued: handling failed; redelivering later',
            );
            m.nak(2000);
          }
        }
      } catch (e) {
        if (!stopped)
          kit.log.warn({ err: (e as Error).message }, 'stock-issued consumer: setup failed; retrying');
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  };
  loop = setup();
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
    messages?.stop();
    await loop;
  };
}
