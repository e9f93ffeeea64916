/**
 * The consumer example against the real stack (issue #14): connected as the `integration` NATS user,
 * it sees exactly one `stock-issued` per stored card and one `stock-revalued` per revalued card, skips a
 * duplicate delivery of an event it already handled, and may not publish events itself.
 */
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  issue,
  item,
  ok,
  openYear,
  partner,
  receive,
  warehouse,
} from '../../../test/support/fixtures.js';
import { type Client, type Stack, startStack } from '../../../test/support/stack.js';
import { type RunningConsumer, type StockEvent, startConsumer } from '../src/consumer.js';

let stack: Stack;
let c: Client;
let nc: NatsConnection;
let consumer: RunningConsumer;
const seen: StockEvent[] = [];

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company();
  await openYear(c, 2025);
  await stack.replicas.warehouse[0].relay()!.flush(); // creates the EVENTS stream
  nc = await stack.natsConnect('integration');
  consumer = await startConsumer({ nc, durable: 'example-test', onEvent: (e) => void seen.push(e) });
});
afterAll(async () => {
  await consumer?.stop();
  await nc?.close();
  await stack?.stop();
});

describe('examples/stock-issued-consumer', () => {
  it('prints one event per stored card and per revalued card, and skips a duplicate', async () => {
    const w = await warehouse(c);
    const i = await item(c);
    const p = await partner(c);
    await receive(c, w.id, '2025-05-01', [[i.id, 10, '1.5']]);
    const cards = [];
    for (let k = 0; k < 3; k++)
      cards.push(
        ok(
          await issue(c, {
            warehouseId: w.id,
            partnerId: p.id,
            dateOperation: '2025-05-02',
            rows: [{ itemId: i.id, quantity: 2 }],
          }),
          201,
        ),
      );
    // A refused card (more than the stock) is not stored and has no event.
    expect(
      (
        await issue(c, {
          warehouseId: w.id,
          partnerId: p.id,
          dateOperation: '2025-05-02',
          rows: [{ itemId: i.id, quantity: 50 }],
        })
      ).status,
    ).toBe(422);
    // Back-dated receipt at 2.00: FIFO now issues the April layer first, so every card costs 4.00, not 3.00
    // (decimals travel as exact strings in events, as the AsyncAPI document types them).
    await receive(c, w.id, '2025-04-01', [[i.id, 10, '2']]);
    const relay = () => stack.replicas.warehouse[0].relay()!.flush();
    // The stream is shared with earlier suites: the consumer also prints their events; ours are this company's.
    const ours = () => seen.filter((e) => e.payload.companyId === c.creds.companyId);
    const issued = () => ours().filter((e) => e.subject === 'events.warehouse.stock-issued');
    const revalued = () => ours().filter((e) => e.subject === 'events.warehouse.stock-revalued');
    await eventually(
      async () => {
        await relay();
        return ours().length;
      },
      () => issued().length >= 3 && revalued().length >= 3,
    );
    expect(
      issued()
        .map((e) => e.payload.issueCardId)
        .sort(),
    ).toEqual(cards.map((k) => k.id).sort());
    expect(
      issued()
        .map((e) => e.payload.recordNumber)
        .sort(),
    ).toEqual(cards.map((k) => k.recordNumber).sort());
    expect(
      revalued()
        .map((e) => [e.payload.issueCardId, e.payload.totalCostBefore, e.payload.totalCostAfter])
        .sort(),
    ).toEqual(cards.map((k) => [k.id, '3', '4']).sort());
    expect(ours().every((e) => e.version === 1)).toBe(true);
    const before = consumer.counts();

    // The same event delivered again (another publish, as after a crash before the ack): skipped.
    const admin = await stack.natsConnect('admin');
    const h = natsHeaders();
    h.set('Event-Version', '1');
    await jetstream(admin).publish('events.warehouse.stock-issued', JSON.stringify(issued()[0].payload), {
      headers: h,
      msgID: `replay-${issued()[0].payload.eventId}`,
    });
    await admin.close();
    // Relative to `before`: the stream is shared by the whole run, whose other suites replay events too.
    const counts = await eventually(
      async () => consumer.counts(),
      (n) => n.duplicates === before.duplicates + 1,
    );
    expect(counts).toEqual({ handled: before.handled, duplicates: before.duplicates + 1 });
    expect(issued()).toHaveLength(3);
  });

  it('has its own NATS user, which may read events but not publish them', async () => {
    await expect(
      jetstream(nc, { timeout: 1000 }).publish('events.warehouse.stock-issued', '{}', {
        msgID: crypto.randomUUID(),
      }),
    ).rejects.toThrow();
    expect(nc.isClosed()).toBe(false);
  });
});
