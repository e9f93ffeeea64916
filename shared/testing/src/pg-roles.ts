/**
 * One PostgreSQL role per process (issue #12 "Least privilege inside"): `bm_warehouse`, `bm_invoicing`,
 * `bm_reporting` own their service's schema and `bm_gateway` owns `identity`; none can read another's
 * schema or create schemas. Run as a superuser (or a role with CREATEROLE that owns the database) by
 * `pnpm start` for its local cluster, by the tests for each test database, and by operators through
 * `scripts/db-roles.ts`. Idempotent: an existing role gets the given password, an existing schema and
 * the tables in it are handed to their role (a database created before roles existed).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { writeSecret } from './secret-file.js';

/** Process → its schema. */
export const SCHEMA_OF = {
  gateway: 'identity',
  warehouse: 'warehouse',
  invoicing: 'invoicing',
  reporting: 'reporting',
} as const;
export type DbProcess = keyof typeof SCHEMA_OF;

/** The role of a process (`bm_<process>`). */
export const roleOf = (p: DbProcess) => `bm_${p}`;

export type DbRolePasswords = Record<DbProcess, string>;

/** Fresh random passwords for the four roles. */
export const generateDbRolePasswords = (): DbRolePasswords =>
  Object.fromEntries(
    Object.keys(SCHEMA_OF).map((p) => [p, randomBytes(24).toString('base64url')]),
  ) as DbRolePasswords;

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Creates or updates the roles, and in the database of `adminUrl` gives each its schema (and nothing
 * else: no CREATE on the database or on `public`). Returns each process's connection URL.
 */
export async function provisionDbRoles(
  adminUrl: string,
  passwords: DbRolePasswords,
): Promise<Record<DbProcess, string>> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const db = (await c.query<{ db: string }>('select current_database() as db')).rows[0].db;
    // Roles are cluster-wide: concurrent provisioning (parallel test databases) must not race.
    await c.query(`select pg_advisory_lock(hashtext('business-backend roles'))`);
    try {
      for (const p of Object.keys(SCHEMA_OF) as DbProcess[]) {
        const role = roleOf(p);
        const exists = (await c.query('select 1 from pg_roles where rolname = $1', [role])).rowCount;
        await c.query(
          `${exists ? 'alter' : 'create'} role ${ident(role)} login nosuperuser nocreatedb nocreaterole password ${literal(passwords[p])}`,
        );
      }
    } finally {
      await c.query(`select pg_advisory_unlock(hashtext('business-backend roles'))`);
    }
    await c.query(`revoke all on database ${ident(db)} from public`);
    await c.query(`revoke create on schema public from public`);
    for (const p of Object.keys(SCHEMA_OF) as DbProcess[]) {
      const role = roleOf(p);
      const schema = SCHEMA_OF[p];
      await c.query(`grant connect, temporary on database ${ident(db)} to ${ident(role)}`);
      await c.query(`create schema if not exists ${ident(schema)} authorization ${ident(role)}`);
      await c.query(`alter schema ${ident(schema)} owner to ${ident(role)}`);
      // Tables, sequences and views made before the roles existed belong to whoever made them.
      await c.query(
        `do $$ declare r record; begin
           for r in select c.oid::regclass::text as name, c.relkind from pg_class c
                      join pg_namespace n on n.oid = c.relnamespace
                     where n.nspname = ${literal(schema)} and c.relkind in ('r', 'p', 'S', 'v', 'm')
                       and pg_get_userbyid(c.relowner) <> ${literal(role)}
                       and not (c.relkind = 'S' and exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i')))
           loop
             execute format('alter %s %s owner to %I',
               case r.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view' else 'table' end,
               r.name, ${literal(role)});
           end loop;
         end $$`,
      );
    }
    const url = new URL(adminUrl);
    return Object.fromEntries(
      (Object.keys(SCHEMA_OF) as DbProcess[]).map((p) => {
        const u = new URL(url);
        u.username = roleOf(p);
        u.password = passwords[p];
        return [p, u.toString()];
      }),
    ) as Record<DbProcess, string>;
  } finally {
    await c.end();
  }
}

/**
 * {@link provisionDbRoles} with passwords kept in `dir/db-roles.json` (mode 0600; created on first use),
 * so a restart keeps them. Returns each process's connection URL.
 */
export async function ensureDbRoles(dir: string, adminUrl: string): Promise<Record<DbProcess, string>> {
  const file = join(dir, 'db-roles.json');
  let passwords: DbRolePasswords | undefined;
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<DbRolePasswords>;
    if ((Object.keys(SCHEMA_OF) as DbProcess[]).every((p) => stored[p]))
      passwords = stored as DbRolePasswords;
  }
  passwords ??= generateDbRolePasswords();
  writeSecret(file, `${JSON.stringify(passwords, null, 2)}\n`);
  const urls = await provisionDbRoles(adminUrl, passwords);
  // One URL file per process, for DATABASE_URL_FILE (compose, the create-company CLI).
  for (const p of Object.keys(urls) as DbProcess[]) writeSecret(join(dir, `db-${p}.url`), `${urls[p]}\n`);
  return urls;
}
