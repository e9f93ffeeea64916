/**
 * Metrics (issue #25 "Metrics"; docs/operations.md "Metrics"): after one request of each kind every
 * documented metric is on `GET /metrics` with its labels, and the counts move by exactly what was done.
 * The whole stack runs in this process, so one registry holds the gateway's and the services' metrics;
 * `pnpm start` gives each process its own endpoint (start-command.int.test.ts scrapes them).
 */
import { type MetricsServer, startMetricsServer } from '@bm/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issue, item, ok, partner, receive, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;
let metrics: MetricsServer;

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company();
  metrics = await startMetricsServer(0);
});
afterAll(async () => {
  await metrics?.close();
  await stack?.stop();
});

/** The scraped text, parsed to `name{labels}` → value (labels in the order prom-client writes them). */
async function scrape(): Promise<{
  text: string;
  value: (name: string, labels?: Record<string, string>) => number;
}> {
  const res = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
  const value = (name: string, labels: Record<string, string> = {}) => {
    let sum = 0;
    let found = false;
    for (const l of lines) {
      const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(l);
      if (!m || m[1] !== name) continue;
      const have = Object.fromEntries(
        [...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
      );
      if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
        sum += Number(m[4]);
        found = true;
      }
    }
    return found ? sum : Number.NaN;
  };
  return { text, value };
}

describe('GET /metrics', () => {
  it('counts HTTP requests by route template and status, NATS requests both ways by subject and outcome', async () => {
    const before = await scrape();
    const http = (route: string, status: string) => ({
      http_request_method: 'GET',
      http_route: route,
      http_response_status_code: status,
    });
    const was200 =
      before.value('http_server_request_duration_seconds_count', http('/1.6/warehouses', '200')) || 0;
    expect(ok(await c.get('/1.6/warehouses')).items.length).toBeGreaterThan(0);
    const missing = crypto.randomUUID();
    expect((await c.get(`/1.6/warehouses/${missing}`)).status).toBe(404);
    expect((await stack.app.request('/1.6/no-such-thing', { headers: c.headers })).status).toBe(404);
    const after = await scrape();
    expect(after.value('http_server_request_duration_seconds_count', http('/1.6/warehouses', '200'))).toBe(
      was200 + 1,
    );
    // The template, never the id: one series for every warehouse.
    expect(
      after.value('http_server_request_duration_seconds_count', http('/1.6/warehouses/:id', '404')),
    ).toBe(1);
    expect(after.value('http_server_request_duration_seconds_count', http('unmatched', '404'))).toBe(1);
    expect(after.text).not.toContain(missing);
    const list = { messaging_destination_name: 'warehouse.warehouses.list', outcome: 'ok' };
    expect(after.value('messaging_client_operation_duration_seconds_count', list)).toBe(
      (before.value('messaging_client_operation_duration_seconds_count', list) || 0) + 1,
    );
    expect(after.value('messaging_process_duration_seconds_count', list)).toBe(
      (before.value('messaging_process_duration_seconds_count', list) || 0) + 1,
    );
    const get404 = { messaging_destination_name: 'warehouse.warehouses.get', outcome: 'NotFound' };
    expect(after.value('messaging_process_duration_seconds_count', get404)).toBe(1);
    expect(
      after.value('http_server_request_duration_seconds_bucket', {
        ...http('/1.6/warehouses/:id', '404'),
        le: '+Inf',
      }),
    ).toBe(1);
  });

  it('counts credential verifications by result and the guard’s refusals by reason', async () => {
    const before = await scrape();
    const wrong = await stack.app.request('/1.6/warehouses', {
      headers: { ...c.headers, Authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
    const badCompany = await stack.app.request('/1.6/warehouses', {
      headers: { ...c.headers, CompanyID: 'not-a-guid' },
    });
    expect(badCompany.status).toBe(403);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - (before.value(name, labels) || 0);
    expect(moved('bm_auth_verifications_total', { result: 'failed' })).toBe(1);
    expect(moved('bm_auth_refusals_total', { reason: 'company_id' })).toBe(1);
    // The company's client was verified once, when it first called, and is cached since.
    expect(after.value('bm_auth_verifications_total', { result: 'ok' })).toBeGreaterThanOrEqual(1);
  });

  it('shows the group commit, transactions, the pools, the outbox backlog, the consumers and printouts', async () => {
    const wh = await warehouse(c);
    const it1 = await item(c);
    const p = await partner(c);
    await receive(c, wh.id, '2026-11-02', [[it1.id, '10', '2.5000']]);
    const before = await scrape();
    const card = ok(
      await issue(c, {
        warehouseId: wh.id,
        partnerId: p.id,
        dateOperation: '2026-11-03',
        rows: [{ itemId: it1.id, quantity: 2 }],
      }),
      201,
    );
    const pdf = await stack.app.request(`/1.6/reports/IssueCard?output=pdf&recordID=${card.id}`, {
      headers: { ...c.headers, Accept: 'application/pdf' },
    });
    expect(pdf.status).toBe(200);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      after.value(name, labels) - (before.value(name, labels) || 0);
    // One card: one more document in a group commit (its group size and its wait observed once each).
    expect(moved('bm_group_commit_group_size_sum')).toBe(1);
    expect(moved('bm_group_commit_wait_seconds_count')).toBe(1);
    expect(moved('bm_db_transaction_duration_seconds_count', { outcome: 'commit' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(moved('bm_printout_render_duration_seconds_count', { outcome: 'ok' })).toBe(1);
    expect(after.value('bm_printout_render_queue_depth', { state: 'admitted' })).toBe(0);
    expect(after.value('bm_printout_render_queue_depth', { state: 'waiting_for_thread' })).toBe(0);
    for (const schema of ['warehouse', 'invoicing', 'reporting', 'identity']) {
      expect(after.value('db_client_connection_max', { db_client_connection_pool_name: schema })).toBe(10);
      expect(
        after.value('db_client_connection_count', { db_client_connection_pool_name: schema }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        after.value('db_client_connection_pending_requests', { db_client_connection_pool_name: schema }),
      ).toBe(0);
    }
    for (const schema of ['warehouse', 'invoicing']) {
      expect(after.value('bm_outbox_backlog_events', { db_namespace: schema })).toBeGreaterThanOrEqual(0);
      expect(
        after.value('bm_outbox_oldest_event_age_seconds', { db_namespace: schema }),
      ).toBeGreaterThanOrEqual(0);
    }
    // The outbox backlog moves: held, the card's event waits; released, it is published.
    const relay = stack.replicas.warehouse[0].relay()!;
    await relay.flush();
    relay.pause();
    try {
      ok(
        await issue(c, {
          warehouseId: wh.id,
          partnerId: p.id,
          dateOperation: '2026-11-03',
          rows: [{ itemId: it1.id, quantity: 1 }],
        }),
        201,
      );
      expect((await scrape()).value('bm_outbox_backlog_events', { db_namespace: 'warehouse' })).toBe(1);
    } finally {
      relay.resume();
    }
    await relay.flush();
    expect((await scrape()).value('bm_outbox_backlog_events', { db_namespace: 'warehouse' })).toBe(0);
    // The invoicing service's durable consumer of stock-issued events.
    const consumer = { consumer: 'invoicing-stock-issued' };
    expect(
      after.value('bm_consumer_pending_messages', { ...consumer, state: 'undelivered' }),
    ).toBeGreaterThanOrEqual(0);
    expect(after.text).toContain('# TYPE bm_consumer_redeliveries_total counter');
    // prom-client's process defaults.
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(after.value(name)).toBeGreaterThanOrEqual(0);
  });
});
