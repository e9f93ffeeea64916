/**
 * PostgreSQL failover (issue #46; docs/operations.md "PostgreSQL cluster"): the stack runs on a local
 * three-node Patroni cluster behind HAProxy (pg-cluster.ts). Under 16 connections issuing issue cards and
 * sales invoices, the primary's postmaster is SIGKILLed at a moment set by the load, then its Patroni:
 * every request (each with an Idempotency-Key, so the gateway's own database is written too) is answered
 * 201, 503 or 504 (no 500, none unanswered); every 201 document is on the new
 * primary with its number and figures; writes succeed again (the time is measured and printed); the
 * failed node rejoins as a standby; the books are consistent (`pnpm check`'s checks: numbering gapless and
 * unique, stock, outbox); every stored card's event is delivered once. A planned switchover under the
 * same load answers nothing but 201 and 503 (the 503s' span is printed).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENTS_STREAM } from '@bm/service-kit';
import { memberName, type PgCluster, startPgCluster } from '@bm/testing/pg-cluster';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks } from '../../scripts/ops/consistency.js';
import type { RunningAccessPoint } from '../../services/access-point/src/service.js';
import {
  eventually,
  issue,
  item,
  OTHER_SELLER,
  ok,
  partner,
  receive,
  SLOVAK_SELLER,
  warehouse,
} from '../support/fixtures.js';
import { issueTo } from '../support/sapi-helpers.js';
import { type Client, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

let cluster: PgCluster;
let stack: Stack;
let c: Client;
let admin: NatsConnection;
let wh: string;
let it1: string;
let p: string;
/** Two companies of a Peppol loopback network (issue #23) and the connector: delivery after the failovers. */
let seller: Client;
let buyer: Client;
let ap: RunningAccessPoint;

beforeAll(async () => {
  cluster = await startPgCluster({ dataDir: mkdtempSync(join(tmpdir(), 'bm-pg-cluster-')), durable: false });
  // The gateway's deadline as in production (5 s): a request in flight at the kill ends 503 or 504.
  stack = await startStack({ pgUrl: cluster.url, requestTimeoutMs: 5000 });
  c = await stack.company();
  admin = await stack.natsConnect('admin');
  wh = (await warehouse(c)).id;
  it1 = (await item(c)).id;
  p = (await partner(c)).id;
  await receive(c, wh, '2026-11-02', [[it1, '100000', '2.5000']]);
  seller = await stack.company({ ...OTHER_SELLER, peppolId: '0245:2021111111' });
  buyer = await stack.company({ ...SLOVAK_SELLER, peppolId: '0245:2020123456' });
  ap = await stack.startAccessPoint();
}, 240_000);
/**
 * Runs one teardown step, giving up on it after 45 s (and saying which): a step stuck on the cluster (CI
 * once spent the whole hook timeout here) must not keep the cluster's servers from being stopped.
 */
async function bounded(what: string, step: () => Promise<unknown> | undefined): Promise<void> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = await Promise.race([
    Promise.resolve(step()).then(
      () => false,
      () => false,
    ),
    new Promise<boolean>((r) => {
      timer = setTimeout(() => r(true), 45_000);
    }),
  ]);
  clearTimeout(timer);
  const ms = performance.now() - t0;
  if (gaveUp || ms > 10_000)
    console.log(`[pg-failover] teardown: ${what} ${gaveUp ? 'gave up after' : 'took'} ${Math.round(ms)} ms`);
}
afterAll(async () => {
  await bounded('the access point', () => ap?.stop());
  await bounded('the admin connection', () => admin?.close());
  await bounded('the stack', () => stack?.stop());
  // Not bounded: the cluster's stop ends its servers itself (SIGKILL after each one's grace).
  await cluster?.stop();
}, 240_000);

interface Answer {
  at: number;
  status: number;
  kind: 'card' | 'invoice';
  id?: string;
  recordNumber?: string;
  figure?: number | string;
  /** A refusal's problem `detail`. */
  detail?: string;
}

/** A problem answer's `detail` (problem+json is text to the test client). */
function detailOf(r: { status: number; text: string }): string | undefined {
  if (r.status === 201) return undefined;
  try {
    return (JSON.parse(r.text) as { detail?: string }).detail ?? r.text.slice(0, 160);
  } catch {
    return r.text.slice(0, 80);
  }
}

/** Every write carries an Idempotency-Key, as clients should: the gateway's own database is then written too. */
const keyed = () => ({ 'Idempotency-Key': crypto.randomUUID() });

