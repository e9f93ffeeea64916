/**
 * Dev tool: prints the SQL that would bring a service's schema from its migrations to its entities.
 * Usage: pnpm exec tsx scripts/migration-diff.ts <warehouse|invoicing|reporting|identity>
 * Needs DATABASE_URL (a server where it may create and drop a scratch database).
 * Paste the output into a new migration class of that service.
 */
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';

const target = process.argv[2];
const modules: Record<string, string> = {
  warehouse: '../services/warehouse/src/schema/orm-options.ts',
  invoicing: '../services/invoicing/src/schema/orm-options.ts',
  reporting: '../services/reporting/src/persistence/orm-options.ts',
  identity: '../gateway/src/identity/orm-options.ts',
};
if (!modules[target]) throw new Error(`usage: migration-diff <${Object.keys(modules).join('|')}>`);
const { ormOptions } = await import(modules[target]);
const base = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const scratch = `diff_${Date.now()}`;
const admin = await MikroORM.init({
  clientUrl: base.toString(),
  entities: [],
  discovery: { warnWhenNoEntities: false },
} as any);
await admin.em.getConnection().execute(`create database ${scratch}`);
base.pathname = `/${scratch}`;
const orm = await MikroORM.init({
  clientUrl: base.toString(),
  schema: ormOptions.schema,
  entities: ormOptions.entities,
  extensions: [Migrator],
  migrations: { migrationsList: ormOptions.migrations, snapshot: false, silent: true },
});
await orm.em.getConnection().execute(`create schema if not exists "${ormOptions.schema}"`);
await orm.migrator.up();
console.log((await orm.schema.getUpdateSchemaSQL({ wrap: false })) || '-- no changes');
await orm.close();
await admin.em.getConnection().execute(`drop database ${scratch}`);
await admin.close();
