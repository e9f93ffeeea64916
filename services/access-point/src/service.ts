/**
 * The access-point connector process (issue #23): connects to NATS as the user `access-point`, consumes
 * `events.invoicing.e-invoice-issued` with a durable consumer, follows transmissions in the network,
 * takes received documents in through its transport, and answers `access-point.participants.get`.
 * No database: what must survive a restart is in invoicing (the delivery state) and in the transport
 * (the transmission, under its derived id).
 */
import {
  type EInvoiceIssuedEvent,
  EInvoiceIssuedEvent as EInvoiceIssuedEventSchema,
  getParticipant,
  InvoiceEventSubjects,
  pendingEInvoiceTransmissions,
} from '@bm/contracts';
import { createLogger, type Logger } from '@bm/logger';
import { connect, incoming, type NatsConnection, request, serve, setJetStreamReplicas } from '@bm/messaging';
import { EVENTS_STREAM, natsOptions, observeConsumer } from '@bm/service-kit';
import {
  consumerRedeliveries,
  extractTrace,
  initTracing,
  inSpan,
  SpanKind,
  shutdownTracing,
  startMetricsServer,
} from '@bm/telemetry';
import { AckPolicy, DeliverPolicy, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Svcm } from '@nats-io/services';
import { CompanyAccess } from './application/company-access.js';
import { companyOf, receiveDocument } from './application/inbound.js';
import { startMailboxPolling } from './application/mailbox.js';
import { MailboxLeases } from './application/mailbox-lease.js';
import { deliver, giveUp, reportOutcome } from './application/outbound.js';
import { serveSettings } from './application/settings-endpoints.js';
import type { AccessPointConfig } from './config.js';
import { folderTransport } from './transports/folder.js';
import { loopbackTransport } from './transports/loopback.js';
import { phossTransport } from './transports/phoss.js';
import { routedTransport, sapiDefaultTransport } from './transports/routed.js';
import { holds } from './transports/sapi/holds.js';
import { CredentialsRefused, RetryLater } from './transports/sapi/send.js';
import type { Transport } from './transports/transport.js';

/** Deliveries of one event before the connector gives up and reports `failed` (default of PEPPOL_SEND_ATTEMPTS). */
export const MAX_ATTEMPTS = 6;

export interface RunningAccessPoint {
  transport: Transport;
  nc: NatsConnection;
  /** The forwarding listener's port (phoss). */
  forwardingPort?: number;
  /** The request subjects it answers. */
  subjects: string[];
  /** The bound port of `GET /metrics`, when METRICS_PORT was set. */
  metricsPort?: number;
  stop(): Promise<void>;
}

function transportOf(
  config: AccessPointConfig,
  nc: NatsConnection,
  onPort: (p: number) => void,
  log: Logger,
): Transport {
  const lookup = (endpoint: string) => companyOf(nc, endpoint);
  switch (config.PEPPOL_AP) {
    case 'phoss':
      return phossTransport({
        url: config.PEPPOL_AP_URL!,
        token: config.PEPPOL_AP_TOKEN!,
        forwardingPort: config.PEPPOL_FORWARDING_PORT,
        forwardingHost: config.HOST,
        forwardingSecret: config.PEPPOL_FORWARDING_SECRET!,
        onListening: onPort,
      });
    case 'folder':
      return folderTransport({
        outbox: config.PEPPOL_OUTBOX_DIR!,
        inbox: config.PEPPOL_INBOX_DIR!,
        companyOf: lookup,
        onError: (e) => log.warn({ err: e.message }, 'inbox scan failed; retrying'),
      });
    case 'sapi':
      return sapiDefaultTransport();
    default:
      return loopbackTransport({ companyOf: lookup });
  }
}

