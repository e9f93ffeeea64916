/**
 * Identity schema (DESIGN §1, §3), owned by the gateway: companies, users, API clients and
 * memberships. Secrets are stored only as scrypt hashes. Not tenant-filtered: identity is what
 * decides the tenant.
 */
import { defineEntity, p } from '@mikro-orm/postgresql';

export const SCHEMA = 'identity';

export const CompanyEntity = defineEntity({
  name: 'Company',
  tableName: 'company',
  schema: SCHEMA,
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
    country: p.string().length(2),
    vatNumber: p.string().length(20).nullable(),
    companyNumber: p.string().length(30).nullable(),
    address: p.text().nullable(),
    ossRegistered: p.boolean(),
    currency: p.string().length(3),
    timeZone: p.string().length(50),
    iban: p.string().length(34).nullable(),
    createdAt: p.datetime(),
  },
});

export const UserEntity = defineEntity({
  name: 'User',
  tableName: 'user',
  schema: SCHEMA,
  properties: { id: p.uuid().primary(), username: p.string().length(100).unique(), passwordHash: p.string() },
});

export const ApiClientEntity = defineEntity({
  name: 'ApiClient',
  tableName: 'api_client',
  schema: SCHEMA,
  properties: {
    id: p.uuid().primary(),
    clientId: p.string().length(100).unique(),
    secretHash: p.string(),
    companyId: p.uuid(),
  },
});

export const MembershipEntity = defineEntity({
  name: 'Membership',
  tableName: 'membership',
  schema: SCHEMA,
  properties: { userId: p.uuid().primary(), companyId: p.uuid().primary() },
});

/**
 * One `Idempotency-Key` of a company (issue #12): the request it was first used with (a SHA-256
 * fingerprint of method, path and body) and, once answered, the stored answer that a repeat gets.
 * Kept 24 h. `lockedUntil` bounds how long an unanswered key blocks repeats (409).
 */
export const IdempotencyKeyEntity = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_key',
  schema: SCHEMA,
  properties: {
    companyId: p.uuid().primary(),
    key: p.string().length(255).primary(),
    fingerprint: p.string().length(64),
    /** `in_flight` or `done`. */
    state: p.string().length(10),
    lockedUntil: p.datetime(),
    status: p.integer().nullable(),
    contentType: p.string().length(100).nullable(),
    body: p.text().nullable(),
    createdAt: p.datetime().index(),
  },
});

/**
 * Authentication failure counts shared by the gateway replicas (issue #22), written by
 * rate-limiter-flexible's PostgreSQL store (`AuthGuard`), never through the ORM: `key` is the counter's
 * prefix and a hash of its subject (username and/or client address), `points` the failures, `expire`
 * the end of the window in epoch ms.
 */
export const AuthFailureEntity = defineEntity({
  name: 'AuthFailure',
  tableName: 'auth_failure',
  schema: SCHEMA,
  properties: {
    key: p.string().length(255).primary(),
    points: p.integer().default(0),
    expire: p.bigint().nullable().index(),
  },
});

export const entities = [
  CompanyEntity,
  UserEntity,
  ApiClientEntity,
  MembershipEntity,
  IdempotencyKeyEntity,
  AuthFailureEntity,
];
