/**
 * Nothing lost when a disk dies (issue #36), end to end with real servers: `pnpm start` (its own local
 * PostgreSQL, Barman's WAL receiver as a synchronous standby), documents written through HTTP, then:
 * - the receiver killed again and again under load: writes carry on (degraded, said by the readiness probe
 *   and the metrics), and it comes back by itself;
 * - a point-in-time copy between two documents holds the first and not the second, the live data are
 *   untouched; `pnpm check` on the copy names a tampered archived e-invoice and a broken stock balance;
 * - the drill: right after the last 201, PostgreSQL killed with SIGKILL and its data directory deleted;
 *   `pnpm restore latest`; started again: every document answered 201 is there with its number and
 *   figures, the next number follows the last, every e-invoice hashes as before, `pnpm check` is clean,
 *   the connector sends nothing twice;
 * - `pnpm backup verify` fails on a backup whose WAL was removed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@bm/testing/infra';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, OTHER_SELLER } from '../support/fixtures.js';
import { removeStackFolder } from '../support/stack-folder.js';
import { invoiceXml } from '../support/ubl.js';

const root = join(import.meta.dirname, '..', '..');
const local = mkdtempSync(join(tmpdir(), 'bm-backup-'));
const ADMIN = 'admin-token-backup-0123456789';
let port: number;
let stack: { child: ChildProcess; out: () => string } | undefined;

const env = () => {
  const e: Record<string, string | undefined> = {
    ...process.env,
    LOCAL_DIR: local,
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'warn',
  };
  for (const k of ['DATABASE_URL', 'HOST', 'NATS_URL', 'NATS_CREDENTIALS_FILE']) delete e[k];
  return e;
};

/** Polls `read` until `ok` holds (bounded at 3 minutes only against a hang). */
const until = <T>(read: () => Promise<T> | T, ok: (v: T) => boolean) =>
  eventually(async () => read(), ok, 180_000);

async function startStack() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: { ...env(), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await until(
    () => out,
    (o) => o.includes('Ctrl-C stops everything') || child.exitCode !== null,
  );
  expect(out).toContain('Stack is up');
  expect(out).toContain('Backups: WAL streamed synchronously');
  stack = { child, out: () => out };
}

async function stopStack() {
  if (!stack || stack.child.exitCode !== null) return;
  const exited = new Promise((r) => stack!.child.once('exit', r));
  stack.child.kill('SIGINT');
  await exited;
}

/** `pnpm <script> …` as a user runs it; resolves to its exit code and output. */
function pnpmRun(script: string, args: string[]): { code: number; out: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
    cwd: root,
    env: env(),
    encoding: 'utf8',
    timeout: 600_000,
  });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

