/**
 * OpenTelemetry traces (issue #25 "Traces"; docs/operations.md "Traces"). Off unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, or a test passes an
 * exporter: then spans go by OTLP/HTTP with JSON bodies (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`; the
 * exporter reads the endpoint, headers and timeout variables itself) through a batch processor.
 *
 * The W3C `traceparent` travels in HTTP headers into the gateway, in NATS request headers from process to
 * process, and in the outbox row of an event to its consumers (AsyncAPI: message header `traceparent`).
 * PostgreSQL statements become child spans through `@opentelemetry/instrumentation-pg`.
 */
import { createRequire } from 'node:module';
import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

export { SpanKind, SpanStatusCode } from '@opentelemetry/api';
export { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';

let provider: TracerProvider | undefined;

/** What `inSpan` hands over while tracing is off: records nothing. */
const NOOP_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** True once {@link initTracing} turned tracing on in this process. */
export const tracingOn = (): boolean => provider !== undefined;

/**
 * Turns tracing on for this process, once: W3C trace-context propagation, async context, the pg
 * instrumentation, and the exporter: `opts.exporter` (tests; spans exported one by one) or OTLP/HTTP JSON
 * when `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set. Without either it does
 * nothing and every span below is a no-op. Later calls return the first call's answer.
 * @returns whether tracing is on
 */
export function initTracing(
  serviceName: string,
  opts: { exporter?: SpanExporter; env?: Record<string, string | undefined> } = {},
): boolean {
  if (provider) return true;
  const env = opts.env ?? process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!opts.exporter && !endpoint) return false;
  const processor: SpanProcessor = opts.exporter
    ? new SimpleSpanProcessor({ exporter: opts.exporter })
    : new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), scheduledDelayMillis: 1000 });
  provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || serviceName,
      'service.instance.id': `${serviceName}-${process.pid}`,
    }),
    spanProcessors: [processor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    instrumentations: [new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false })],
  });
  // pg is CommonJS; the ORM imports it through its ESM wrapper, which the require hook does not see. Loading
  // it once through `require` lets the instrumentation patch the shared Client prototype.
  createRequire(import.meta.url)('pg');
  return true;
}

/** Flushes and stops the exporter (process stop); resolves at once when tracing is off. */
export async function shutdownTracing(): Promise<void> {
  await provider?.shutdown().catch(() => undefined);
}

/** The W3C `traceparent` of the active span, for an outbox row; undefined when none is recording. */
export function currentTraceparent(): string | undefined {
  if (!provider) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Something with string headers to write to (NATS `MsgHdrs`, a plain record). */
export interface HeaderSink {
  set(name: string, value: string): void;
}
/** Something with string headers to read (NATS `MsgHdrs`, fetch `Headers`). */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

/** Writes the active context's `traceparent` (and `tracestate`) into `h`; nothing when tracing is off. */
export function injectTrace(h: HeaderSink, ctx: Context = context.active()): void {
  if (!provider) return;
  propagation.inject(ctx, h, { set: (c, k, v) => c.set(k, v) });
}

/** The context carried by `h`'s `traceparent`, on top of the active one. */
export function extractTrace(h: HeaderSource | undefined): Context {
  if (!provider || !h) return context.active();
  return propagation.extract(context.active(), h, {
    get: (c, k) => c.get(k) ?? undefined,
    keys: () => ['traceparent', 'tracestate'],
  });
}

/** The context carried by a stored `traceparent` string (an outbox row, an event header). */
export function contextOfTraceparent(traceparent: string | null | undefined): Context {
  if (!provider || !traceparent) return context.active();
  return extractTrace({ get: (k) => (k === 'traceparent' ? traceparent : undefined) });
}

/**
 * Runs `fn` inside a new span of `tracer` named `name`, child of `parent` (default: the active context);
 * the span ends when `fn` settles and records a thrown error. When tracing is off the cost is one no-op
 * span.
 */
export async function inSpan<T>(
  tracer: string,
  name: string,
  o: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  if (!provider) return fn(NOOP_SPAN);
  const parent = o.parent ?? context.active();
  const span = trace
    .getTracer(tracer)
    .startSpan(name, { kind: o.kind ?? SpanKind.INTERNAL, attributes: o.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (e) {
    span.recordException(e as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: String((e as Error)?.message ?? e) });
    throw e;
  } finally {
    span.end();
  }
}

/** `trace_id` and `span_id` of the active span for a log record (pino mixin); empty when none. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  if (!provider) return {};
  const s = trace.getActiveSpan()?.spanContext();
  return s && trace.isSpanContextValid(s) ? { trace_id: s.traceId, span_id: s.spanId } : {};
}
