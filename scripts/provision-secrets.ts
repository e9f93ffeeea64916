/**
 * Creates the secrets of a deployment (issue #12 "Least privilege inside"), idempotently, in one
 * directory (files mode 0600):
 * - NATS: one user per process with a generated password (`nats-credentials.json`,
 *   `nats-<user>.password`) and the nats-server configuration that enforces their permissions
 *   (`nats-auth.conf`, for `nats-server -c`);
 * - with `--admin-database-url`: one PostgreSQL role per process owning only its schema, created with
 *   that (superuser) URL; passwords in `db-roles.json`, each process's URL in `db-<process>.url`
 *   (for `DATABASE_URL_FILE`).
 * Used by .ci/run and docker-compose.yml; `pnpm start` does the same for its local servers.
 *
 * Usage: pnpm exec tsx scripts/provision-secrets.ts --dir <dir> [--admin-database-url <url>]
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ensureNatsAuth } from '@bm/testing/nats-auth';
import { ensureDbRoles } from '@bm/testing/pg-roles';

const { values } = parseArgs({
  options: { dir: { type: 'string' }, 'admin-database-url': { type: 'string' } },
});
if (!values.dir) {
  console.error('usage: provision-secrets --dir <dir> [--admin-database-url <url>]');
  process.exit(2);
}
mkdirSync(values.dir, { recursive: true, mode: 0o700 });
const nats = ensureNatsAuth(values.dir);
console.log(`NATS users and permissions: ${nats.confFile} (credentials in ${nats.credsFile})`);
const adminUrl = values['admin-database-url'] ?? process.env.ADMIN_DATABASE_URL;
if (adminUrl) {
  // The database server may still be starting (compose): retry for a minute.
  for (let i = 0; ; i++) {
    try {
      await ensureDbRoles(values.dir, adminUrl);
      break;
    } catch (e) {
      if (i >= 60) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  console.log(
    `PostgreSQL roles bm_gateway, bm_warehouse, bm_invoicing, bm_reporting: ${values.dir}/db-<process>.url`,
  );
}
