/**
 * `pnpm check [--database-url URL] [--stuck-after-minutes N]` (issue #36): the consistency checks of
 * `scripts/ops/consistency.ts` on the live database (the local stack's by default, else DATABASE_URL) or a
 * restored copy. Prints what it checked and every finding with the document it names; exits 1 when there
 * is a finding, 2 when it cannot run. The result is left in `.local/status/check.json` (metrics, log).
 */
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runChecks } from './ops/consistency.js';
import { localDatabaseUrl, writeStatus } from './ops/local-paths.js';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'stuck-after-minutes': { type: 'string', default: '10' },
    'no-status': { type: 'boolean', default: false },
  },
});
const url = values['database-url'] ?? process.env.DATABASE_URL ?? localDatabaseUrl();
if (!url) {
  console.error(
    'pnpm check: no database: start the stack (pnpm start), or give --database-url or DATABASE_URL',
  );
  process.exit(2);
}
try {
  const r = await runChecks(url, { stuckAfterMinutes: Number(values['stuck-after-minutes']) });
  const c = r.checked;
  console.log(
    `checked ${c.archive} archived e-invoices, ${c.numbering} record-number counters, ${c.stock} stock balances, ${c.entries} documents' entries, ${c.outbox} outbox events`,
  );
  for (const f of r.findings)
    console.log(`FINDING ${f.check}: company ${f.companyId}: ${f.document}: ${f.message}`);
  console.log(r.findings.length ? `pnpm check: ${r.findings.length} finding(s)` : 'pnpm check: clean');
  if (!values['no-status']) writeStatus('check', { ...r, databaseUrl: undefined });
  process.exitCode = r.findings.length ? 1 : 0;
} catch (e) {
  writeSync(2, `pnpm check: cannot run: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
