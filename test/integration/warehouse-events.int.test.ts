/**
 * Events of the warehouse (DESIGN §1 "Events", §5): exactly one `stock-issued` per stored card reaches a
 * durable JetStream consumer, also when NATS was unreachable between the commit and the publish.
 * This suite runs its own nats-server, which it stops and restarts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneOlderThan } from '@bm/service-kit';
import { startNats } from '@bm/testing/infra';
import { ensureNatsAuth } from '@bm/testing/nats-auth';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithPartner, issue, item, ok, receive, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

const dataDir = mkdtempSync(join(tmpdir(), 'bm-events-'));
let nats: Awaited<ReturnType<typeof startNats>>;
let stack: Stack;
let c: Client;
let nc: NatsConnection;
let partnerId: string;

beforeAll(async () => {
  const auth = ensureNatsAuth(dataDir);
  nats = await startNats(dataDir, undefined, undefined, undefined, auth.confFile);
  stack = await startStack({ natsUrl: nats.url, natsCredentials: auth.creds });
  ({ c, partnerId } = await companyWithPartner(stack));
  nc = await connect({
    servers: nats.url,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 200,
    user: 'admin',
    pass: auth.creds.admin.password,
  });
  const jsm = await jetstreamManager(nc);
  await stack.replicas.warehouse[0].relay()!.flush(); // creates the EVENTS stream
  await jsm.consumers.add('EVENTS', {
    durable_name: 'test-stock-issued',
    filter_subject: 'events.warehouse.stock-issued',
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
  });
});
afterAll(async () => {
  await nc?.close();
  await stack?.stop();
  await nats?.stop();
});

/** Reads events from the durable consumer until `count` arrived or `ms` passed; acks them. */
async function readEvents(count: number, ms = 8000): Promise<any[]> {
  const consumer = await jetstream(nc).consumers.get('EVENTS', 'test-stock-issued');
  const out: any[] = [];
  const until = Date.now() + ms;
  while (out.length < count && Date.now() < until) {
    const batch = await consumer.fetch({ max_messages: count - out.length, expires: 1000 });
    for await (const m of batch) {
      out.push({ ...m.json<any>(), msgId: m.headers?.get('Nats-Msg-Id') });
      m.ack();
    }
  }
  // Anything beyond `count` would be a duplicate: look once more.
  const extra = await consumer.fetch({ max_messages: 10, expires: 1000 });
  for await (const m of extra) {
    out.push(m.json<any>());
    m.ack();
  }
  return out;
}

describe('stock-issued', () => {
  it('delivers exactly one event per stored card, with its record number and rows', async () => {
    const w = await warehouse(c);
    const a = await item(c);
    await receive(c, w.id, '2025-02-01', [[a.id, 10, 2]]);
    const cards: any[] = [];
    for (let i = 0; i < 5; i++) {
      cards.push(
        ok(
          await issue(c, {
            warehouseId: w.id,
            partnerId,
            dateOperation: '2025-02-02',
            rows: [{ itemId: a.id, quantity: 2 }],
          }),
          201,
        ),
      );
    }
    // A refused card publishes nothing.
    expect(
      (
        await issue(c, {
          warehouseId: w.id,
          partnerId,
          dateOperation: '2025-02-02',
          rows: [{ itemId: a.id }],
        })
      ).status,
    ).toBe(422);
    const events = await readEvents(5);
    expect(events.map((e) => e.issueCardId).sort()).toEqual(cards.map((x) => x.id).sort());
    const first = events.find((e) => e.issueCardId === cards[0].id);
    expect(first).toMatchObject({
      companyId: c.creds.companyId,
      recordNumber: cards[0].recordNumber,
      warehouseId: w.id,
      dateOperation: '2025-02-02',
      rows: [{ itemId: a.id, lotNumberID: null, quantity: '2', costPrice: '2' }],
    });
    expect(first.msgId).toBe(first.eventId);
  });

  it('publishes a card stored before NATS became unreachable once NATS is back, exactly once', async () => {
    const w = await warehouse(c, { allowNegativeStock: true });
    const a = await item(c);
    const relay = stack.replicas.warehouse[0].relay()!;
    relay.pause();
    const card = ok(
      await issue(c, { warehouseId: w.id, partnerId, dateOperation: '2025-03-01', rows: [{ itemId: a.id }] }),
      201,
    );
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const pending = async () =>
      Number(
        (
          await db.query(
            `select count(*) from warehouse.outbox where published_at is null and payload->>'issueCardId' = $1`,
            [card.id],
          )
        ).rows[0].count,
      );
    expect(await pending()).toBe(1);
    await nats.stop();
    relay.resume();
    await relay.flush(); // NATS is down: the publish fails and the event stays in the outbox
    expect(await pending()).toBe(1);
    nats = await startNats(dataDir, () => {}, nats.port);
    const until = Date.now() + 15_000;
    while ((await pending()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(await pending()).toBe(0);
    await db.end();
    const events = await readEvents(1);
    expect(events.map((e) => e.issueCardId)).toEqual([card.id]);
  });

  it('prunes published outbox rows older than the kept age, and only those', async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const published = Number(
      (await db.query('select count(*) from warehouse.outbox where published_at is not null')).rows[0].count,
    );
    expect(published).toBeGreaterThan(1);
    await db.query(
      `update warehouse.outbox set published_at = now() - interval '8 days'
        where id = (select id from warehouse.outbox where published_at is not null limit 1)`,
    );
    const { orm } = stack.replicas.warehouse[0].kit;
    const week = 7 * 24 * 3_600_000;
    expect(await pruneOlderThan(orm, 'warehouse.outbox', 'published_at', week)).toBe(1);
    expect(await pruneOlderThan(orm, 'warehouse.outbox', 'published_at', week)).toBe(0);
    const left = (await db.query('select count(*) from warehouse.outbox where published_at is not null'))
      .rows[0];
    expect(Number(left.count)).toBe(published - 1);
    await db.end();
  });
});
