/**
 * Each company's access-point settings as invoicing keeps them (issue #35): `default` or its own SAPI-SK
 * provider (url, client id, scope, the secret as ciphertext the connector made; invoicing never sees the
 * secret in clear), and the connector's last contact or error. Invoicing owns the company profile, so it
 * keeps these beside it; the access-point connector is their only writer.
 */
import type { StoredAccessPointSettings } from '@bm/contracts';
import type { Ctx, EntityManager } from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import { AccessPointSettingsEntity, CompanyProfileEntity } from '../schema/entities.js';

type Row = InstanceType<typeof AccessPointSettingsEntity.class>;
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

function stored(companyId: string, r: Row | null, participantId: string | null): StoredAccessPointSettings {
  return {
    companyId,
    transport: (r?.transport as 'default' | 'sapi') ?? 'default',
    url: r?.url ?? null,
    clientId: r?.clientId ?? null,
    scope: r?.scope ?? null,
    secretCiphertext: r?.secretCiphertext ?? null,
    participantId,
    lastContactAt: iso(r?.lastContactAt),
    lastError: r?.lastError ?? null,
    lastErrorAt: iso(r?.lastErrorAt),
    version: iso(r?.updatedAt),
  };
}

async function participantOf(em: EntityManager): Promise<string | null> {
  const p = await em.findOne(CompanyProfileEntity, {}, { disableIdentityMap: true });
  return p?.peppolId ?? null;
}

/** `invoicing.access-point-settings.get`: this company's settings (`default` when none were set). */
export async function loadSettings(ctx: Ctx): Promise<StoredAccessPointSettings> {
  const [r, participant] = await Promise.all([
    ctx.em.findOne(AccessPointSettingsEntity, { companyId: ctx.companyId! }, { disableIdentityMap: true }),
    participantOf(ctx.em),
  ]);
  return stored(ctx.companyId!, r, participant);
}

/**
 * `invoicing.access-point-settings.put`: replaces the settings; `secretCiphertext` null keeps the stored
 * one (and `default` clears url, client and secret). The last contact and error start again.
 */
export async function storeSettings(
  ctx: Ctx,
  s: {
    transport: 'default' | 'sapi';
    url: string | null;
    clientId: string | null;
    scope: string | null;
    secretCiphertext: string | null;
  },
): Promise<StoredAccessPointSettings> {
  const companyId = ctx.companyId!;
  await ctx.em.transactional(async (tx) => {
    const before = await tx.findOne(
      AccessPointSettingsEntity,
      { companyId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    const sapi = s.transport === 'sapi';
    const data = {
      companyId,
      transport: s.transport,
      url: sapi ? s.url : null,
      clientId: sapi ? s.clientId : null,
      scope: sapi ? s.scope : null,
      secretCiphertext: sapi ? (s.secretCiphertext ?? before?.secretCiphertext ?? null) : null,
      lastContactAt: null,
      lastError: null,
      lastErrorAt: null,
      updatedAt: new Date(),
    };
    if (before) tx.assign(before, data);
    else tx.create(AccessPointSettingsEntity, data);
  });
  return loadSettings(ctx);
}

/**
 * `invoicing.access-point-settings.report`: the connector's last contact with the company's provider, or
 * its error. A working contact clears the error (issue #43: `lastError` is what is wrong now; the log and
 * `bm_access_point_errors_total` keep the history).
 */
export async function reportContact(
  ctx: Ctx,
  r: { ok: boolean; error: string | null; at: string; version: string | null },
): Promise<{ ok: true }> {
  const at = new Date(r.at);
  await ctx.em.nativeUpdate(
    AccessPointSettingsEntity,
    // A report about settings replaced since (a poll that began with the old secret) changes nothing.
    r.version ? { companyId: ctx.companyId!, updatedAt: new Date(r.version) } : { companyId: ctx.companyId! },
    r.ok
      ? { lastContactAt: at, lastError: null, lastErrorAt: null }
      : { lastError: r.error ?? 'error', lastErrorAt: at },
  );
  return { ok: true };
}

/**
 * `invoicing.access-point-settings.list` (the connector, across companies): companies set to `sapi`, and
 * with `includeDefault` those on `default` that have a Peppol id (the deployment's SAPI-SK account).
 */
export async function listSettings(
  em: EntityManager,
  includeDefault: boolean,
): Promise<StoredAccessPointSettings[]> {
  const rows = await em.execute<
    {
      company_id: string;
      peppol_id: string | null;
      transport: string | null;
      url: string | null;
      client_id: string | null;
      scope: string | null;
      secret_ciphertext: string | null;
      last_contact_at: Date | null;
      last_error: string | null;
      last_error_at: Date | null;
      updated_at: Date | null;
    }[]
  >(
    `select p."company_id", p."peppol_id", s."transport", s."url", s."client_id", s."scope", s."secret_ciphertext",
            s."last_contact_at", s."last_error", s."last_error_at", s."updated_at"
       from "invoicing"."company_profile" p
       left join "invoicing"."access_point_settings" s on s."company_id" = p."company_id"
      where s."transport" = 'sapi' or (? and coalesce(s."transport", 'default') = 'default' and p."peppol_id" is not null)
      order by p."company_id"`,
    [includeDefault],
  );
  return rows.map((r) => ({
    companyId: r.company_id,
    transport: (r.transport ?? 'default') as 'default' | 'sapi',
    url: r.url,
    clientId: r.client_id,
    scope: r.scope,
    secretCiphertext: r.secret_ciphertext,
    participantId: r.peppol_id,
    lastContactAt: iso(r.last_contact_at),
    lastError: r.last_error,
    lastErrorAt: iso(r.last_error_at),
    version: iso(r.updated_at),
  }));
}