const base = () => `http://127.0.0.1:${port}`;
type Creds = {
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  companyId: string;
};
const headersOf = (c: Creds) => ({
  Authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
  ClientID: c.clientId,
  ClientSecret: c.clientSecret,
  CompanyID: c.companyId,
  'Content-Type': 'application/json',
  // No keep-alive: an idle socket the server closes while the test waits would fail the next call.
  Connection: 'close',
});
async function call(
  c: Creds,
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
) {
  const r = await fetch(`${base()}${path}`, {
    method,
    headers: { ...headersOf(c), ...extra },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: r.status, json, text, headers: r.headers };
}
async function created(c: Creds, path: string, body: unknown) {
  const r = await call(c, 'POST', path, body);
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
  return r.json;
}
async function company(body: Record<string, unknown>): Promise<Creds> {
  const r = await fetch(`${base()}/admin/companies`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json', Connection: 'close' },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(201);
  return (await r.json()) as Creds;
}
const pgdataOf = () => {
  const moved = join(local, 'data', 'pgdata-location');
  return join(existsSync(moved) ? readFileSync(moved, 'utf8').trim() : join(local, 'data'), 'pgdata');
};
const liveUrl = () =>
  JSON.parse(readFileSync(join(local, 'data', 'urls.json'), 'utf8')).databaseUrl as string;
const ready = async () => (await fetch(`${base()}/health/ready`)).json() as Promise<any>;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

let A: Creds;
let B: Creds;
let wh: string;
let itemId: string;
let partnerB: string;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bratislava' }).format(new Date());
/** Every document answered 201: path to read it back, and what it must still say. */
const answered: { who: Creds; path: string; recordNumber: string; figure: [string, unknown] }[] = [];
const issued: { id: string; sha256: string }[] = [];

async function issueCard() {
  const card = await created(A, '/1.6/warehouses/issue-cards', {
    ordnerCode: 'VY',
    warehouseId: wh,
    partnerId: partnerB,
    dateOperation: today(),
    rows: [{ itemId, quantity: 1, sellPrice: 5 }],
  });
  answered.push({
    who: A,
    path: `/1.6/warehouses/issue-cards/${card.id}`,
    recordNumber: card.recordNumber,
    figure: ['totalCost', card.totalCost],
  });
  return card;
}
async function salesInvoiceWithEInvoice() {
  const inv = await created(A, '/1.6/sales/invoices', {
    ordnerCode: 'OF',
    warehouseId: wh,
    dateCreated: today(),
    partnerId: partnerB,
    rows: [{ name: 'Káva', quantity: 3, price: 12.5, vatRate: 23 }],
  });
  const e = await call(A, 'POST', `/1.6/sales/invoices/${inv.id}/e-invoice`, undefined, {
    Accept: 'application/xml',
  });
  expect(e.status).toBe(201);
  issued.push({ id: inv.id, sha256: sha(e.text) });
  answered.push({
    who: A,
    path: `/1.6/sales/invoices/${inv.id}`,
    recordNumber: inv.recordNumber,
    figure: ['sumTotal', inv.sumTotal],
  });
  return inv;
}
let uploads = 0;
async function received() {
  uploads++;
  const xml = invoiceXml({
    id: `DRILL-${uploads}`,
    buyer: { name: 'Kupujúci s.r.o.', endpoint: '0245:2023333333', vat: 'SK2023333333', legalId: '50123456' },
    quantity: uploads,
  });
  const r = await call(B, 'POST', '/1.6/purchase/e-invoices', xml, { 'Content-Type': 'application/xml' });
  if (r.status !== 201) throw new Error(`upload: ${r.status} ${r.text}`);
  answered.push({
    who: B,
    path: `/1.6/purchase/invoices/${r.json.id}`,
    recordNumber: r.json.recordNumber,
    figure: ['sumTotal', r.json.sumTotal],
  });
}

beforeAll(async () => {
  port = await freePort();
  await startStack();
  A = await company(OTHER_SELLER);
  B = await company({
    name: 'Kupujúci s.r.o.',
    country: 'SK',
    vatNumber: 'SK2023333333',
    companyNumber: '50123456',
    taxNumber: '2023333333',
    street: 'Hlavná 12',
    city: 'Bratislava',
    postalCode: '81101',
    peppolId: '0245:2023333333',
  });
  wh = (
    await created(A, '/1.6/warehouses', {
      code: 'W1',
      name: 'Sklad',
      valuationMethod: 'FIFO',
      accounted: true,
      stockAccount: '132',
      expenseAccount: '504',
    })
  ).id;
  itemId = (
    await created(A, '/1.6/items', {
      code: 'KAVA',
      name: 'Káva',
      unitCode: 'ks',
      sellPrice: 5,
      vatRate: 23,
      kind: 'stock',
    })
  ).id;
  partnerB = (
    await created(A, '/1.6/partners', {
      code: 'KUP',
      name: 'Kupujúci s.r.o.',
      country: 'SK',
      vatNumber: 'SK2023333333',
      companyNumber: '50123456',
      street: 'Hlavná 12',
      city: 'Bratislava',
      postalCode: '81101',
      peppolId: '0245:2023333333',
    })
  ).id;
  await created(A, '/1.6/warehouses/receipt-cards', {
    ordnerCode: 'PR',
    warehouseId: wh,
    dateOperation: today(),
    rows: [{ itemId, quantity: 100, costPrice: 2.5 }],
  });
}, 300_000);

afterAll(async () => {
  await stopStack();
  removeStackFolder(local);
}, 120_000);

describe('backup and restore of the local stack', { timeout: 600_000 }, () => {
  it('the first base backup is taken and verified by itself; pnpm backup list shows it and the recovery window', async () => {
    const r = await until(ready, (x) => x.backup?.lastVerifyOk === true);
    expect(r.backup).toMatchObject({ mode: 'synchronous', lastVerifyOk: true });
    const list = pnpmRun('backup', ['list']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/\d{8}T\d{6}\s+DONE\s+ended \d{4}-\d{2}-\d{2}T/);
    expect(list.out).toContain('recovery window: from');
    expect(list.out).toContain('RPO 0');
  });

  it('the WAL receiver killed again and again under load: every write answered, degraded said, back by itself', async () => {
    const statuses: number[] = [];
    let degradedSeen: any = null;
    let killing = true;
    const killer = (async () => {
      while (killing) {
        spawnSync('pkill', ['-9', '-f', `pg_receivewal.*${local}`]);
        const r = await ready();
        if (r.backup?.mode === 'degraded') degradedSeen ??= r.backup;
        await new Promise((res) => setTimeout(res, 100));
      }
    })();
    // Writes while the receiver is killed: until the degraded mode was seen, and ten more.
    let more = 10;
    for (let i = 0; i < 400 && more > 0; i++) {
      statuses.push((await call(A, 'POST', '/1.6/units', { code: `L${i}`, name: `load ${i}` })).status);
      if (degradedSeen) more--;
    }
    killing = false;
    await killer;
    expect(degradedSeen).toMatchObject({ mode: 'degraded', reason: expect.stringContaining('WAL receiver') });
    expect(statuses.every((s) => s === 201)).toBe(true);
    const back = await until(ready, (x) => x.backup?.mode === 'synchronous');
    expect(back.backup.mode).toBe('synchronous');
    const targets = JSON.parse(readFileSync(join(local, 'metrics-targets.json'), 'utf8')) as any[];
    const gw = targets.find((t) => t.labels.service === 'gateway').targets[0];
    const metrics = await (await fetch(`http://${gw}/metrics`)).text();
    expect(metrics).toMatch(/^bm_backup_rpo_zero 1$/m);
    expect(metrics).toMatch(/^bm_wal_receiver_up 1$/m);
    expect(metrics).toMatch(/^bm_backup_last_verify_ok 1$/m);
  });

  let beforeT: string;
  let pointInTime: string;
  it('documents, a base backup now, more documents; a point-in-time copy holds what existed at its time', async () => {
    for (let i = 0; i < 3; i++) await issueCard();
    await salesInvoiceWithEInvoice();
    await received();
    beforeT = (await created(A, '/1.6/units', { code: 'PIT1', name: 'before' })).id;
    await new Promise((r) => setTimeout(r, 50));
    pointInTime = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 50));
    await created(A, '/1.6/units', { code: 'PIT2', name: 'after' });
    const now = pnpmRun('backup', []);
    expect(now.code).toBe(0);
    expect(now.out).toMatch(/base backup \d{8}T\d{6} taken/);

    const parent = mkdtempSync(join(tmpdir(), 'bm-pitr-'));
    // PostgreSQL runs as `postgres`: the copy's folder must be one it can enter.
    spawnSync('chmod', ['755', parent]);
    const copy = join(parent, 'copy');
    try {
      const r = pnpmRun('restore', ['--to', pointInTime, '--target', copy]);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain('it never replaces the live data');
      const copyPort = await freePort();
      const pgBin = readdirSync('/usr/lib/postgresql').sort().at(-1);
      const ctl = (args: string[]) =>
        spawnSync(
          'runuser',
          ['-u', 'postgres', '--', `/usr/lib/postgresql/${pgBin}/bin/pg_ctl`, '-D', copy, ...args],
          { encoding: 'utf8' },
        );
      expect(ctl(['-o', `-p ${copyPort}`, '-l', join(copy, 'copy.log'), '-w', 'start']).status).toBe(0);
      const url = new URL(liveUrl());
      url.port = String(copyPort);
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      try {
        const { rows } = await db.query(
          `select code from warehouse.unit where code in ('PIT1', 'PIT2') order by code`,
        );
        expect(rows.map((x) => x.code)).toEqual(['PIT1']);
        // The copy is where one looks at what was, and where the checks find what was planted in it.
        const [doc] = (
          await db.query(
            `select document_id from invoicing.e_invoice_document where direction = 'issued' limit 1`,
          )
        ).rows;
        await db.query(
          `update invoicing.e_invoice_document set bytes = bytes || '\\x20'::bytea where document_id = $1`,
          [doc.document_id],
        );
        const [bal] = (
          await db.query(
            `select id, item_id from warehouse.stock_balance where company_id = $1 and item_id = $2`,
            [A.companyId, itemId],
          )
        ).rows;
        await db.query(`update warehouse.stock_balance set quantity = quantity + 1 where id = $1`, [bal.id]);
        const check = pnpmRun('check', ['--database-url', url.toString(), '--no-status']);
        expect(check.code).toBe(1);
        expect(check.out).toContain(
          `FINDING archive: company ${A.companyId}: issued e-invoice of sales invoice ${doc.document_id}`,
        );
        expect(check.out).toMatch(
          new RegExp(`FINDING stock: company ${A.companyId}: warehouse W1 item KAVA: stock \\d`),
        );
      } finally {
        await db.end();
        ctl(['-m', 'fast', '-w', 'stop']);
      }
      // The live data are untouched.
      const units = (await call(A, 'GET', '/1.6/units?pageSize=500')).json.items.map((u: any) => u.code);
      expect(units).toEqual(expect.arrayContaining(['PIT1', 'PIT2']));
    } finally {
      rmSync(join(copy, '..'), { recursive: true, force: true });
    }
    expect(beforeT).toBeTruthy();
  });

  it('the drill: data directory lost right after the last 201; pnpm restore latest; every document back, numbering and archive intact, nothing sent twice', async () => {
    for (let i = 0; i < 2; i++) await issueCard();
    await salesInvoiceWithEInvoice();
    await received();
    // Every e-invoice delivered (loopback: A → B) before the disaster, so none is in flight.
    for (const e of issued)
      await until(
        () => call(A, 'GET', `/1.6/sales/invoices/${e.id}`).then((r) => r.json.eInvoice.status),
        (s) => s === 'delivered',
      );
    const receivedByB = (await call(B, 'GET', '/1.6/purchase/invoices')).json.totalCount;
    const last = await issueCard();

    // The disaster: PostgreSQL killed, its data directory gone, the moment after the last 201.
    const pgdata = pgdataOf();
    const pid = Number(readFileSync(join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    rmSync(pgdata, { recursive: true, force: true });
    // Refused while the stack runs.
    expect(pnpmRun('restore', ['latest']).code).toBe(2);
    await stopStack();
    const restore = pnpmRun('restore', ['latest']);
    expect(restore.code, restore.out).toBe(0);
    await startStack();

    for (const d of answered) {
      const r = await call(d.who, 'GET', d.path);
      expect(r.status, d.path).toBe(200);
      expect(r.json.recordNumber).toBe(d.recordNumber);
      expect(r.json[d.figure[0]]).toEqual(d.figure[1]);
    }
    const next = await issueCard();
    expect(Number(next.recordNumber.slice(-5))).toBe(Number(last.recordNumber.slice(-5)) + 1);
    for (const e of issued) {
      const r = await call(A, 'GET', `/1.6/sales/invoices/${e.id}/e-invoice`, undefined, {
        Accept: 'application/xml',
      });
      expect(sha(r.text)).toBe(e.sha256);
      expect(r.headers.get('ETag')).toBe(`"${e.sha256}"`);
      const history = (await call(A, 'GET', `/1.6/sales/invoices/${e.id}/e-invoice/history`)).json.items;
      expect(history.filter((h: any) => h.status === 'sent')).toHaveLength(1);
    }
    // The outbox publishes what was left (consumers de-duplicate); then nothing was delivered twice.
    const db = new pg.Client({ connectionString: liveUrl() });
    await db.connect();
    const pending = () =>
      db
        .query(
          `select (select count(*) from invoicing.outbox where published_at is null) + (select count(*) from warehouse.outbox where published_at is null) n`,
        )
        .then((r) => Number(r.rows[0].n));
    await until(pending, (n) => n === 0);
    await db.end();
    expect((await call(B, 'GET', '/1.6/purchase/invoices')).json.totalCount).toBe(receivedByB);
    const check = pnpmRun('check', []);
    expect(check.out).toContain('pnpm check: clean');
    expect(check.code).toBe(0);
  });

  it('pnpm backup verify fails on a backup whose WAL was removed', async () => {
    const ok = pnpmRun('backup', ['verify']);
    expect(ok.code, ok.out).toBe(0);
    const wals = join(local, 'backup', 'barman', 'bm', 'wals');
    for (const d of readdirSync(wals).filter((x) => /^[0-9A-F]{16}$/.test(x)))
      rmSync(join(wals, d), { recursive: true, force: true });
    const broken = pnpmRun('backup', ['verify']);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain('pnpm backup verify: FAILED');
  });
});
