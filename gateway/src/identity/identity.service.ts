/**
 * Identity operations (DESIGN §3): company creation with provisioning of every service, credential
 * verification, memberships. Transport-free: used by the admin routes, the auth middleware and the CLI.
 */
import {
  CompanyInput,
  CompanyProfile,
  findCompanyByPeppolId,
  Iban,
  isGuid,
  provisionCompany,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, notFound } from '@bm/errors';
import { type NatsConnection, parseOrThrow, request, todayIn } from '@bm/messaging';
import type { MikroORM } from '@bm/service-kit';
import { z } from 'zod';
import { ApiClientEntity, CompanyEntity, MembershipEntity, UserEntity } from './entities.js';
import { DUMMY_HASH, hashSecret, randomSecret, verifySecret } from './secrets.js';

/** `POST /admin/companies/{id}/members`: the user to give access (created when new). */
export const AddMemberInput = z.object({ username: z.string().trim().min(3).max(100) });

/**
 * Body of `POST /admin/companies` (DESIGN §3): the fields of `PUT /1.6/company` (issue #21, `CompanyInput`,
 * one definition) plus the one-line `address`, the first bank account's `iban` and the first user's name.
 */
export const CreateCompanyInput = CompanyInput.extend({
  address: z.string().max(1000).nullable().optional(),
  iban: Iban().nullable().optional(),
  /** Optional username for the first user (default `admin-<random>`). */
  username: z.string().trim().min(3).max(100).optional(),
});
export type CreateCompanyInput = z.input<typeof CreateCompanyInput>;

/** Credentials returned once by company creation. */
export interface CompanyCredentials {
  companyId: string;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
}

/** The identity a request runs as once its four headers are verified. */
export interface Principal {
  userId: string;
  companyId: string;
  timeZone: string;
}

export class IdentityService {
  constructor(
    private readonly orm: MikroORM,
    private readonly nc: NatsConnection,
  ) {}

  /**
   * Creates a company, provisions its default master data in every service (reporting first, so
   * ordners get their default report) and returns the first user's and API client's credentials once.
   * @throws 400 ValidationFailed for a bad body; 409 Conflict for a username in use; 503/504 when a service is down.
   */
  async createCompany(raw: unknown, requestId: string): Promise<CompanyCredentials> {
    const input = parseOrThrow(CreateCompanyInput, raw);
    const em = this.orm.em.fork();
    const username =
      input.username ??
      `admin-${randomSecret(4)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, 'x')}`;
    if (await em.count(UserEntity, { username })) {
      throw new AppError(ErrorKind.conflict, ErrorCode.Conflict, `username ${username} is already used`, {
        errors: [{ path: 'username', message: 'already used' }],
      });
    }
    const companyId = crypto.randomUUID();
    const profile = parseOrThrow(CompanyProfile, {
      companyId,
      name: input.name,
      country: input.country,
      vatNumber: input.vatNumber ?? null,
      companyNumber: input.companyNumber ?? null,
      address: input.address ?? null,
      ossRegistered: input.ossRegistered,
      currency: input.currency,
      timeZone: input.timeZone,
      vatPeriod: input.vatPeriod,
      iban: input.iban ?? null,
      taxNumber: input.taxNumber ?? null,
      street: input.street ?? null,
      streetNumber: input.streetNumber ?? null,
      taxOffice: input.taxOffice ?? null,
      authorizedPersonName: input.authorizedPersonName ?? null,
      authorizedPersonPhone: input.authorizedPersonPhone ?? null,
      authorizedPersonEmail: input.authorizedPersonEmail ?? null,
      city: input.city ?? null,
      postalCode: input.postalCode ?? null,
      registration: input.registration ?? null,
      email: input.email ?? null,
      phone: input.phone ?? null,
      peppolId: input.peppolId ?? null,
      today: todayIn(input.timeZone),
    });
    const ctx = { requestId, companyId, timeZone: input.timeZone };
    const timeout = { timeoutMs: 30_000 };
    // A peppolId routes received e-invoices, so it belongs to one company (issue #23); invoicing's
    // unique key refuses a concurrent second one as well.
    if (input.peppolId) {
      const { companyId: owner } = await request(
        this.nc,
        findCompanyByPeppolId,
        { peppolId: input.peppolId },
        ctx,
      );
      if (owner)
        throw new AppError(
          ErrorKind.conflict,
          ErrorCode.PeppolIdTaken,
          `the Peppol participant ${input.peppolId} belongs to another company`,
          { errors: [{ path: 'peppolId', message: 'used by another company' }] },
        );
    }
    const rep = await request(this.nc, provisionCompany('reporting'), profile, ctx, timeout);
    const withReports = { ...profile, reportIds: rep.reportIds ?? {} };
    await Promise.all([
      request(this.nc, provisionCompany('warehouse'), withReports, ctx, timeout),
      request(this.nc, provisionCompany('invoicing'), withReports, ctx, timeout),
    ]);
    const password = randomSecret(18);
    const clientId = `cli_${randomSecret(12)}`;
    const clientSecret = randomSecret(32);
    const [passwordHash, secretHash] = await Promise.all([hashSecret(password), hashSecret(clientSecret)]);
    await em.transactional(async (tx) => {
      const company = profile;
      tx.create(CompanyEntity, {
        id: companyId,
        name: company.name,
        country: company.country,
        ossRegistered: company.ossRegistered,
        currency: company.currency,
        timeZone: company.timeZone,
        vatNumber: company.vatNumber ?? null,
        companyNumber: company.companyNumber ?? null,
        address: company.address ?? null,
        iban: company.iban ?? null,
        createdAt: new Date(),
      });
      const userId = crypto.randomUUID();
      tx.create(UserEntity, { id: userId, username, passwordHash });
      tx.create(MembershipEntity, { userId, companyId });
      tx.create(ApiClientEntity, { id: crypto.randomUUID(), clientId, secretHash, companyId });
    });
    return { companyId, username, password, clientId, clientSecret };
  }

