/**
 * Each company's own access point (issue #35; DESIGN §6a): a company chooses its certified provider and
 * talks to it over SAPI-SK 1.0 with its own credentials, or uses the deployment's default (`PEPPOL_AP`).
 *
 * The client secret is write-only: the connector encrypts it (AES-256-GCM, key `SECRETS_KEY`) before it
 * leaves the connector, invoicing stores only the ciphertext, and no reply carries it.
 */
import { defineContract } from '../contract.js';
import { Guid, z } from '../primitives.js';

export const AccessPointTransport = z.enum(['loopback', 'phoss', 'folder', 'sapi']);
export type AccessPointTransport = z.infer<typeof AccessPointTransport>;

/**
 * `PUT /1.6/company/access-point` body: `{transport: "sapi", url, clientId, clientSecret?, scope?}` or
 * `{transport: "default"}`. `url` is the SAPI-SK base up to the version path (`…/sapi/v1` or `…/sapi`),
 * https unless the host is loopback. A PUT without `clientSecret` keeps the stored one (400 when there is
 * none yet).
 */
export const AccessPointSettingsInput = z.discriminatedUnion('transport', [
  z.object({ transport: z.literal('default') }).strict(),
  z
    .object({
      transport: z.literal('sapi'),
      url: z.string().trim().url({ message: 'expected an absolute URL' }).max(500),
      clientId: z.string().trim().min(1, { message: 'must not be empty' }).max(200),
      clientSecret: z.string().min(1, { message: 'must not be empty' }).max(2000).optional(),
      scope: z.string().trim().max(500).nullable().optional(),
    })
    .strict(),
]);
export type AccessPointSettingsInput = z.infer<typeof AccessPointSettingsInput>;

/** `GET /1.6/company/access-point`: what is set (never the secret) and how the last contact went. */
export const AccessPointSettings = z.object({
  /** `default` (the deployment's `PEPPOL_AP`) or `sapi` with the company's own provider. */
  transport: z.enum(['default', 'sapi']),
  /** The transport in effect for this company. */
  effectiveTransport: AccessPointTransport,
  url: z.string().nullable(),
  clientId: z.string().nullable(),
  scope: z.string().nullable(),
  /** True when the company's transport has everything it needs (for `sapi`: url, clientId and a secret). */
  configured: z.boolean(),
  /** The company's Peppol participant id (`peppolId` of its profile), the mailbox polled. */
  participantId: z.string().nullable(),
  lastContactAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /**
   * Issue #43: sending and receiving held back, null when nothing is. `AUTH`: the provider refused the
   * credentials (`failures` in a row since `since`); the connector tries once more at `nextTryAt` (an
   * exponential back-off to about 15 minutes) and at once after a `PUT`, and then sends every e-invoice
   * held back. `RATE_LIMIT`: the provider's rate limit is spent until `nextTryAt`.
   */
  hold: z
    .object({
      category: z.enum(['AUTH', 'RATE_LIMIT']),
      since: z.string(),
      nextTryAt: z.string(),
      failures: z.number().int(),
      error: z.string(),
    })
    .nullable(),
});
export type AccessPointSettings = z.infer<typeof AccessPointSettings>;

/** `access-point.settings.get` (gateway → connector). */
export const getAccessPointSettings = defineContract({
  subject: 'access-point.settings.get',
  request: z.object({}),
  reply: AccessPointSettings,
});
/** `access-point.settings.put` (gateway → connector): validates, encrypts the secret, stores. Errors: 400 naming the field. */
export const putAccessPointSettings = defineContract({
  subject: 'access-point.settings.put',
  request: AccessPointSettingsInput,
  reply: AccessPointSettings,
});
/**
 * `access-point.settings.test` (gateway → connector): mints a token and lists the mailbox once.
 * Reply `{ok: true, documentsWaiting}`; errors: 502 AccessPointError with the provider's code and message,
 * 409 InvalidState when the company's transport is not `sapi`.
 */
export const testAccessPointSettings = defineContract({
  subject: 'access-point.settings.test',
  request: z.object({}),
  reply: z.object({
    ok: z.literal(true),
    transport: AccessPointTransport,
    documentsWaiting: z.number().int(),
    more: z.boolean(),
    checkedAt: z.string(),
  }),
});

/** The stored form (invoicing's `access_point_settings`), the secret as ciphertext `v1:<iv>:<tag>:<data>` (base64). */
export const StoredAccessPointSettings = z.object({
  companyId: Guid(),
  transport: z.enum(['default', 'sapi']),
  url: z.string().nullable(),
  clientId: z.string().nullable(),
  scope: z.string().nullable(),
  secretCiphertext: z.string().nullable(),
  participantId: z.string().nullable(),
  lastContactAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /** When these settings were last set (ISO): a contact report names the version it is about. */
  version: z.string().nullable(),
});
export type StoredAccessPointSettings = z.infer<typeof StoredAccessPointSettings>;

/** `invoicing.access-point-settings.get` (connector → invoicing, Company-Id): the stored row, or the default. */
export const loadAccessPointSettings = defineContract({
  subject: 'invoicing.access-point-settings.get',
  request: z.object({}),
  reply: StoredAccessPointSettings,
});
/** `invoicing.access-point-settings.put` (connector → invoicing): `secretCiphertext` null keeps the stored one. */
export const storeAccessPointSettings = defineContract({
  subject: 'invoicing.access-point-settings.put',
  request: z.object({
    transport: z.enum(['default', 'sapi']),
    url: z.string().nullable(),
    clientId: z.string().nullable(),
    scope: z.string().nullable(),
    secretCiphertext: z.string().nullable(),
  }),
  reply: StoredAccessPointSettings,
});
/** `invoicing.access-point-settings.report` (connector → invoicing): the last contact with the provider, or its error. */
export const reportAccessPointContact = defineContract({
  subject: 'invoicing.access-point-settings.report',
  request: z.object({
    ok: z.boolean(),
    error: z.string().max(2000).nullable(),
    at: z.string(),
    /** The settings' `version` the contact used: a report about settings replaced since changes nothing. */
    version: z.string().nullable().default(null),
  }),
  reply: z.object({ ok: z.literal(true) }),
});
/**
 * `invoicing.access-point-settings.list` (connector, across companies): every company whose mailbox the
 * connector polls: those set to `sapi`, and with `includeDefault` those on `default` with a Peppol id.
 */
export const listAccessPointSettings = defineContract({
  subject: 'invoicing.access-point-settings.list',
  request: z.object({ includeDefault: z.boolean() }),
  reply: z.object({ items: z.array(StoredAccessPointSettings) }),
});
