/**
 * Traces (issue #25 "Traces"; docs/operations.md "Traces"): one HTTP request is one trace, with the
 * gateway's server span, its NATS client span, the service's server span and the PostgreSQL statements
 * under it, all sharing the trace id; a caller's `traceparent` is continued; an event carries the trace
 * to its consumer. Spans go to an in-memory exporter (the whole stack runs in this process);
 * telemetry-otlp.int.test.ts sends them by OTLP/HTTP JSON.
 */
import { Writable } from 'node:stream';
import { createLogger } from '@bm/logger';
import { InMemorySpanExporter, initTracing, inSpan, type ReadableSpan } from '@bm/telemetry';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, issue, item, ok, partner, receive, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

const exporter = new InMemorySpanExporter();
let stack: Stack;
let c: Client;

beforeAll(async () => {
  // Before any service starts: the first call of the process decides.
  expect(initTracing('test', { exporter })).toBe(true);
  stack = await startStack();
  c = await stack.company();
});
afterAll(() => stack?.stop());

const scope = (s: ReadableSpan) => s.instrumentationScope.name;
const spansOf = (traceId: string) =>
  exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

describe('traces', () => {
  it('puts the active span’s trace_id and span_id on every log line written inside it', async () => {
    const lines: string[] = [];
    const log = createLogger(
      'test',
      'info',
      new Writable({ write: (chunk, _e, cb) => cb(void lines.push(String(chunk))) }),
    );
    let ids: { traceId: string; spanId: string } | undefined;
    await inSpan('test', 'a span', {}, async (span) => {
      ids = span.spanContext();
      log.info('inside');
    });
    log.info('outside');
    const [inside, outside] = lines.map((l) => JSON.parse(l));
    expect(inside).toMatchObject({ msg: 'inside', trace_id: ids!.traceId, span_id: ids!.spanId });
    expect(outside.trace_id).toBeUndefined();
  });

  it('follows one request from the gateway over NATS into the warehouse and its PostgreSQL statements', async () => {
    exporter.reset();
    const r = await c.get('/1.6/warehouses');
    expect(r.status).toBe(200);
    const root = exporter
      .getFinishedSpans()
      .find((s) => scope(s) === 'gateway' && s.name === 'GET /1.6/warehouses');
    expect(root).toBeDefined();
    expect(parentOf(root!)).toBeUndefined();
    expect(root!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/1.6/warehouses',
      'http.response.status_code': 200,
    });
    const trace = spansOf(root!.spanContext().traceId);
    const send = trace.find((s) => s.name === 'send warehouse.warehouses.list');
    const process = trace.find((s) => s.name === 'process warehouse.warehouses.list');
    const sql = trace.filter(
      (s) => scope(s) === '@opentelemetry/instrumentation-pg' && s.name.startsWith('pg.query'),
    );
    expect(parentOf(send!)).toBe(root!.spanContext().spanId);
    // The service continued the trace from the NATS headers.
    expect(parentOf(process!)).toBe(send!.spanContext().spanId);
    expect(sql.length).toBeGreaterThanOrEqual(1);
    const inProcess = new Set([process!.spanContext().spanId, ...trace.map((s) => s.spanContext().spanId)]);
    expect(sql.every((s) => inProcess.has(parentOf(s)!))).toBe(true);
    expect(
      sql.some((s) =>
        String(s.attributes['db.query.text'] ?? s.attributes['db.statement']).includes('warehouse'),
      ),
    ).toBe(true);
  });

  it('continues a caller’s traceparent and carries the trace through an event to its consumer', async () => {
    const wh = await warehouse(c);
    const it1 = await item(c);
    const p = await partner(c);
    await receive(c, wh.id, '2026-11-02', [[it1.id, '5', '1.0000']]);
    exporter.reset();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const card = ok(
      await issue(
        c,
        {
          warehouseId: wh.id,
          partnerId: p.id,
          dateOperation: '2026-11-03',
          rows: [{ itemId: it1.id, quantity: 1 }],
        },
        { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      ),
      201,
    );
    expect(card.recordNumber).toMatch(/^VY/);
    const root = spansOf(traceId).find((s) => scope(s) === 'gateway');
    expect(parentOf(root!)).toBe('00f067aa0ba902b7');
    // The outbox row kept the trace; the relay sent it in the event's headers; invoicing's consumer
    // handled the stock-issued event inside the same trace.
    const consumed = await eventually(
      async () => spansOf(traceId).find((s) => s.name === 'process events.warehouse.stock-issued'),
      (s) => s !== undefined,
    );
    expect(consumed?.attributes['messaging.consumer.group.name']).toBe('invoicing-stock-issued');
    expect(spansOf(traceId).some((s) => s.name === 'process warehouse.issue-cards.create')).toBe(true);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const { rows } = await db
      .query(`select trace_parent from warehouse.outbox where payload->>'issueCardId' = $1`, [card.id])
      .finally(() => db.end());
    expect(rows[0].trace_parent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });
});
