/** Configuration of the access-point connector (issue #23), parsed once from the environment. */
import { AccessPointTransport } from '@bm/contracts';
import { parseEnv, ServiceEnv } from '@bm/service-kit';
import { z } from 'zod';
import { keyBytes } from './domain/secrets.js';

export const AccessPointEnv = ServiceEnv.pick({
  NATS_URL: true,
  LOG_LEVEL: true,
  NATS_USER: true,
  NATS_PASSWORD: true,
  METRICS_PORT: true,
  NATS_REPLICAS: true,
  METRICS_HOST: true,
  METRICS_PORT_FILE: true,
}).extend({
  /** Which access point carries the documents: `loopback` (this stack is the network), `phoss`, `folder`. */
  PEPPOL_AP: AccessPointTransport.default('loopback'),
  /** phoss-ap's base URL and API token (`X-Token`). */
  PEPPOL_AP_URL: z.string().url().optional(),
  PEPPOL_AP_TOKEN: z.string().min(1).optional(),
  /** The forwarding listener (`POST /peppol/inbound`) for phoss-ap's `http_post_sync`. */
  PEPPOL_FORWARDING_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  /** The shared secret phoss-ap sends as `Authorization: Bearer …` (a custom forwarding header). */
  PEPPOL_FORWARDING_SECRET: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  /** Bind address of the forwarding listener (loopback unless set). */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The folder provider's directories. */
  PEPPOL_OUTBOX_DIR: z.string().min(1).optional(),
  PEPPOL_INBOX_DIR: z.string().min(1).optional(),
  /** Name of the durable consumer of issued e-invoices (one per installation sharing a NATS server). */
  PEPPOL_CONSUMER: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('access-point-e-invoice-issued'),
  /** How long an unacknowledged issued event waits before it is delivered again, s. */
  PEPPOL_ACK_WAIT_S: z.coerce.number().int().min(1).max(3600).default(60),
  /** How often transmissions in the network are followed (phoss), ms; doubled per transmission up to 5 min. */
  PEPPOL_FOLLOW_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  /**
   * Sending retries (issue #35): deliveries of one issued event before it is `failed`, and the first
   * back-off (doubled per try up to 60 s; a provider's `Retry-After` is honoured). 6 tries from 4 s give
   * up after about two minutes.
   */
  PEPPOL_SEND_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  PEPPOL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(4000),
  /** SAPI-SK 1.0 (issue #35): the deployment's default provider, for companies on `default`. */
  SAPI_URL: z.string().url().optional(),
  SAPI_CLIENT_ID: z.string().min(1).optional(),
  SAPI_CLIENT_SECRET: z.string().min(1).optional(),
  SAPI_SCOPE: z.string().min(1).optional(),
  /** How often each company's SAPI-SK mailbox is polled, ms. */
  SAPI_POLL_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  /**
   * Issue #43: after a provider refuses the credentials, calls with them wait this long before the next
   * try, doubled per refusal up to the maximum (ms): no mint at every poll.
   */
  SAPI_AUTH_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  SAPI_AUTH_BACKOFF_MAX_MS: z.coerce.number().int().min(10).max(3_600_000).default(900_000),
  /**
   * Issue #43: how long a replica's lease on a mailbox lasts without renewal (renewed before every
   * acknowledgement); a replica that dies holds no mailbox longer than this, ms.
   */
  SAPI_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  /** Mailboxes polled at once (issue #43): one slow or broken provider does not hold up the others. */
  SAPI_POLL_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** How long one SAPI-SK call may take, ms. */
  SAPI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  /**
   * The key that encrypts each company's access-point secret at rest (AES-256-GCM): 32 bytes, base64 or
   * hex (`SECRETS_KEY_FILE` to read it from a file). Without it, per-company secrets cannot be set.
   */
  SECRETS_KEY: z
    .string()
    .refine((v) => keyBytes(v) !== null, { message: 'must be 32 bytes, base64 or 64 hex digits' })
    .optional(),
});
export type AccessPointConfig = z.infer<typeof AccessPointEnv>;

/**
 * @throws Error naming the variables a transport needs and lacks
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
): Readonly<AccessPointConfig> {
  // Unset and empty are the same (compose passes `${VAR:-}` as an empty string).
  const c = parseEnv(AccessPointEnv, Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  const missing =
    c.PEPPOL_AP === 'phoss'
      ? (['PEPPOL_AP_URL', 'PEPPOL_AP_TOKEN', 'PEPPOL_FORWARDING_SECRET'] as const).filter((k) => !c[k])
      : c.PEPPOL_AP === 'folder'
        ? (['PEPPOL_OUTBOX_DIR', 'PEPPOL_INBOX_DIR'] as const).filter((k) => !c[k])
        : c.PEPPOL_AP === 'sapi'
          ? (['SAPI_URL', 'SAPI_CLIENT_ID', 'SAPI_CLIENT_SECRET'] as const).filter((k) => !c[k])
          : [];
  if (missing.length)
    throw new Error(`invalid configuration: PEPPOL_AP=${c.PEPPOL_AP} needs ${missing.join(', ')}`);
  return c;
}
