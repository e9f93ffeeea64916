/**
 * The README's first command, `pnpm start` (issues #3, #9): the script starts its own local PostgreSQL
 * (durable, password-protected, loopback only), brings up every process, seeds the demo company with
 * its documents, writes the credentials file (mode 0600), and the printed curl returns the demo
 * warehouses; each process runs as its own database role and NATS user (issue #12), a killed service is
 * restarted; Ctrl-C (SIGINT) stops everything, the local PostgreSQL and nats-server included.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@bm/testing/infra';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/fixtures.js';
import { removeStackFolder } from '../support/stack-folder.js';

// A path with a space, as a user's clone may have.
const local = mkdtempSync(join(tmpdir(), 'bm start-'));
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGINT');
    await new Promise((r) => child!.once('exit', r));
  }
  // The stack's data (its PostgreSQL cluster, wherever it was kept) goes with the test.
  removeStackFolder(local);
});

/** Connects to the local PostgreSQL of `pnpm start`, runs one query, disconnects. */
async function query(url: string, sql: string): Promise<any[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

/** Waits for `cond` (every 100 ms; bounded at 3 minutes only against a hang, not as a window). */
const until = (cond: () => boolean | Promise<boolean>) => eventually(async () => cond(), Boolean, 180_000);

describe('pnpm start', () => {
  it('starts the stack with the demo company and stops on SIGINT', async () => {
    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env };
    delete env.DATABASE_URL; // pnpm start's own local PostgreSQL, as on a user's machine
    delete env.HOST;
    delete env.NATS_URL; // and its own nats-server with one user per process (issue #12)
    delete env.NATS_CREDENTIALS_FILE;
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--demo-pdfs'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: {
        ...env,
        PORT: String(port),
        LOCAL_DIR: local,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    for (let i = 0; i < 600 && !out.includes('Ctrl-C stops everything'); i++) {
      if (child.exitCode !== null) throw new Error(`pnpm start exited: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out).toContain('Stack is up');
    expect(out).toContain(`The gateway listens on 127.0.0.1:${port}`);
    const credsFile = join(local, 'demo-credentials.json');
    expect(statSync(credsFile).mode & 0o777).toBe(0o600);
    const passwordFile = join(local, 'data', 'postgres-password');
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    const password = readFileSync(passwordFile, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(20);

    // The local PostgreSQL keeps the books safe: crash-safety defaults, password only, loopback only.
    const gatewayDbUrl = readFileSync(join(local, 'data', 'db-gateway.url'), 'utf8').trim();
    const { port: pgPort } = new URL(gatewayDbUrl);
    const durable = await query(
      `postgresql://postgres:${password}@127.0.0.1:${pgPort}/business`,
      `select name, setting from pg_settings
        where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'listen_addresses') order by name`,
    );
    expect(durable).toEqual([
      { name: 'fsync', setting: 'on' },
      { name: 'full_page_writes', setting: 'on' },
      { name: 'listen_addresses', setting: '127.0.0.1' },
      { name: 'synchronous_commit', setting: 'on' },
    ]);
    await expect(query(`postgresql://postgres@127.0.0.1:${pgPort}/business`, 'select 1')).rejects.toThrow(
      /password/,
    );
    await expect(
      query(`postgresql://postgres:wrong@127.0.0.1:${pgPort}/business`, 'select 1'),
    ).rejects.toThrow(/password authentication failed/);

    // Least privilege (issue #12): one database role per process, one NATS user per process.
    for (const f of ['db-roles.json', 'db-gateway.url', 'nats-credentials.json', 'nats-auth.conf'])
      expect(statSync(join(local, 'data', f)).mode & 0o777).toBe(0o600);
    expect(new URL(gatewayDbUrl).username).toBe('bm_gateway');
    expect((await query(gatewayDbUrl, 'select count(*)::int as n from identity.company'))[0].n).toBe(1);
    await expect(query(gatewayDbUrl, 'select * from warehouse.warehouse')).rejects.toThrow(
      /permission denied/,
    );
    const natsUrl = /NATS_URL='([^']+)'/.exec(out)![1];
    await expect(connect({ servers: natsUrl, reconnect: false })).rejects.toThrow(/Authorization/i);

    const creds = JSON.parse(readFileSync(credsFile, 'utf8'));
    expect(Object.keys(creds).sort()).toEqual([
      'baseUrl',
      'clientId',
      'clientSecret',
      'companyId',
      'password',
      'username',
    ]);
    expect(out).toContain(`-H 'CompanyID: ${creds.companyId}' ${creds.baseUrl}/1.6/warehouses`);
    const headers = {
      Authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
      ClientID: creds.clientId,
      ClientSecret: creds.clientSecret,
      CompanyID: creds.companyId,
    };
    const warehouses = await (await fetch(`${creds.baseUrl}/1.6/warehouses`, { headers })).json();
    expect(warehouses.items.map((w: any) => w.code)).toEqual(['HS', 'PRED']);
    const invoices = await (await fetch(`${creds.baseUrl}/1.6/sales/invoices`, { headers })).json();
    expect(invoices.items.map((i: any) => [i.partnerName, i.sumTotal]).sort()).toEqual([
      ['Jana Nováková', 27.23],
      ['Kaffeehaus Müller GmbH', 210],
      ['Tatranská káviareň s.r.o.', 450.06],
    ]);
    const pdfs = readdirSync(join(local, 'demo')).sort();
    expect(pdfs).toHaveLength(6);
    expect(pdfs.map((f) => f.replace(/\d{4}(\d{5})\.pdf$/, '$1'))).toEqual([
      'OF00001',
      'OF00002',
      'OF00003',
      'VY00001',
      'VY00002',
      'VY00003',
    ]);
    // Metrics (issue #25): every process is a target of .local/metrics-targets.json and serves GET /metrics.
    const targetsFile = join(local, 'metrics-targets.json');
    const targets = JSON.parse(readFileSync(targetsFile, 'utf8')) as {
      targets: string[];
      labels: { service: string; instance: string };
    }[];
    expect(targets.map((t) => t.labels).sort((a, b) => a.service.localeCompare(b.service))).toEqual([
      { service: 'access-point', instance: 'access-point-1' },
      { service: 'gateway', instance: 'gateway-1' },
      { service: 'invoicing', instance: 'invoicing-1' },
      { service: 'reporting', instance: 'reporting-1' },
      { service: 'warehouse', instance: 'warehouse-1' },
    ]);
    const scrape = async (service: string) => {
      const t = targets.find((x) => x.labels.service === service)!;
      return (await fetch(`http://${t.targets[0]}/metrics`)).text();
    };
    const sample = (text: string, name: string, labels: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${name}{`) && labels.split(',').every((kv) => l.includes(kv)))
          ?.split(' ')
          .at(-1) ?? Number.NaN,
      );
    const gatewayText = await scrape('gateway');
    expect(
      sample(
        gatewayText,
        'http_server_request_duration_seconds_count',
        'http_route="/1.6/warehouses",http_response_status_code="200"',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        await scrape('warehouse'),
        'messaging_process_duration_seconds_count',
        'messaging_destination_name="warehouse.warehouses.list",outcome="ok"',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(await scrape('invoicing'), 'bm_outbox_backlog_events', 'db_namespace="invoicing"')).toBe(0);
    // The six demo PDFs were rendered.
    expect(
      sample(await scrape('reporting'), 'bm_printout_render_duration_seconds_count', 'outcome="ok"'),
    ).toBe(6);
    expect(await scrape('access-point')).toContain('process_cpu_user_seconds_total');
    const targetsWritten = statSync(targetsFile).mtimeMs;

    // A service that dies is restarted with a back-off, and the stack answers again (issue #12).
    // This stack's warehouse: a child of this `pnpm start` (another stack on the machine has its own).
    const pid = Number(
      execFileSync(
        'pgrep',
        ['-P', String(child.pid), '-f', `${join('services', 'warehouse', 'src', 'main.ts')}`],
        {
          encoding: 'utf8',
        },
      )
        .trim()
        .split('\n')[0],
    );
    process.kill(pid, 'SIGKILL');
    // Waits for what the script promises (the exit seen, the restart announced, the service answering
    // again), not for a fixed window: on a busy machine each step takes longer (issue #35).
    await until(() => out.includes('warehouse exited (SIGKILL); restarting it'));
    expect(out).toContain('warehouse exited (SIGKILL); restarting it in 1 s');
    let again = 0;
    await until(async () => {
      again = (await fetch(`${creds.baseUrl}/1.6/warehouses`, { headers })).status;
      return again === 200;
    });
    expect(again).toBe(200);
    // The targets file was rewritten for the restarted process, and it is scraped again on its port.
    expect(statSync(targetsFile).mtimeMs).toBeGreaterThan(targetsWritten);
    expect(await scrape('warehouse')).toContain('messaging_process_duration_seconds_count');

    child.kill('SIGINT');
    const code = await new Promise((r) => child!.once('exit', r));
    expect(code).toBe(0);
    await expect(fetch(`${creds.baseUrl}/health`)).rejects.toThrow();
    // The local PostgreSQL is stopped too.
    await expect(
      query(`postgresql://postgres:${password}@127.0.0.1:${pgPort}/business`, 'select 1'),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
