/**
 * `pnpm start`: the whole stack on this machine with a seeded demo company (DESIGN §8, issue #3).
 *
 * - Uses DATABASE_URL / NATS_URL when set; otherwise starts local PostgreSQL and nats-server (data kept
 *   in `.local/data`, so a restart keeps the demo company).
 * - Starts the warehouse, invoicing and reporting services and the gateway as child processes (logs in
 *   `.local/logs/`), waits until `/health` is green, seeds the demo company once, writes its
 *   credentials to `.local/demo-credentials.json` and prints them with a ready-to-paste curl.
 * - Ctrl-C stops everything it started.
 *
 * Environment: PORT (8080), DATABASE_URL, NATS_URL, ADMIN_TOKEN (random when unset), LOG_LEVEL (info),
 * LOCAL_DIR (`.local`: data of the local servers, logs, demo credentials and PDFs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInfrastructure } from '@bm/testing/infra';
import { seedDemo, writeDemoPdfs } from './demo-data.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const local = process.env.LOCAL_DIR ?? join(root, '.local');
const say = (s: string) => console.log(s);

const port = Number(process.env.PORT ?? 8080);
const adminToken = process.env.ADMIN_TOKEN ?? randomBytes(24).toString('base64url');
const t0 = Date.now();

mkdirSync(join(local, 'logs'), { recursive: true });
say('Starting PostgreSQL and NATS (or using DATABASE_URL / NATS_URL)…');
// A given DATABASE_URL is used as it is; local servers get the database `business`.
const infra = await ensureInfrastructure({
  dataDir: join(local, 'data'),
  database: process.env.DATABASE_URL ? undefined : 'business',
  log: (l) => say(`  ${l}`),
});
if (infra.started.length) say(`  started ${infra.started.join(', ')}`);

const env = {
  ...process.env,
  DATABASE_URL: infra.databaseUrl,
  NATS_URL: infra.natsUrl,
  ADMIN_TOKEN: adminToken,
  PORT: String(port),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
};
const processes: [string, string][] = [
  ['warehouse', 'services/warehouse/src/main.ts'],
  ['invoicing', 'services/invoicing/src/main.ts'],
  ['reporting', 'services/reporting/src/main.ts'],
  ['gateway', 'gateway/src/main.ts'],
];
const children: ChildProcess[] = [];
let stopping = false;

async function stopAll(code: number): Promise<never> {
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)),
  );
  await infra.stop();
  process.exit(code);
}
process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

for (const [name, file] of processes) {
  const logFile = join(local, 'logs', `${name}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, file)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  child.once('exit', (code) => {
    if (stopping) return;
    console.error(`${name} exited with code ${code}; its log is ${logFile}:`);
    try {
      console.error(readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n'));
    } catch {
      /* no log */
    }
    void stopAll(1);
  });
  children.push(child);
}

const baseUrl = `http://127.0.0.1:${port}`;
say('Waiting for the gateway and the services…');
for (let i = 0; ; i++) {
  const ok = await fetch(`${baseUrl}/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  if (i > 600) {
    console.error('the stack did not become healthy within 60 s; see .local/logs/');
    await stopAll(1);
  }
  await new Promise((r) => setTimeout(r, 100));
}

const credsFile = join(local, 'demo-credentials.json');
const creds = await seedDemo({ baseUrl, adminToken, credsFile, log: say });
writeFileSync(credsFile, `${JSON.stringify({ ...creds, baseUrl }, null, 2)}\n`);
if (process.argv.includes('--demo-pdfs'))
  await writeDemoPdfs(baseUrl, creds, credsFile, join(local, 'demo'), say);

const basic = `${creds.username}:${creds.password}`;
say('');
say(
  `Stack is up in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${baseUrl}  (OpenAPI: ${baseUrl}/1.6/openapi.json)`,
);
say(`Demo company ${creds.companyId}`);
say(`  username      ${creds.username}`);
say(`  password      ${creds.password}`);
say(`  ClientID      ${creds.clientId}`);
say(`  ClientSecret  ${creds.clientSecret}`);
say(`  (also in ${credsFile})`);
say('');
say('Try:');
say(
  `  curl -s -u '${basic}' -H 'ClientID: ${creds.clientId}' -H 'ClientSecret: ${creds.clientSecret}' -H 'CompanyID: ${creds.companyId}' ${baseUrl}/1.6/warehouses`,
);
say('');
say(
  `Admin: POST ${baseUrl}/admin/companies with 'Authorization: Bearer ${adminToken}'${process.env.ADMIN_TOKEN ? '' : ' (generated; set ADMIN_TOKEN to choose one)'}`,
);
say(
  `CLI:   DATABASE_URL='${infra.databaseUrl}' NATS_URL='${infra.natsUrl}' pnpm create-company --name 'Firma s.r.o.' --country SK`,
);
say('');
say(`Logs in ${join(local, 'logs')}. Ctrl-C stops everything.`);
if (!existsSync(credsFile)) await stopAll(1);
