/**
 * Which access point each company uses (issue #35): its own SAPI-SK provider (`PUT
 * /1.6/company/access-point`), else the deployment's default (`PEPPOL_AP`, with `SAPI_*` when that is
 * `sapi`). The settings live in invoicing with the secret as ciphertext; the connector alone holds the key
 * (`SECRETS_KEY`) and decrypts it when it talks to the provider. A company's settings are cached for a few
 * seconds, and dropped at once when this connector changes them.
 *
 * Issue #43: a refused set of credentials is the company's problem, never a document's. Every failed
 * contact is counted (`bm_access_point_errors_total`) and shown in the company's settings; a company
 * whose credentials were refused is remembered under the credentials' key, and when the key works again
 * (holds.ts) or the company's settings are put, every e-invoice held back goes out
 * (`invoicing.e-invoices.release-held`). The first working contact of a company after the connector
 * started releases what an earlier process left `failed` for `AUTH`.
 */
import {
  type AccessPointSettings,
  type AccessPointSettingsInput,
  type AccessPointTransport,
  loadAccessPointSettings,
  releaseHeldEInvoices,
  reportAccessPointContact,
  type StoredAccessPointSettings,
  storeAccessPointSettings,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, validationFailed } from '@bm/errors';
import type { Logger } from '@bm/logger';
import { type NatsConnection, request } from '@bm/messaging';
import { accessPointErrors } from '@bm/telemetry';
import type { AccessPointConfig } from '../config.js';
import { decryptSecret, encryptSecret, keyBytes } from '../domain/secrets.js';
import { credentialsKey, SapiClient, type SapiCredentials } from '../transports/sapi/client.js';
import { SapiError } from '../transports/sapi/errors.js';
import { holds } from '../transports/sapi/holds.js';

const CACHE_MS = 5000;

/** True for a host on this machine (http is allowed there, for a stand-in or a local provider). */
export const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