/** Starts the connector; resolves once it consumes. */
export async function startAccessPoint(
  config: AccessPointConfig,
  opts: { logTo?: NodeJS.WritableStream } = {},
): Promise<RunningAccessPoint> {
  initTracing('access-point');
  setJetStreamReplicas(config.NATS_REPLICAS);
  const log = createLogger('access-point', config.LOG_LEVEL ?? 'info', opts.logTo);
  // GET /metrics (issue #25): its requests, the consumer's pending events, the process.
  const metrics =
    config.METRICS_PORT !== undefined
      ? await startMetricsServer(config.METRICS_PORT, config.METRICS_HOST, config.METRICS_PORT_FILE)
      : undefined;
  const nc = await connect(natsOptions(config, 'access-point'));
  let forwardingPort: number | undefined;
  // Issue #35: each company's own access point (SAPI-SK) before the deployment's transport.
  const access = new CompanyAccess(nc, config, log);
  holds.policy = { baseMs: config.SAPI_AUTH_BACKOFF_MS, maxMs: config.SAPI_AUTH_BACKOFF_MAX_MS };
  const transport = routedTransport(
    transportOf(config, nc, (p) => (forwardingPort = p), log),
    access,
  );
  const stopInbound = await transport.startInbound(async (bytes, via) => {
    const r = await receiveDocument(nc, bytes, via);
    log.info(
      {
        via,
        ok: r.ok,
        ...(r.ok
          ? { companyId: r.companyId, recordId: r.recordId, status: r.status, duplicate: r.duplicate }
          : { code: r.code, reason: r.reason }),
      },
      'received document',
    );
    return r;
  });

  const service = await new Svcm(nc).add({ name: 'access-point', version: '1.6.0', queue: 'access-point' });
  serve(
    service,
    getParticipant,
    async ({ peppolId }) => ({ transport: transport.name, registered: await transport.registered(peppolId) }),
    { log, nc, instance: service.info().id },
  );
  serveSettings(service, access, { log, nc, instance: service.info().id });
  const stopMailboxes = startMailboxPolling({
    nc,
    access,
    log,
    pollMs: config.SAPI_POLL_MS,
    timeoutMs: config.SAPI_TIMEOUT_MS,
    includeDefault: config.PEPPOL_AP === 'sapi',
    concurrency: config.SAPI_POLL_CONCURRENCY,
    maxBackoffMs: config.SAPI_AUTH_BACKOFF_MAX_MS,
    leases: new MailboxLeases(nc, config.NATS_REPLICAS ?? 1, crypto.randomUUID(), config.SAPI_LEASE_MS),
  });

  let stopped = false;
  let messages: { stop(): void } | undefined;
  const handle = async (m: JsMsg) => {
    let event: EInvoiceIssuedEvent;
    try {
      event = EInvoiceIssuedEventSchema.parse(
        JSON.parse(new TextDecoder().decode(await incoming(nc, m.data, m.headers))),
      );
    } catch (e) {
      log.error({ err: (e as Error).message, seq: m.seq }, 'not an e-invoice-issued event; dropped');
      m.term();
      return;
    }
    try {
      await deliver(nc, transport, event);
      m.ack();
    } catch (e) {
      const reason = (e as Error).message;
      if (m.info.deliveryCount >= config.PEPPOL_SEND_ATTEMPTS) {
        await giveUp(nc, event, reason, e instanceof RetryLater ? e.code : 'TRANSPORT').then(
          () => m.ack(),
          () => m.nak(30_000),
        );
        log.error({ err: reason, invoiceId: event.invoiceId }, 'e-invoice transmission failed for good');
      } else {
        log.warn(
          { err: reason, invoiceId: event.invoiceId, deliveries: m.info.deliveryCount },
          'e-invoice transmission failed; retrying',
        );
        // Doubling back-off up to 60 s; a provider's Retry-After (429, 503) when it asks for longer. Refused
        // credentials wait in their hold (holds.ts), not here: a held try costs no call, and the invoice
        // is `failed` for AUTH after the retry window, released once the credentials work.
        const backoff = Math.min(config.PEPPOL_RETRY_BASE_MS * 2 ** (m.info.deliveryCount - 1), 60_000);
        const asked =
          e instanceof RetryLater && !(e instanceof CredentialsRefused) ? (e.retryAfterMs ?? 0) : 0;
        m.nak(Math.max(backoff, asked));
      }
    }
  };
  const unobserve = observeConsumer(nc, EVENTS_STREAM, config.PEPPOL_CONSUMER);
  const consume = (async () => {
    while (!stopped) {
      try {
        const jsm = await jetstreamManager(nc, { timeout: 2000 });
        const existing = await jsm.consumers
          .info(EVENTS_STREAM, config.PEPPOL_CONSUMER)
          .catch(() => undefined);
        if (!existing)
          await jsm.consumers.add(EVENTS_STREAM, {
            durable_name: config.PEPPOL_CONSUMER,
            filter_subject: InvoiceEventSubjects.eInvoiceIssued,
            ack_policy: AckPolicy.Explicit,
            deliver_policy: DeliverPolicy.All,
            ack_wait: config.PEPPOL_ACK_WAIT_S * 1_000_000_000,
            max_deliver: config.PEPPOL_SEND_ATTEMPTS + 5,
          });
        const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM, config.PEPPOL_CONSUMER);
        const iter = await consumer.consume({ max_messages: 20 });
        messages = iter;
        // Stopped while this was being set up: end at once instead of consuming.
        if (stopped) iter.stop();
        for await (const m of iter) {
          if (m.info.deliveryCount > 1) consumerRedeliveries.inc({ consumer: config.PEPPOL_CONSUMER });
          await inSpan(
            'events',
            `process ${m.subject}`,
            { kind: SpanKind.CONSUMER, parent: extractTrace(m.headers) },
            () => handle(m),
          );
        }
      } catch (e) {
        if (!stopped) log.warn({ err: (e as Error).message }, 'e-invoice consumer: setup failed; retrying');
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  })();

  // Transmissions in the network are followed until they end (phoss reports the MLS later).
  const nextLook = new Map<string, { at: number; every: number }>();
  const follow = async () => {
    const { items } = await request(
      nc,
      pendingEInvoiceTransmissions,
      { limit: 500 },
      { requestId: crypto.randomUUID() },
    );
    for (const t of items) {
      if (stopped) return;
      // Queued ones may be with the access point already (submitted, not yet in the network).
      if ((t.status !== 'queued' && t.status !== 'sent') || !t.transmissionId) continue;
      const key = `${t.invoiceId}:${t.attempt}`;
      const plan = nextLook.get(key) ?? { at: 0, every: config.PEPPOL_FOLLOW_MS };
      if (plan.at > Date.now()) continue;
      const outcome = await transport.follow({ transmissionId: t.transmissionId });
      const news =
        outcome !== 'unknown' &&
        outcome.status !== 'pending' &&
        !(outcome.status === 'sent' && t.status === 'sent');
      if (news) await reportOutcome(nc, { ...t, transmissionId: t.transmissionId }, outcome);
      if (news && outcome.status !== 'sent') nextLook.delete(key);
      else nextLook.set(key, { at: Date.now() + plan.every, every: Math.min(plan.every * 2, 300_000) });
    }
  };
  let following: Promise<void> = Promise.resolve();
  const followTimer =
    transport.name === 'phoss'
      ? setInterval(() => {
          following = following
            .then(follow)
            .catch((e: Error) => log.warn({ err: e.message }, 'following transmissions failed'));
        }, config.PEPPOL_FOLLOW_MS)
      : undefined;

  log.info({ transport: transport.name, forwardingPort }, 'access-point connector running');
  return {
    transport,
    nc,
    get forwardingPort() {
      return forwardingPort;
    },
    subjects: service.info().endpoints.map((e) => e.subject),
    metricsPort: metrics?.port,
    stop: async () => {
      stopped = true;
      if (followTimer) clearInterval(followTimer);
      messages?.stop();
      await Promise.all([consume, following, stopMailboxes()]);
      access.close();
      await stopInbound();
      await service.stop().catch(() => undefined);
      await nc.drain().catch(() => undefined);
      unobserve();
      await metrics?.close();
      await shutdownTracing();
    },
  };
}
