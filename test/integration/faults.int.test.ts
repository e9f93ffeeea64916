/**
 * Faults under load (issue #12 acceptance): the warehouse service as a real process killed with SIGKILL
 * in the middle of 200 concurrent issue cards, and nats-server restarted under load. Every request must
 * be answered within its deadline, no card half-written, stock and numbering consistent after the
 * restart, and every stored card's event delivered exactly once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@bm/messaging';
import { freePort, startNats } from '@bm/testing/infra';
import { ensureNatsAuth, natsEnv } from '@bm/testing/nats-auth';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithPartner, issue, item, ok, receive, stockOf, warehouse } from '../support/fixtures.js';
import { type Client, type Reply, type Stack, startStack } from '../support/stack.js';

const TIMEOUT_MS = 3000;
const root = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'bm-faults-'));
const auth = ensureNatsAuth(dataDir);
let natsPort: number;
let nats: Awaited<ReturnType<typeof startNats>>;
let stack: Stack;
let c: Client;
let nc: NatsConnection;
let child: ChildProcess | undefined;
let partnerId: string;

/** Starts the warehouse service as its own process (its log in the data folder). */
async function startWarehouseProcess(): Promise<ChildProcess> {
  const p = spawn(process.execPath, ['--import', 'tsx', join(root, 'services/warehouse/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: stack.roleUrls.warehouse,
      NATS_URL: nats.url,
      LOG_LEVEL: 'warn',
      ...natsEnv(auth.creds, 'warehouse'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(dataDir, 'warehouse.log'), { flags: 'a' });
  p.stdout!.pipe(log);
  p.stderr!.pipe(log);
  // Listening once it answers the NATS service ping.
  for (let i = 0; i < 200; i++) {
    const ping = await nc.request('$SRV.PING.warehouse', undefined, { timeout: 200 }).catch(() => undefined);
    if (ping) return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the warehouse process did not start');
}

beforeAll(async () => {
  natsPort = await freePort();
  nats = await startNats(dataDir, undefined, natsPort, undefined, auth.confFile);
  stack = await startStack({
    natsUrl: nats.url,
    natsCredentials: auth.creds,
    replicas: { warehouse: 0 },
    requestTimeoutMs: TIMEOUT_MS,
  });
  nc = await stack.natsConnect('admin');
  child = await startWarehouseProcess();
  ({ c, partnerId } = await companyWithPartner(stack));
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await nc?.close();
  await stack?.stop();
  await nats?.stop();
});

/** A durable consumer of stock-issued events created now; `read` drains it and returns unique event ids by card. */
async function eventTap(name: string) {
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add('EVENTS', {
    durable_name: name,
    filter_subject: 'events.warehouse.stock-issued',
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.New,
  });
  return async (expected: number, ms = 20_000) => {
    const consumer = await jetstream(nc).consumers.get('EVENTS', name);
    const byCard = new Map<string, number>();
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const batch = await consumer.fetch({ max_messages: 500, expires: 1000 });
      for await (const m of batch) {
        const e = m.json<{ issueCardId: string }>();
        byCard.set(e.issueCardId, (byCard.get(e.issueCardId) ?? 0) + 1);
        m.ack();
      }
      if (byCard.size >= expected) {
        // One more look for duplicates.
        const extra = await consumer.fetch({ max_messages: 500, expires: 1000 });
        for await (const m of extra) {
          const e = m.json<{ issueCardId: string }>();
          byCard.set(e.issueCardId, (byCard.get(e.issueCardId) ?? 0) + 1);
          m.ack();
        }
        break;
      }
    }
    return byCard;
  };
}

/** One issue card of one piece of `itemId`. */
const onePiece = (warehouseId: string, itemId: string) =>
  issue(c, { warehouseId, partnerId, dateOperation: '2025-06-02', rows: [{ itemId, quantity: 1 }] });

/** How many replies had each status. */
function countStatuses(done: { r: Reply }[]): Record<number, number> {
  const statuses: Record<number, number> = {};
  for (const { r } of done) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return statuses;
}

/** Fires `n` one-piece issue cards at once; each reply with the time it took. */
function burst(warehouseId: string, itemId: string, n: number) {
  let firstStored!: () => void;
  const first = new Promise<void>((r) => (firstStored = r));
  const all = Promise.all(
    Array.from({ length: n }, async () => {
      const t0 = performance.now();
      const r = await onePiece(warehouseId, itemId);
      // In the same turn as the first 201: whoever waits on it acts before the next answers come in.
      if (r.status === 201) firstStored();
      return { r, ms: performance.now() - t0 };
    }),
  );
  /** Resolves when the first card of the burst is stored (issue #35: a condition, not a fixed window). */
  return Object.assign(all, { firstStored: () => first });
}

/** The stored cards of a warehouse (all pages). */
async function storedCards(warehouseId: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const p = ok(await c.get(`/1.6/warehouses/issue-cards/${page}?warehouseId=${warehouseId}&pageSize=500`));
    out.push(...p.items);
    if (out.length >= p.totalCount || !p.items.length) return out;
  }
}

/** Checks that the stored cards are whole, their numbers gapless from `first`, and stock agrees. */
async function expectConsistent(
  warehouseId: string,
  itemId: string,
  replies: { r: Reply }[],
  stockBefore: number,
) {
  const cards = await storedCards(warehouseId);
  // Every 201 is stored; nothing else is (a 504 may or may not be, as it says).
  const createdIds = new Set(replies.filter(({ r }) => r.status === 201).map(({ r }) => r.body.id));
  for (const id of createdIds) expect(cards.some((k) => k.id === id)).toBe(true);
  for (const card of cards) {
    const full = ok(await c.get(`/1.6/warehouses/issue-cards/${card.id}`));
    // Whole: its one row with quantity 1 and its cost; its entries balance.
    expect(full.rows.map((row: any) => [row.quantity, row.costPrice])).toEqual([[1, 2]]);
    expect(full.totalCost).toBe(2);
  }
  const seqs = cards.map((k) => Number(k.recordNumber.slice(-5))).sort((a, b) => a - b);
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0] + i));
  expect(await stockOf(c, warehouseId, itemId)).toEqual([
    stockBefore - cards.length,
    (stockBefore - cards.length) * 2,
  ]);
  return cards;
}