  /**
   * Gives a user access to a company; creates the user (with a generated password, returned once) when
   * the username is new. @throws 404 NotFound for an unknown company.
   */
  async addMember(companyId: string, raw: unknown): Promise<{ username: string; password?: string }> {
    const { username } = parseOrThrow(AddMemberInput, raw);
    const em = this.orm.em.fork();
    if (!(await em.count(CompanyEntity, { id: companyId }))) throw notFound('Company');
    let user = await em.findOne(UserEntity, { username });
    let password: string | undefined;
    if (!user) {
      password = randomSecret(18);
      user = em.create(UserEntity, {
        id: crypto.randomUUID(),
        username,
        passwordHash: await hashSecret(password),
      });
    }
    if (!(await em.count(MembershipEntity, { userId: user.id, companyId })))
      em.create(MembershipEntity, { userId: user.id, companyId });
    await em.flush();
    return password ? { username, password } : { username };
  }

  /**
   * Verifies the four headers of INTERFACE §5. Returns the principal, or `'unauthorized'` (wrong user,
   * password, client id or secret) or `'forbidden'` (valid credentials, no access to that company).
   */
  async verify(
    username: string,
    password: string,
    clientId: string,
    clientSecret: string,
    companyId: string,
  ): Promise<Principal | 'unauthorized' | 'forbidden'> {
    const em = this.orm.em.fork();
    const [user, client] = await Promise.all([
      em.findOne(UserEntity, { username }),
      em.findOne(ApiClientEntity, { clientId }),
    ]);
    // Both hashes always run, so timing does not tell which part was wrong.
    const [userOk, clientOk] = await Promise.all([
      verifySecret(password, user?.passwordHash ?? DUMMY_HASH),
      verifySecret(clientSecret, client?.secretHash ?? DUMMY_HASH),
    ]);
    if (!user || !client || !userOk || !clientOk) return 'unauthorized';
    if (!isGuid(companyId)) return 'forbidden';
    const id = companyId.toLowerCase();
    if (client.companyId !== id) return 'forbidden';
    const [member, company] = await Promise.all([
      em.count(MembershipEntity, { userId: user.id, companyId: id }),
      em.findOne(CompanyEntity, { id }),
    ]);
    if (!member || !company) return 'forbidden';
    return { userId: user.id, companyId: id, timeZone: company.timeZone };
  }
}
