/**
 * A request's deadline reaches PostgreSQL with the transaction's `begin` (deadline.ts, issue #12; sent in
 * the same round trip since issue #24): `statement_timeout` and `lock_timeout` are the time left, local
 * to the transaction, and a statement running past it is cancelled. Without a deadline nothing is set.
 */
import { ensureDatabase } from '@bm/testing/infra';
import { defineEntity, MikroORM, p } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deadlineSettingsSql, withDeadline } from './deadline.js';
import { PipelinedClient, setBeginSuffix } from './prepared-statements.js';

const Dummy = defineEntity({ name: 'Dummy', tableName: 'dummy', properties: { id: p.integer().primary() } });
let orm: MikroORM;

beforeAll(async () => {
  setBeginSuffix(deadlineSettingsSql);
  orm = await MikroORM.init({
    clientUrl: await ensureDatabase(inject('pgUrl'), `dl_${Date.now()}`),
    entities: [Dummy],
    driverOptions: { Client: PipelinedClient },
  });
});
afterAll(() => orm?.close());

const settings = () =>
  orm.em.fork().transactional(async (tx) => {
    const [row] = await tx.execute(
      `select current_setting('statement_timeout') as s, current_setting('lock_timeout') as l`,
    );
    return row as { s: string; l: string };
  });
/** `4987ms` or `4s` (PostgreSQL's own rounding) → ms. */
const ms = (v: string) => (v.endsWith('ms') ? Number(v.slice(0, -2)) : Number(v.slice(0, -1)) * 1000);

describe('deadline of a transaction', () => {
  it('sets statement_timeout and lock_timeout to the time left, for that transaction only', async () => {
    const t0 = Date.now();
    const inside = await withDeadline(t0 + 5000, settings);
    const spent = Date.now() - t0;
    // The time left when it was set: at most 5 s, at least 5 s less what this call took (1 s of rounding).
    expect(ms(inside.s)).toBeGreaterThanOrEqual(5000 - spent - 1000);
    expect(ms(inside.s)).toBeLessThanOrEqual(5000);
    expect(ms(inside.l)).toBe(ms(inside.s));
    // The next transaction on the same pool, without a deadline, has PostgreSQL's defaults.
    expect(await settings()).toEqual({ s: '0', l: '0' });
  });

  it('cancels a statement that runs past the deadline (SQLSTATE 57014), and the transaction rolls back', async () => {
    const started = Date.now();
    const err = await withDeadline(Date.now() + 300, () =>
      orm.em.fork().transactional((tx) => tx.execute('select pg_sleep(2)')),
    ).catch((e) => e);
    expect((err as { code?: string }).code ?? (err as any).cause?.code).toBe('57014');
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