describe('faults', () => {
  it('SIGKILL of the warehouse in the middle of 200 concurrent issue cards', async () => {
    const w = await warehouse(c);
    const a = await item(c);
    await receive(c, w.id, '2025-06-01', [[a.id, 1000, 2]]);
    const read = await eventTap('faults-kill');
    // A warm process, as in production (the first card of a fresh process compiles its code).
    ok(await onePiece(w.id, a.id), 201);
    const replies = burst(w.id, a.id, 200);
    // Once part of the burst is stored; part is in work, part still waiting.
    await replies.firstStored();
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    child = await startWarehouseProcess();
    const done = await replies;
    const statuses = countStatuses(done);
    console.log(
      `kill -9: ${JSON.stringify(statuses)}, slowest ${Math.max(...done.map((d) => d.ms)).toFixed(0)} ms`,
    );
    // Answered about within the deadline (room for two shared cores), never hanging, never a 500.
    expect(Math.max(...done.map((d) => d.ms))).toBeLessThan(2 * TIMEOUT_MS);
    expect(Object.keys(statuses).every((s) => ['201', '503', '504'].includes(s))).toBe(true);
    expect(statuses[201]).toBeGreaterThan(0);
    const cards = await expectConsistent(w.id, a.id, done, 1000);
    expect(cards.length).toBeGreaterThan(statuses[201]); // the warm-up card too
    // After the restart the service works and numbering goes on without a gap.
    const after = ok(await onePiece(w.id, a.id), 201);
    expect(Number(after.recordNumber.slice(-5))).toBe(
      Math.max(...cards.map((k) => Number(k.recordNumber.slice(-5)))) + 1,
    );
    const events = await read(cards.length + 1);
    expect(events.size).toBe(cards.length + 1);
    expect([...events.values()].every((n) => n === 1)).toBe(true);
    for (const k of cards) expect(events.has(k.id)).toBe(true);
  });

  it('nats-server restarted under load: every stored card is answered or refused, and its event delivered after', async () => {
    const w = await warehouse(c);
    const a = await item(c);
    await receive(c, w.id, '2025-06-01', [[a.id, 1000, 2]]);
    const read = await eventTap('faults-nats');
    const replies = burst(w.id, a.id, 100);
    await replies.firstStored();
    await nats.stop();
    // While NATS is down, the gateway answers 503 at once instead of waiting for its timeout.
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    const down = await onePiece(w.id, a.id);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    // Not its timeout: waiting for it would take at least TIMEOUT_MS, whatever the machine.
    expect(performance.now() - t0).toBeLessThan(TIMEOUT_MS);
    nats = await startNats(dataDir, undefined, natsPort, undefined, auth.confFile);
    const done = [...(await replies), { r: down, ms: 0 }];
    const statuses = countStatuses(done);
    console.log(`nats restart: ${JSON.stringify(statuses)}`);
    expect(Object.keys(statuses).every((s) => ['201', '503', '504'].includes(s))).toBe(true);
    expect(statuses[201]).toBeGreaterThan(0);
    // Wait for the service to be reachable again, then check.
    for (let i = 0; i < 100; i++) {
      if ((await c.get('/1.6/warehouses')).status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const cards = await expectConsistent(w.id, a.id, done, 1000);
    expect(cards.length).toBeGreaterThan(0);
    const events = await read(cards.length);
    expect(events.size).toBe(cards.length);
    expect([...events.values()].every((n) => n === 1)).toBe(true);
  });
});
