/**
 * The README's first command, `pnpm start` (issue #3): the script brings up every process, seeds the
 * demo company with its documents, writes the credentials file, and the printed curl returns the demo
 * warehouses; Ctrl-C (SIGINT) stops everything. Runs against this run's PostgreSQL and NATS.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, ensureDatabase, freePort } from '@bm/testing/infra';
import { afterAll, describe, expect, inject, it } from 'vitest';

const local = mkdtempSync(join(tmpdir(), 'bm-start-'));
let child: ChildProcess | undefined;
let databaseUrl: string;

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGINT');
    await new Promise((r) => child!.once('exit', r));
  }
  if (databaseUrl) await dropDatabase(databaseUrl).catch(() => undefined);
});

describe('pnpm start', () => {
  it('starts the stack with the demo company and stops on SIGINT', async () => {
    databaseUrl = await ensureDatabase(inject('pgUrl'), `start_${Date.now()}`);
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--demo-pdfs'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        NATS_URL: inject('natsUrl'),
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
    const creds = JSON.parse(readFileSync(join(local, 'demo-credentials.json'), 'utf8'));
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
    child.kill('SIGINT');
    const code = await new Promise((r) => child!.once('exit', r));
    expect(code).toBe(0);
    await expect(fetch(`${creds.baseUrl}/health`)).rejects.toThrow();
  });
});