/** One document: even workers issue cards, odd ones sales invoices. */
async function write(worker: number): Promise<Omit<Answer, 'at'>> {
  if (worker % 2 === 0) {
    const r = await issue(
      c,
      {
        warehouseId: wh,
        partnerId: p,
        dateOperation: '2026-11-03',
        rows: [{ itemId: it1, quantity: 1 }],
      },
      keyed(),
    );
    return {
      status: r.status,
      kind: 'card',
      id: r.body?.id,
      recordNumber: r.body?.recordNumber,
      figure: r.body?.totalCost,
      detail: detailOf(r),
    };
  }
  const r = await c.post(
    '/1.6/sales/invoices',
    unchecked({
      ordnerCode: 'OF',
      warehouseId: wh,
      partnerId: p,
      dateCreated: '2026-11-03',
      rows: [{ name: 'Služba', quantity: 2, price: 10.5, vatRate: 23 }],
    }),
    keyed(),
  );
  if (r.status === 400) throw new Error(r.text);
  return {
    status: r.status,
    kind: 'invoice',
    id: r.body?.id,
    recordNumber: r.body?.recordNumber,
    figure: r.body?.sumTotal,
    detail: detailOf(r),
  };
}

/**
 * Runs 16 writers until `disrupt` (started once 40 documents are stored) has finished and 40 more were
 * stored after that (at most 150 s in all); returns every answer and when the disruption began.
 */
async function underLoad(disrupt: () => Promise<void>): Promise<{ answers: Answer[]; at: number }> {
  const answers: Answer[] = [];
  const stored = () => answers.filter((a) => a.status === 201).length;
  const t0 = performance.now();
  let at = Number.POSITIVE_INFINITY;
  let storedAfter = Number.POSITIVE_INFINITY;
  const disruptor = (async () => {
    while (stored() < 40 && performance.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 20));
    at = performance.now() - t0;
    await disrupt();
    storedAfter = stored();
  })();
  const running = () => performance.now() - t0 < 150_000 && stored() < storedAfter + 40;
  const worker = async (w: number) => {
    while (running()) {
      const a = await write(w);
      answers.push({ ...a, at: performance.now() - t0 });
      if (a.status !== 201) await new Promise((r) => setTimeout(r, 100));
    }
  };
  await Promise.all([...Array.from({ length: 16 }, (_, w) => worker(w)), disruptor]);
  return { answers, at };
}

/** Every 201 document read back from the (new) primary with the number and figure it was answered with. */
async function readBack(answers: Answer[]): Promise<void> {
  for (const a of answers.filter((x) => x.status === 201)) {
    const path = a.kind === 'card' ? `/1.6/warehouses/issue-cards/${a.id}` : `/1.6/sales/invoices/${a.id}`;
    const doc = ok(await c.get(path as '/1.6/warehouses/issue-cards/{id}'));
    expect([doc.recordNumber, a.kind === 'card' ? doc.totalCost : doc.sumTotal]).toEqual([
      a.recordNumber,
      a.figure,
    ]);
  }
  const numbers = answers.filter((x) => x.status === 201).map((x) => `${x.kind}:${x.recordNumber}`);
  expect(new Set(numbers).size).toBe(numbers.length);
}

const summary = (what: string, answers: Answer[], at: number) => {
  const refused = answers.filter((a) => a.status !== 201);
  const after = refused.filter((a) => a.at >= at);
  const firstOk = answers.find((a) => a.at > (after.at(-1)?.at ?? at) && a.status === 201)?.at ?? Number.NaN;
  const span = after.length ? after.at(-1)!.at - after[0].at : 0;
  console.log(
    `[pg-failover] ${what}: ${answers.length} requests, ${answers.length - refused.length} × 201, ` +
      `${refused.length} refused (${[...new Set(refused.map((a) => a.status))].join(', ') || 'none'}) over ${Math.round(span)} ms; ` +
      `writes back ${Math.round(firstOk - at)} ms after it began`,
  );
  // What the refusals said, with when (ms after the disruption began) the first and the last came.
  const reasons = new Map<string, number[]>();
  for (const a of refused)
    reasons.set(`${a.status} ${a.detail}`, [...(reasons.get(`${a.status} ${a.detail}`) ?? []), a.at - at]);
  for (const [reason, ats] of reasons)
    console.log(
      `[pg-failover]   ${ats.length} × ${reason} (+${Math.round(ats[0])} … +${Math.round(ats.at(-1)!)} ms)`,
    );
  return { refused, firstOkAfter: firstOk - at };
};

