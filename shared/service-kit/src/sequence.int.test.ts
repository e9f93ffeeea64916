/**
 * A statement sequence (bound-query.ts `execSequence`, issue #24): several statements in one round trip,
 * their values written in as literals, each statement with its own snapshot, so a read after a lock in
 * the same sequence sees what the lock waited for.
 */
import { ensureDatabase } from '@bm/testing/infra';
import { defineEntity, MikroORM, p } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { execSequence, inlinePlaceholders } from './bound-query.js';

const Slot = defineEntity({
  name: 'Slot',
  tableName: 'slot',
  properties: { id: p.integer().primary(), note: p.text() },
});
let orm: MikroORM;

beforeAll(async () => {
  orm = await MikroORM.init({
    clientUrl: await ensureDatabase(inject('pgUrl'), `seq_${Date.now()}`),
    entities: [Slot],
  });
  await orm.schema.create();
  await orm.em.getConnection().execute(`insert into "slot" ("id", "note") values (1, 'a'), (2, 'b')`);
});
afterAll(() => orm?.close());

describe('execSequence', () => {
  it("answers each statement's rows, with values (quotes, backslashes, nulls, numbers) as literals", async () => {
    const tricky = `it's a \\ "test"; drop table slot; --`;
    const [first, second] = await execSequence(orm.em.fork(), [
      { sql: `select ?::text as "t", ?::int as "n", ?::text as "z"`, params: [tricky, 42, null] },
      { sql: `select "id" from "slot" where "id" = any(?::int[]) order by "id"`, params: ['{1,2}'] },
    ]);
    expect(first).toEqual([{ t: tricky, n: 42, z: null }]);
    expect(second).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await orm.em.getConnection().execute(`select count(*)::int as "n" from "slot"`))[0].n).toBe(2);
  });

  it('a read after a lock in the same sequence sees the change the lock waited for', async () => {
    const holder = orm.em.fork();
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    // Another transaction locks row 1 and changes it; the sequence's lock waits for its commit.
    const other = holder.transactional(async (tx) => {
      await tx.execute(`update "slot" set "note" = 'changed' where "id" = 1`);
      await held;
    });
    await new Promise((r) => setTimeout(r, 100));
    const sequence = orm.em.fork().transactional((tx) =>
      execSequence(tx, [
        { sql: `select "id" from "slot" where "id" = ? for update`, params: [1] },
        { sql: `select "note" from "slot" where "id" = ?`, params: [1] },
      ]),
    );
    await new Promise((r) => setTimeout(r, 200));
    release();
    await other;
    const [, read] = await sequence;
    expect(read).toEqual([{ note: 'changed' }]);
  });

  it('rejects with the failing statement’s error and runs none after it', async () => {
    const em = orm.em.fork();
    const err = await em
      .transactional((tx) =>
        execSequence(tx, [
          { sql: `select 1/0`, params: [] },
          { sql: `update "slot" set "note" = 'after' where "id" = ?`, params: [2] },
        ]),
      )
      .catch((e) => e);
    expect(err.code ?? err.cause?.code).toBe('22012');
    const [row] = await orm.em.getConnection().execute(`select "note" from "slot" where "id" = 2`);
    expect(row.note).toBe('b');
  });

  it('refuses parameters that do not match the placeholders', () => {
    expect(() => inlinePlaceholders('select ?, ?', [1])).toThrow(/placeholders/);
    expect(() => inlinePlaceholders('select ?', [1, 2])).toThrow(/placeholders/);
    expect(inlinePlaceholders(`select '?', ?, x ?? y`, ['q'])).toBe(`select '?', 'q', x ? y`);
  });
});
