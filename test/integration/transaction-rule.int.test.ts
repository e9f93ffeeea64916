/**
 * "No NATS request inside an open database transaction" (docs/architecture.md, issue #22): every
 * process's ORM installs a guard in `@bm/messaging`'s `request`, so a request made inside
 * `em.transactional` is refused before it leaves the process. The whole suite runs under that guard (a
 * path that broke the rule fails the test that takes it); this file shows the guard itself bites.
 */
import { periods } from '@bm/contracts';
import { createLogger } from '@bm/logger';
import { type NatsConnection, request } from '@bm/messaging';
import { initOrm, type MikroORM } from '@bm/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ormOptions } from '../../gateway/src/identity/orm-options.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;
let orm: MikroORM;
let nc: NatsConnection;

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company();
  orm = await initOrm({ ...ormOptions, clientUrl: stack.roleUrls.gateway, log: createLogger('t', 'silent') });
  nc = await stack.natsConnect('gateway');
});
afterAll(async () => {
  await nc?.drain().catch(() => undefined);
  await orm?.close();
  await stack?.stop();
});

const ctx = () => ({ companyId: c.creds.companyId, requestId: crypto.randomUUID() });

describe('no NATS request inside an open database transaction', () => {
  it('a request inside em.transactional is refused before it is sent; the same request outside is answered', async () => {
    const list = await request(nc, periods.list, { page: 1 }, ctx());
    expect(list.items.length).toBeGreaterThan(0);
    const id = list.items[0].id;
    expect((await request(nc, periods.get, { id }, ctx())).id).toBe(id);
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await tx.execute('select 1');
        return request(nc, periods.get, { id }, ctx());
      }),
    ).rejects.toThrow(/NATS request invoicing\.periods\.get made inside an open database transaction/);
    // After the transaction the same call goes out again.
    const em = orm.em.fork();
    await em.transactional(async (tx) => tx.execute('select 1'));
    expect((await request(nc, periods.get, { id }, ctx())).id).toBe(id);
  });
});
