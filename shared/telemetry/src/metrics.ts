/**
 * Prometheus metrics of every process (issue #25 "Metrics"; docs/operations.md "Metrics"). One registry
 * per process with prom-client's process defaults (CPU, memory, event-loop delay) and the instruments
 * below. Names follow the OpenTelemetry semantic conventions where one exists (`http.server.request.duration`
 * → `http_server_request_duration_seconds`, `messaging.process.duration`, `messaging.client.operation.duration`,
 * `db.client.connection.*`); the project's own carry the `bm_` prefix. Durations are seconds.
 *
 * Labels stay low in cardinality: route templates (never raw paths), NATS subjects, outcomes. No company id.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The process's registry: what `GET /metrics` serves. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Buckets (s) for request-like durations: 1 ms … 10 s. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Gateway: one observation per HTTP request, by route template, method and status (OTel http.server.request.duration). */
export const httpServerDuration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Duration of HTTP server requests (gateway), by route template, method and status',
  labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Gateway: credential verifications (a password hash computed), by result `ok` | `failed`. */
export const authVerifications = new Counter({
  name: 'bm_auth_verifications_total',
  help: 'Credential verifications that computed a password hash, by result',
  labelNames: ['result'] as const,
  registers: [registry],
});

/**
 * Gateway: requests refused by the authentication guard before any hash, by reason (`address_rate`,
 * `address_budget`, `pair_budget`, `username_under_attack`, `queue_full`, `company_id`).
 */
export const authRefusals = new Counter({
  name: 'bm_auth_refusals_total',
  help: 'Requests refused by the authentication guard, by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/** The gateway: authentication refusals held by the tarpit before they were answered (issue #46). */
export const authRefusalsHeld = new Counter({
  name: 'bm_auth_tarpit_held_total',
  help: 'Authentication refusals (429) of sources over their budget that were held before the answer',
  registers: [registry],
});

/** Every process: NATS requests it sent, by subject and outcome (OTel messaging.client.operation.duration). */
export const messagingClientDuration = new Histogram({
  name: 'messaging_client_operation_duration_seconds',
  help: 'Duration of NATS requests sent by this process, by subject and outcome (ok or the error code)',
  labelNames: ['messaging_destination_name', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Services: NATS requests handled, by subject and outcome (OTel messaging.process.duration). */
export const messagingProcessDuration = new Histogram({
  name: 'messaging_process_duration_seconds',
  help: 'Duration of NATS requests handled by this process, by subject and outcome (ok or the error code)',
  labelNames: ['messaging_destination_name', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Services: documents committed together by one group commit (DESIGN §5, service-kit group-commit.ts). */
export const groupCommitSize = new Histogram({
  name: 'bm_group_commit_group_size',
  help: 'Documents written by one group-commit transaction',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128],
  registers: [registry],
});

/** Services: how long a document waited for its group's transaction to begin, seconds. */
export const groupCommitWait = new Histogram({
  name: 'bm_group_commit_wait_seconds',
  help: 'Time a document waited in the group-commit queue before its group began',
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Services and gateway: database transactions, by outcome `commit` | `rollback`. */
export const dbTransactionDuration = new Histogram({
  name: 'bm_db_transaction_duration_seconds',
  help: 'Duration of database transactions, by outcome',
  labelNames: ['outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Services: the JetStream redeliveries a durable consumer received (delivery count > 1), by consumer. */
export const consumerRedeliveries = new Counter({
  name: 'bm_consumer_redeliveries_total',
  help: 'Events delivered again to a durable consumer after a failed or unacknowledged delivery',
  labelNames: ['consumer'] as const,
  registers: [registry],
});

/**
 * Access-point connector (issue #43): failed contacts with a company's access point, by SAPI-SK category
 * (`AUTH`, `VALIDATION`, `PROCESSING`, `TEMPORARY`, `PERMANENT`, `NETWORK`, `UNRECOGNISED`) and operation
 * (`send`, `poll`, `test`). `AUTH` counts refused credentials, `UNRECOGNISED` answers of an unknown shape.
 */
export const accessPointErrors = new Counter({
  name: 'bm_access_point_errors_total',
  help: 'Failed contacts with an access point, by category and operation',
  labelNames: ['category', 'operation'] as const,
  registers: [registry],
});

/** Reporting: printout render time (seconds), by outcome `ok` | `failed` | `cancelled`. */
export const renderDuration = new Histogram({
  name: 'bm_printout_render_duration_seconds',
  help: 'Printout render time, by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

type Reading<L extends string> = { labels?: Partial<Record<L, string>>; value: number };
const scraped = new Map<string, { gauge: Gauge<string>; readers: Set<() => Promise<Reading<string>[]>> }>();

/**
 * Adds a reader to the gauge `name`, whose values are read when Prometheus scrapes: `read` returns one
 * value per label set. Several readers may feed one gauge (the services of an in-process test stack;
 * their label sets must differ). A failing read (e.g. the database down) leaves its values out of that
 * scrape instead of failing it. Returns the function that removes the reader (on stop).
 */
export function scrapeGauge<L extends string>(o: {
  name: string;
  help: string;
  labelNames?: readonly L[];
  read: () => Promise<Reading<L>[]>;
}): () => void {
  let entry = scraped.get(o.name);
  if (!entry) {
    const readers = new Set<() => Promise<Reading<string>[]>>();
    const gauge = new Gauge<string>({
      name: o.name,
      help: o.help,
      labelNames: [...(o.labelNames ?? [])] as string[],
      registers: [registry],
      async collect() {
        this.reset();
        const all = await Promise.all([...readers].map((r) => r().catch(() => [])));
        for (const v of all.flat()) {
          if (v.labels) this.set(v.labels as Record<string, string>, v.value);
          else this.set(v.value);
        }
      },
    });
    entry = { gauge, readers };
    scraped.set(o.name, entry);
  }
  const read = o.read as () => Promise<Reading<string>[]>;
  entry.readers.add(read);
  const { readers } = entry;
  return () => void readers.delete(read);
}

/** Runs `fn` and observes its duration (seconds) in `h` with the labels `labelsOf` gives for its result. */
export async function timed<T, L extends string>(
  h: Histogram<L>,
  fn: () => Promise<T>,
  labelsOf: (error: unknown) => Partial<Record<L, string>>,
): Promise<T> {
  const end = h.startTimer();
  try {
    const r = await fn();
    end(labelsOf(undefined) as any);
    return r;
  } catch (e) {
    end(labelsOf(e) as any);
    throw e;
  }
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format 0.0.4) on its own port, apart from any public API
 * (issue #25: "each process on its own port"). `port` 0 takes a free one; the bound port is returned,
 * and written to `portFile` when one is given (issue #43: the launcher learns what was bound).
 * @throws the listen error (e.g. EADDRINUSE)
 */
export function startMetricsServer(
  port: number,
  host = '127.0.0.1',
  portFile?: string,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${e.message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const a = server.address();
      const bound = typeof a === 'object' && a ? a.port : port;
      if (portFile) {
        writeFileSync(`${portFile}.tmp`, `${bound}\n`);
        renameSync(`${portFile}.tmp`, portFile);
      }
      resolve({
        port: bound,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
