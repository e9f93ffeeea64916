/**
 * Least privilege inside (issue #12): NATS enforces one user per process with subject allow-lists, and
 * PostgreSQL one role per process that owns only its schema. Every check goes to the real servers.
 */
import { Headers } from '@bm/contracts';
import { Objm } from '@nats-io/obj';
import { connect, headers as natsHeaders } from '@nats-io/transport-node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issue, item, ok, openYear, partner, receive, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;

beforeAll(async () => {
  stack = await startStack();
  if (!stack.natsCredentials)
    throw new Error(
      'these tests need NATS with users: let the tests start nats-server, or set NATS_CREDENTIALS_FILE',
    );
  c = await stack.company();
  await openYear(c, 2025);
});
afterAll(() => stack?.stop());

/** How many requests the replicas of `service` have handled on `subject`. */
async function handled(service: 'warehouse' | 'invoicing' | 'reporting', subject: string): Promise<number> {
  let n = 0;
  for (const r of stack.replicas[service]) {
    const stats = await r.kit.service.stats();
    n += stats.endpoints?.find((e) => e.subject === subject)?.num_requests ?? 0;
  }
  return n;
}

/** Sends a request as `user` with a forged Company-Id; resolves to 'answered' or the error's text. */
async function tryRequest(user: 'warehouse' | 'invoicing' | 'reporting', subject: string, body: unknown) {
  const nc = await stack.natsConnect(user);
  const h = natsHeaders();
  h.set(Headers.companyId, c.creds.companyId);
  try {
    await nc.request(subject, JSON.stringify(body), { timeout: 1000, headers: h });
    return 'answered';
  } catch (e) {
    return String((e as Error).message);
  } finally {
    await nc.close();
  }
}

describe('NATS users and permissions', () => {
  it('refuses a connection without credentials or with a wrong password', async () => {
    await expect(connect({ servers: stack.natsUrl, reconnect: false })).rejects.toThrow(/Authorization/i);
    await expect(
      connect({ servers: stack.natsUrl, user: 'warehouse', pass: 'wrong', reconnect: false }),
    ).rejects.toThrow(/Authorization/i);
  });

  it('a forged Company-Id from a service user never reaches a handler of a subject that user may not send', async () => {
    const w = await warehouse(c);
    const a = await item(c);
    const partnerId = (await partner(c)).id;
    await receive(c, w.id, '2025-03-01', [[a.id, 10, 1]]);
    const before = {
      salesCreate: await handled('invoicing', 'invoicing.sales-invoices.create'),
      issueCreate: await handled('warehouse', 'warehouse.issue-cards.create'),
      warehousesList: await handled('warehouse', 'warehouse.warehouses.list'),
    };
    const card = {
      ordnerCode: 'VY',
      warehouseId: w.id,
      partnerId,
      dateOperation: '2025-03-02',
      rows: [{ itemId: a.id, quantity: 1 }],
    };
    expect(await tryRequest('warehouse', 'invoicing.sales-invoices.create', { rows: [] })).toMatch(
      /permission/i,
    );
    expect(await tryRequest('reporting', 'warehouse.issue-cards.create', card)).toMatch(/permission/i);
    expect(await tryRequest('invoicing', 'warehouse.issue-cards.create', card)).toMatch(/permission/i);
    expect(await tryRequest('invoicing', 'warehouse.warehouses.list', {})).toMatch(/permission/i);
    expect(await handled('invoicing', 'invoicing.sales-invoices.create')).toBe(before.salesCreate);
    expect(await handled('warehouse', 'warehouse.issue-cards.create')).toBe(before.issueCreate);
    expect(await handled('warehouse', 'warehouse.warehouses.list')).toBe(before.warehousesList);
    // Nothing was stored; the gateway's own user still works.
    expect(ok(await c.get(`/1.6/warehouses/issue-cards?warehouseId=${w.id}`)).totalCount).toBe(0);
    expect((await issue(c, card)).status).toBe(201);
  });

  it('a service user cannot join another service queue group, nor publish another service events', async () => {
    const nc = await stack.natsConnect('warehouse');
    const errors: string[] = [];
    void (async () => {
      for await (const s of nc.status())
        if (s.type === 'error') errors.push(String(s.error?.message ?? s.error));
    })();
    const sub = nc.subscribe('invoicing.sales-invoices.create', { queue: 'invoicing' });
    const subDone = sub.closed.then(
      () => 'closed',
      (e: Error) => e.message,
    );
    nc.publish('events.invoicing.sales-invoice-created', JSON.stringify({ forged: true }));
    await nc.flush().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      `${await Promise.race([subDone, new Promise((r) => setTimeout(() => r('open'), 500))])} ${errors.join(' ')}`,
    ).toMatch(/permission/i);
    expect(errors.join(' ')).toMatch(/Permissions Violation for Publish to "events\.invoicing/);
    await nc.close();
    // The request still goes to invoicing, not to the would-be impostor.
    const r = await c.get('/1.6/partners');
    expect(r.status).toBe(200);
  });

  it('only reporting and the gateway may open the printouts bucket', async () => {
    const admin = await stack.natsConnect('admin');
    await new Objm(admin).create('printouts');
    await admin.close();
    const nc = await stack.natsConnect('warehouse');
    await expect(new Objm(nc).open('printouts')).rejects.toThrow(/permission|timeout/i);
    await nc.close();
    const gw = await stack.natsConnect('gateway');
    await expect(new Objm(gw).open('printouts')).resolves.toBeDefined();
    await gw.close();
  });
});

describe('PostgreSQL roles', () => {
  const query = async (url: string, sql: string) => {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return await db.query(sql);
    } finally {
      await db.end();
    }
  };

  it('the warehouse role reads its own schema but not identity, invoicing or reporting, and cannot create schemas', async () => {
    const own = await query(stack.roleUrls.warehouse, 'select count(*)::int as n from warehouse.warehouse');
    expect(own.rows[0].n).toBeGreaterThan(0);
    await expect(query(stack.roleUrls.warehouse, 'select * from identity."user"')).rejects.toThrow(
      /permission denied/,
    );
    await expect(query(stack.roleUrls.warehouse, 'select * from invoicing.partner')).rejects.toThrow(
      /permission denied/,
    );
    await expect(query(stack.roleUrls.warehouse, 'select * from reporting.report')).rejects.toThrow(
      /permission denied/,
    );
    await expect(query(stack.roleUrls.warehouse, 'create schema sneaky')).rejects.toThrow(
      /permission denied/,
    );
    await expect(query(stack.roleUrls.warehouse, 'create table public.sneaky (x int)')).rejects.toThrow(
      /permission denied/,
    );
  });

  it('the gateway role reads identity and nothing of the services', async () => {
    const users = await query(stack.roleUrls.gateway, 'select count(*)::int as n from identity."user"');
    expect(users.rows[0].n).toBeGreaterThan(0);
    await expect(query(stack.roleUrls.gateway, 'select * from warehouse.issue_card')).rejects.toThrow(
      /permission denied/,
    );
  });
});
