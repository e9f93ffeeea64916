/**
 * Per-service database URLs (issue #25): the warehouse's schema on a PostgreSQL server of its own, every
 * other schema on the test server. A receipt and an issue card go through the whole stack; their rows are
 * on the warehouse's server only, and the invoicing side (periods) works from the other server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureInfrastructure, type Infra } from '@bm/testing/infra';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { costs, issue, item, ok, openYear, partner, receive, warehouse } from '../support/fixtures.js';
import { type Stack, startStack } from '../support/stack.js';

let second: Infra;
let stack: Stack;

beforeAll(async () => {
  // A second, throw-away PostgreSQL server (the NATS server of the tests is reused).
  second = await ensureInfrastructure({
    dataDir: mkdtempSync(join(tmpdir(), 'bm-second-pg-')),
    env: { NATS_URL: inject('natsUrl') },
  });
  stack = await startStack({ serverOf: { warehouse: second.databaseUrl } });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await second?.stop();
});

async function count(url: string, sql: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query(sql)).rows[0].n);
  } finally {
    await c.end();
  }
}

describe('two PostgreSQL servers', () => {
  it('the warehouse keeps its ledger on its own server; the other services work from the first', async () => {
    const c = await stack.company();
    await openYear(c, 2025);
    const w = await warehouse(c);
    const i = await item(c);
    const p = await partner(c);
    await receive(c, w.id, '2025-03-01', [[i.id, 10, '2.50']]);
    const card = ok(
      await issue(c, {
        partnerId: p.id,
        warehouseId: w.id,
        dateOperation: '2025-03-02',
        rows: [{ itemId: i.id, quantity: 4 }],
      }),
      201,
    );
    expect(costs(card)).toEqual([[4, 2.5, 10]]);

    const warehouseUrl = stack.roleUrls.warehouse;
    expect(new URL(warehouseUrl).port).toBe(new URL(second.databaseUrl).port);
    expect(new URL(stack.roleUrls.invoicing).port).not.toBe(new URL(second.databaseUrl).port);
    expect(await count(warehouseUrl, 'select count(*) as n from warehouse.issue_card')).toBe(1);
    expect(await count(warehouseUrl, 'select count(*) as n from warehouse.receipt_card')).toBe(1);
    // The first server has no warehouse tables at all; invoicing's periods are there.
    expect(
      await count(
        stack.databaseUrl,
        `select count(*) as n from information_schema.tables where table_schema = 'warehouse'`,
      ),
    ).toBe(0);
    expect(
      await count(stack.roleUrls.invoicing, 'select count(*) as n from invoicing.period'),
    ).toBeGreaterThan(0);
  });
});