describe('PostgreSQL cluster failover (issue #46)', () => {
  it('loses no acknowledged document and answers no 500 when the primary is killed under load', async () => {
    const jsm = await jetstreamManager(admin);
    const durable = `pg-failover-${crypto.randomUUID().slice(0, 8)}`;
    await jsm.consumers.add(EVENTS_STREAM, {
      durable_name: durable,
      filter_subject: 'events.warehouse.stock-issued',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
    });
    const victim = (await cluster.primary())!;
    expect(victim).toBeGreaterThanOrEqual(0);
    // The readiness probe while it happens: what it says of the database, and since when.
    const probes: { database: string; databaseSince?: string }[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        probes.push(await (await stack.app.request('/health/ready')).json());
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const { answers, at } = await underLoad(async () => {
      // The primary's PostgreSQL, then (before Patroni can restart it) its Patroni: a failover.
      process.kill(cluster.postmasterPid(victim)!, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      cluster.killPatroni(victim);
    });
    probing = false;
    await prober;
    // Not writable during the failover (unreachable, or a standby answering read-only), saying since when; writable after.
    const down = probes.filter((p) => p.database !== 'ok');
    expect(down.length).toBeGreaterThan(0);
    expect(down.every((p) => ['unreachable', 'read-only'].includes(p.database) && !!p.databaseSince)).toBe(
      true,
    );
    expect(probes.at(-1)).toMatchObject({ database: 'ok' });
    expect(probes.at(-1)?.databaseSince).toBeUndefined();
    const { refused } = summary('SIGKILL of the primary and its Patroni', answers, at);
    expect(refused.filter((a) => ![503, 504].includes(a.status))).toEqual([]);
    expect(answers.filter((a) => a.at > at && a.status === 201).length).toBeGreaterThanOrEqual(40);
    const primary = await cluster.primary();
    expect(primary).not.toBe(victim);
    await readBack(answers);

    // The failed node rejoins as a standby (its Patroni is started again once its leader key expired).
    const members = await eventually(
      () => cluster.members(),
      (m) => m.some((x) => x.name === memberName(victim) && x.state === 'running' && x.role !== 'leader'),
      90_000,
    );
    expect(members.find((x) => x.name === memberName(victim))?.role).toMatch(/replica|sync_standby/);

    // `pnpm check`'s checks on the new primary: numbering gapless and unique, stock, outbox.
    const checks = await runChecks(stack.databaseUrl);
    expect(checks.findings).toEqual([]);

    // Every stored card's event once (a card answered 504 may be stored too: its outcome is unknown to the client).
    const cards = new Set(answers.filter((a) => a.kind === 'card' && a.status === 201).map((a) => a.id!));
    const seen = new Map<string, Set<number>>();
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && [...cards].some((id) => !seen.has(id))) {
      const consumer = await jetstream(admin).consumers.get(EVENTS_STREAM, durable);
      for await (const m of await consumer.fetch({ max_messages: 500, expires: 1000 })) {
        const id = (m.json() as { issueCardId: string }).issueCardId;
        seen.set(id, (seen.get(id) ?? new Set()).add(m.seq));
        m.ack();
      }
    }
    expect([...cards].filter((id) => !seen.has(id))).toEqual([]);
    expect([...seen].filter(([, seqs]) => seqs.size > 1)).toEqual([]);
  }, 300_000);

  it('answers nothing but 201 and 503 through a planned switchover under load', async () => {
    const before = await cluster.primary();
    // Both standbys streaming again (the previous test's node rejoined), so the switchover has a candidate.
    await eventually(
      () => cluster.members(),
      (m) => m.filter((x) => x.state === 'running').length === 3 && m.some((x) => x.role === 'sync_standby'),
      90_000,
    );
    // The switchover is over once another node is the primary.
    const { answers, at } = await underLoad(async () => {
      await cluster.switchover();
      await eventually(
        () => cluster.primary(),
        (x) => x !== undefined && x !== before,
        60_000,
      );
    });
    const { refused } = summary('switchover', answers, at);
    expect(refused.filter((a) => a.status !== 503)).toEqual([]);
    expect(await cluster.primary()).not.toBe(before);
    await readBack(answers);
    expect((await runChecks(stack.databaseUrl)).findings).toEqual([]);
  }, 300_000);

  it('delivers an e-invoice issued after the failovers, without a restart of any process', async () => {
    const { inv: sale } = await issueTo(seller, (await warehouse(seller)).id, '0245:2020123456');
    expect(sale.sumTotal).toBe(61.5);
    const delivered = await eventually(
      async () => ok(await seller.get(`/1.6/sales/invoices/${sale.id}`)),
      (inv) => inv.eInvoice.status === 'delivered',
      30_000,
    );
    expect(delivered.eInvoice.status).toBe('delivered');
    // The buyer booked it with the seller's figures.
    const booked = await eventually(
      async () => ok(await buyer.get('/1.6/purchase/invoices')).items as any[],
      (items) => items.length > 0,
      30_000,
    );
    expect(booked.map((i) => i.sumTotal)).toEqual([61.5]);
  }, 120_000);
});