export class CompanyAccess {
  private readonly cache = new Map<string, { at: number; settings: StoredAccessPointSettings }>();
  private readonly key: Buffer | null;
  /** Companies whose credentials were refused, by the credentials' key. */
  private readonly refused = new Map<string, Set<string>>();
  /** Companies whose `AUTH` failures of an earlier process were released since this one started. */
  private readonly releasedOnce = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly nc: NatsConnection,
    private readonly config: AccessPointConfig,
    private readonly log?: Logger,
  ) {
    this.key = config.SECRETS_KEY ? keyBytes(config.SECRETS_KEY) : null;
    this.unsubscribe = holds.onRecovered((k) => this.recovered(k));
  }

  /** Stops listening to the holds (on stop). */
  close(): void {
    this.unsubscribe();
  }

  /** The deployment's default SAPI-SK credentials (PEPPOL_AP=sapi), or null. */
  get defaultSapi(): SapiCredentials | null {
    const c = this.config;
    return c.PEPPOL_AP === 'sapi' && c.SAPI_URL && c.SAPI_CLIENT_ID && c.SAPI_CLIENT_SECRET
      ? {
          url: c.SAPI_URL,
          clientId: c.SAPI_CLIENT_ID,
          clientSecret: c.SAPI_CLIENT_SECRET,
          scope: c.SAPI_SCOPE ?? null,
        }
      : null;
  }

  /** The stored settings of `companyId` (cached for {@link CACHE_MS}). */
  async settings(companyId: string): Promise<StoredAccessPointSettings> {
    const hit = this.cache.get(companyId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.settings;
    const settings = await request(
      this.nc,
      loadAccessPointSettings,
      {},
      { companyId, requestId: crypto.randomUUID() },
    );
    this.cache.set(companyId, { at: Date.now(), settings });
    return settings;
  }

  /**
   * The SAPI-SK credentials a company's documents travel with: its own (transport `sapi`), else the
   * default when `PEPPOL_AP=sapi`; null when the company uses another transport.
   * @throws Error when its secret cannot be decrypted (no or another SECRETS_KEY)
   */
  credentialsOf(s: StoredAccessPointSettings): SapiCredentials | null {
    if (s.transport === 'default') return this.defaultSapi;
    if (!s.url || !s.clientId || !s.secretCiphertext) return null;
    if (!this.key)
      throw new Error('SECRETS_KEY is not set: the company’s access-point secret cannot be read');
    return {
      url: s.url,
      clientId: s.clientId,
      clientSecret: decryptSecret(this.key, s.companyId, s.secretCiphertext),
      scope: s.scope,
    };
  }

  /** A client for `companyId`'s SAPI-SK provider, or null when it does not use SAPI-SK. */
  async sapiOf(
    companyId: string,
  ): Promise<{ client: SapiClient; settings: StoredAccessPointSettings } | null> {
    const settings = await this.settings(companyId);
    const creds = this.credentialsOf(settings);
    return creds ? { client: new SapiClient(creds, this.config.SAPI_TIMEOUT_MS), settings } : null;
  }

  /** The key of the credentials `s` travels with (holds.ts), or null (no SAPI-SK, or undecryptable). */
  private keyOf(s: StoredAccessPointSettings): string | null {
    try {
      const creds = this.credentialsOf(s);
      return creds ? credentialsKey(creds) : null;
    } catch {
      return null;
    }
  }

  /** What `GET /1.6/company/access-point` shows. */
  view(s: StoredAccessPointSettings): AccessPointSettings {
    const own = s.transport === 'sapi';
    const key = this.keyOf(s);
    const hold = key ? holds.view(key) : null;
    const effective: AccessPointTransport = own ? 'sapi' : this.config.PEPPOL_AP;
    return {
      transport: s.transport,
      effectiveTransport: effective,
      url: own ? s.url : effective === 'sapi' ? (this.config.SAPI_URL ?? null) : null,
      clientId: own ? s.clientId : effective === 'sapi' ? (this.config.SAPI_CLIENT_ID ?? null) : null,
      scope: own ? s.scope : null,
      configured: own
        ? !!(s.url && s.clientId && s.secretCiphertext)
        : effective !== 'sapi' || this.defaultSapi !== null,
      participantId: s.participantId,
      lastContactAt: s.lastContactAt,
      // The deployment's provider's refusal is not stored per company: it shows from the hold.
      lastError: s.lastError ?? hold?.error ?? null,
      lastErrorAt: s.lastErrorAt ?? hold?.since ?? null,
      hold,
    };
  }

  /**
   * A contact with the company's provider failed (`operation` `send`, `poll` or `test`): counted, stored
   * as the company's `lastError` (its own provider), and, for refused credentials, remembered until they
   * work again.
   */
  async failed(
    companyId: string,
    s: StoredAccessPointSettings,
    e: Error,
    operation: 'send' | 'poll' | 'test',
  ): Promise<void> {
    const category = e instanceof SapiError ? e.category : 'PROCESSING';
    // A call held back without touching the network was counted when the hold began.
    if (!(e instanceof SapiError && e.held)) accessPointErrors.inc({ category, operation });
    if (category === 'AUTH') {
      const key = this.keyOf(s);
      if (key) {
        const companies = this.refused.get(key) ?? new Set<string>();
        companies.add(companyId);
        this.refused.set(key, companies);
      }
    }
    const message = e instanceof SapiError ? `${e.code}: ${e.message}` : e.message;
    if (s.transport === 'sapi') await this.report(companyId, message, s.version);
  }

  /** A contact with the company's provider worked: recorded, and what an earlier process held back released once. */
  async succeeded(companyId: string, s: StoredAccessPointSettings): Promise<void> {
    if (s.transport === 'sapi') await this.report(companyId, null, s.version);
    if (!this.releasedOnce.has(companyId)) {
      this.releasedOnce.add(companyId);
      await this.release(companyId, false);
    }
  }

  /** Credentials `key` work again: every company refused under it sends what was held back. */
  private recovered(key: string): void {
    const companies = this.refused.get(key);
    this.refused.delete(key);
    for (const companyId of companies ?? []) void this.release(companyId, true);
  }

  /** Asks invoicing to send again what refused credentials held back for `companyId` (best effort, logged). */
  async release(companyId: string, includeQueued: boolean): Promise<void> {
    try {
      const r = await request(
        this.nc,
        releaseHeldEInvoices,
        { includeQueued, limit: 1000 },
        { companyId, requestId: crypto.randomUUID() },
      );
      if (r.released + r.requeued)
        this.log?.info({ companyId, ...r }, 'e-invoices held back by refused credentials sent again');
    } catch (e) {
      this.log?.warn({ companyId, err: (e as Error).message }, 'releasing held e-invoices failed');
    }
  }

  /**
   * `PUT /1.6/company/access-point`. @throws 400 ValidationFailed naming `url` (not https outside
   * loopback) or `clientSecret` (none given and none stored); 503 when SECRETS_KEY is not set
   */
  async put(companyId: string, input: AccessPointSettingsInput): Promise<AccessPointSettings> {
    let ciphertext: string | null = null;
    if (input.transport === 'sapi') {
      const url = new URL(input.url);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
        throw validationFailed([{ path: 'url', message: 'must be https (http only on loopback)' }]);
      if (input.clientSecret !== undefined) {
        if (!this.key)
          throw new AppError(
            ErrorKind.unavailable,
            ErrorCode.ServiceUnavailable,
            'SECRETS_KEY is not set on the access-point connector: secrets cannot be stored',
          );
        ciphertext = encryptSecret(this.key, companyId, input.clientSecret);
      } else {
        const before = await this.settings(companyId);
        if (!before.secretCiphertext)
          throw validationFailed([{ path: 'clientSecret', message: 'required: no secret is stored yet' }]);
      }
    }
    this.cache.delete(companyId);
    const stored = await request(
      this.nc,
      storeAccessPointSettings,
      input.transport === 'sapi'
        ? {
            transport: 'sapi',
            url: input.url,
            clientId: input.clientId,
            scope: input.scope ?? null,
            secretCiphertext: ciphertext,
          }
        : { transport: 'default', url: null, clientId: null, scope: null, secretCiphertext: null },
      { companyId, requestId: crypto.randomUUID() },
    );
    this.cache.delete(companyId);
    // Issue #43: fixed settings send what the old ones held back, at once.
    for (const companies of this.refused.values()) companies.delete(companyId);
    await this.release(companyId, true);
    return this.view(stored);
  }

  /** Records the last contact with the company's provider, or its error (best effort). */
  async report(companyId: string, error: string | null, version: string | null): Promise<void> {
    await request(
      this.nc,
      reportAccessPointContact,
      { ok: error === null, error: error?.slice(0, 2000) ?? null, at: new Date().toISOString(), version },
      { companyId, requestId: crypto.randomUUID() },
    ).catch(() => undefined);
    this.cache.delete(companyId);
  }
}
