/**
 * Environment parsing (CONVENTIONS "config.ts per process parses the environment once with zod").
 * Every bad variable is listed in one message; the result is frozen.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Variables every service reads. */
export const ServiceEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
    .default('postgresql://postgres@127.0.0.1:5432/business'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Most PostgreSQL connections this process opens (issue #12). The sum over every process and replica
   * must stay below the server's `max_connections` (docs/operations.md "Connection budget").
   */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  /** How long a query waits for a free pooled connection before the request is answered 503, ms. */
  DB_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** NATS user of this process (issue #12 "Least privilege"); with NATS_PASSWORD. Unset: no credentials. */
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  /**
   * Replicas of the JetStream streams and object stores this process creates (issue #25): 3 on a
   * three-node NATS cluster (`NATS_CLUSTER=3 pnpm start` sets it), 1 on a single server.
   */
  NATS_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /**
   * Groups of one kind of document this process stores at once (issue #24, service-kit
   * `group-commit.ts`): 1 makes the largest groups, the least CPU per document; more where the
   * database's round trips, not CPU, are the bound.
   */
  GROUP_COMMIT_PARALLEL: z.coerce.number().int().min(1).max(8).default(1),
  /**
   * Port of this process's Prometheus endpoint `GET /metrics` (issue #25); 0 takes a free port. Unset: no
   * endpoint. `pnpm start` gives every process one and lists them in `.local/metrics-targets.json`.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Address the metrics endpoint binds (loopback unless a scraper elsewhere needs it, e.g. `0.0.0.0`). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Where the process writes the port its metrics endpoint bound (issue #43): `pnpm start` gives
   * `METRICS_PORT=0` and lists what was bound, instead of a port picked in advance that another process
   * may take first.
   */
  METRICS_PORT_FILE: z.string().min(1).optional(),
});
export type ServiceEnv = z.infer<typeof ServiceEnv>;

/**
 * Variables that may instead be given as a file (`<NAME>_FILE`, the Docker secrets convention; issue #12):
 * the file's content, without its trailing newline, is the value.
 */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'NATS_PASSWORD',
  'ADMIN_TOKEN',
  // Issue #35: the access-point connector's key for stored secrets and its default SAPI-SK secret.
  'SECRETS_KEY',
  'SAPI_CLIENT_SECRET',
];

/** `env` with each `<NAME>_FILE` of {@link SECRET_VARIABLES} read into `<NAME>` (unless `<NAME>` is set). */
function withSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of SECRET_VARIABLES) {
    const file = env[`${name}_FILE`];
    if (file && !env[name]) {
      try {
        out[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      } catch (e) {
        throw new Error(
          `invalid configuration:\n  ${name}_FILE: cannot read ${file}: ${(e as Error).message}`,
        );
      }
    }
  }
  return out;
}

/** Parses `env` with `schema`; throws one Error that lists every invalid variable. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): Readonly<z.output<S>> {
  const r = schema.safeParse(withSecretFiles(env));
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(r.data);
}

/** The processes that own a schema, each of which may have its own PostgreSQL server (issue #25). */
export type SchemaOwner = 'gateway' | 'warehouse' | 'invoicing' | 'reporting';

/**
 * `env` with `<OWNER>_DATABASE_URL` (or `<OWNER>_DATABASE_URL_FILE`) in place of `DATABASE_URL` when it is
 * set (issue #25 "Per-service database URLs"): each schema can move to its own PostgreSQL server while the
 * others keep `DATABASE_URL`. E.g. `WAREHOUSE_DATABASE_URL` for the warehouse.
 */
export function withOwnDatabase(
  owner: SchemaOwner,
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const prefix = `${owner.toUpperCase()}_DATABASE_URL`;
  const url = env[prefix];
  const file = env[`${prefix}_FILE`];
  if (!url && !file) return env;
  return { ...env, DATABASE_URL: url || undefined, DATABASE_URL_FILE: url ? undefined : file };
}
