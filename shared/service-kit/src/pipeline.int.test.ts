/**
 * Pipelined statements (bound-query.ts `execPipelined`, issue #24): several prepared statements in one
 * write to the socket, each with its own snapshot, so a read after a lock in the same pipeline sees what
 * the lock waited for; with `commit`, the transaction's commit goes with them.
 */
import { ensureDatabase } from '@bm/testing/infra';
import { defineEntity, MikroORM, p } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { execPipelined } from './bound-query.js';
import { GroupConnection } from './group-connection.js';
import { PipelinedClient } from './prepared-statements.js';

const Slot = defineEntity({
  name: 'Slot',
  tableName: 'slot',
  properties: { id: p.integer().primary(), note: p.text() },
});
let orm: MikroORM;
const note = async (id: number) =>
  (await orm.em.getConnection().execute(`select "note" from "slot" where "id" = ?`, [id]))[0]?.note;

beforeAll(async () => {
  orm = await MikroORM.init({
    clientUrl: await ensureDatabase(inject('pgUrl'), `pipe_${Date.now()}`),
    entities: [Slot],
    // As `initOrm` runs it.
    driverOptions: { pipeline: true, Client: PipelinedClient },
  });
  await orm.schema.create();
  await orm.em
    .getConnection()
    .execute(`insert into "slot" ("id", "note") values (1, 'a'), (2, 'b'), (3, 'c')`);
});
afterAll(() => orm?.close());

/** `fn` in a transaction on a group's own connection (group-connection.ts), as a group commit runs one. */
const inGroup = <T>(fn: (tx: any) => Promise<T>) =>
  GroupConnection.run(orm.em.fork(), [], async (c) => {
    const r = await fn(c.tx);
    if (!c.committed) await c.commitWith([]);
    return r;
  });

describe('execPipelined', () => {
  it("answers each statement's rows, its values bound (quotes, backslashes, nulls, numbers)", async () => {
    const tricky = `it's a \\ "test"; drop table slot; --`;
    const [first, second] = await inGroup((tx) =>
      execPipelined(tx, [
        { sql: `select ?::text as "t", ?::int as "n", ?::text as "z"`, params: [tricky, 42, null] },
        { sql: `select "id" from "slot" where "id" = any(?::int[]) order by "id"`, params: ['{1,2}'] },
      ]),
    );
    expect(first).toEqual([{ t: tricky, n: 42, z: null }]);
    expect(second).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await orm.em.getConnection().execute(`select count(*)::int as "n" from "slot"`))[0].n).toBe(3);
  });

  it('a read after a lock in the same pipeline sees the change the lock waited for', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    // Another transaction locks row 1 and changes it; the pipeline's lock waits for its commit.
    const other = orm.em.fork().transactional(async (tx) => {
      await tx.execute(`update "slot" set "note" = 'changed' where "id" = 1`);
      await held;
    });
    await new Promise((r) => setTimeout(r, 100));
    const pipeline = inGroup((tx) =>
      execPipelined(tx, [
        { sql: `select "id" from "slot" where "id" = ? for update`, params: [1] },
        { sql: `select "note" from "slot" where "id" = ?`, params: [1] },
      ]),
    );
    await new Promise((r) => setTimeout(r, 200));
    release();
    await other;
    const [, read] = await pipeline;
    expect(read).toEqual([{ note: 'changed' }]);
  });

  it('rejects with the failing statement’s error; nothing after it takes effect', async () => {
    const err = await inGroup((tx) =>
      execPipelined(tx, [
        { sql: `select 1/0`, params: [] },
        { sql: `update "slot" set "note" = 'after' where "id" = ?`, params: [2] },
      ]),
    ).catch((e) => e);
    expect(err.code ?? err.cause?.code).toBe('22012');
    expect(await note(2)).toBe('b');
  });

  it('with commit: commits with the last statement; a failing statement commits nothing', async () => {
    await inGroup(async (tx) => {
      await tx.execute(`update "slot" set "note" = 'first' where "id" = 3`);
      await execPipelined(
        tx,
        [{ sql: `update "slot" set "note" = ? || "note" where "id" = ?`, params: ['x-', 3] }],
        {
          commit: true,
        },
      );
    });
    expect(await note(3)).toBe('x-first');
    const err = await inGroup(async (tx) => {
      await tx.execute(`update "slot" set "note" = 'lost' where "id" = 3`);
      await execPipelined(tx, [{ sql: `select 1/0`, params: [] }], { commit: true });
    }).catch((e) => e);
    expect(err.code ?? err.cause?.code).toBe('22012');
    expect(await note(3)).toBe('x-first');
    // The connections are clean afterwards: a transaction on each of them commits as usual.
    await Promise.all([1, 2, 3].map(() => orm.em.fork().transactional((tx) => tx.execute(`select 1`))));
  });

  it('refuses to commit a nested transaction (a savepoint) with its statements', async () => {
    const err = await inGroup((tx) =>
      tx.transactional((inner: any) =>
        execPipelined(inner, [{ sql: 'select 1', params: [] }], { commit: true }),
      ),
    ).catch((e: Error) => e);
    expect(String((err as Error)?.message)).toMatch(/not in a nested one/);
  });

  it('refuses to run outside a transaction', async () => {
    await expect(execPipelined(orm.em.fork(), [{ sql: 'select 1', params: [] }])).rejects.toThrow(
      /only inside a transaction/,
    );
  });
});
