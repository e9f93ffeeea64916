/**
 * Traces exported by OTLP/HTTP with JSON bodies (issue #25 "Traces"): with OTEL_EXPORTER_OTLP_ENDPOINT
 * set to a receiver in this test (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), one request's spans from the
 * gateway, the service and PostgreSQL arrive at `POST /v1/traces` under one trace id.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}
const received: {
  path: string;
  contentType: string;
  spans: (OtlpSpan & { scope: string; service: string })[];
}[] = [];
let receiver: Server;
let stack: Stack;
let c: Client;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const doc = JSON.parse(body);
      const spans = doc.resourceSpans.flatMap((rs: any) => {
        const service = rs.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
        return rs.scopeSpans.flatMap((ss: any) =>
          ss.spans.map((s: OtlpSpan) => ({ ...s, scope: ss.scope.name, service })),
        );
      });
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', spans });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
  stack = await startStack();
  c = await stack.company();
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => receiver?.close(r));
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
});

describe('OTLP/HTTP JSON export', () => {
  it('delivers one request’s spans from gateway, service and PostgreSQL under one trace id', async () => {
    const r = await c.get('/1.6/partners');
    expect(r.status).toBe(200);
    const all = () => received.flatMap((x) => x.spans);
    // The batch processor exports about every second.
    await eventually(
      async () => all().find((s) => s.name === 'GET /1.6/partners'),
      (s) => s !== undefined,
    );
    const root = all().find((s) => s.name === 'GET /1.6/partners')!;
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    const trace = await eventually(
      async () => all().filter((s) => s.traceId === root.traceId),
      (t) => t.some((s) => s.scope === '@opentelemetry/instrumentation-pg'),
    );
    const scopes = new Set(trace.map((s) => s.scope));
    expect(scopes).toEqual(new Set(['gateway', 'messaging', '@opentelemetry/instrumentation-pg']));
    expect(trace.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'GET /1.6/partners',
        'send invoicing.partners.list',
        'process invoicing.partners.list',
      ]),
    );
    expect(received.every((x) => x.path === '/v1/traces' && x.contentType === 'application/json')).toBe(true);
  });
});
