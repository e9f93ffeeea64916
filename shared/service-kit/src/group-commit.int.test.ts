/**
 * The group commit's failure paths (group-transaction.ts, issue #24) on a real PostgreSQL: documents
 * without a savepoint of their own (`lazySavepoint`) and writes deferred to the group's last statement.
 * Each document here adds `amount` to one account row (a deferred write) and, numbered, a row of its own;
 * the account's check constraint (`balance >= 0`) makes a write fail on the server, as a number too large
 * for a column or a violated constraint would.
 */
import { ensureDatabase } from '@bm/testing/infra';
import { defineEntity, MikroORM, p } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AwaitingNumber, type GroupTx, groupCommit } from './group-commit.js';
import { PipelinedClient } from './prepared-statements.js';
import { takeRecordNumbersBatch } from './record-numbers-batch.js';
import { pgArray } from './set-insert.js';

let orm: MikroORM;
/** A numbered document's row (`gc.doc`, unique per company and record number). */
const GcDoc = defineEntity({
  name: 'GcDoc',
  tableName: 'doc',
  schema: 'gc',
  properties: {
    companyId: p.uuid().primary(),
    recordNumber: p.string().primary(),
    name: p.string(),
  },
});
const company = '00000000-0000-0000-0000-0000000000c1';
const ordner = { id: '00000000-0000-0000-0000-0000000000a1', numberFormat: 'GC{seq:3}' };

beforeAll(async () => {
  const url = await ensureDatabase(inject('pgUrl'), `gc_${Date.now()}`);
  // As `initOrm` runs it: statements sent together are pipelined (the opening reads, the commit).
  orm = await MikroORM.init({
    clientUrl: url,
    entities: [GcDoc],
    driverOptions: { pipeline: true, Client: PipelinedClient },
  });
  const c = orm.em.getConnection();
  await c.execute(`create schema gc`);
  await c.execute(`create table gc.ordner_counter (company_id uuid, ordner_id uuid, year int, last_value int,
    primary key (ordner_id, year))`);
  await c.execute(
    `create table gc.doc (company_id uuid, record_number text, name text, unique (company_id, record_number))`,
  );
  await c.execute(`create table gc.account (id int primary key, balance int check (balance >= 0))`);
});
afterAll(() => orm?.close());

/** A document that moves `amount` on account `account` (deferred) and is numbered with the group. */
function doc(
  name: string,
  account: number,
  amount: number,
  opts: {
    throwAfterRead?: boolean;
    badSql?: boolean;
    gate?: Promise<void>;
    /** Takes its savepoint, asks for the earlier documents' writes of `account`, then is refused. */
    refusedInSavepoint?: boolean;
    /** A record number given by hand (its row is stored in `gc.doc`, unique per company). */
    given?: string;
  } = {},
) {
  const work = async (g: GroupTx): Promise<AwaitingNumber<string>> => {
    await opts.gate;
    /** The earlier rounds' writes (of accounts it shares with earlier documents) are made before it reads. */
    const afterEarlierRounds = () => {
      const round = g.rounds[g.self];
      return round ? g.once(`round:${round}`, () => g.flushThen([])) : undefined;
    };
    if (opts.refusedInSavepoint) {
      await g.savepoint();
      await afterEarlierRounds();
      throw new Error(`${name} refused after its savepoint`);
    }
    await afterEarlierRounds();
    await g.tx.execute(`insert into gc.account values (?, 0) on conflict do nothing`, [account]);
    const [row] = await g.tx.execute<{ balance: number }[]>(
      `select balance from gc.account where id = ? for update`,
      [account],
    );
    if (opts.throwAfterRead) throw new Error(`${name} refused by a rule`);
    if (opts.badSql) await g.tx.execute(`select 1 / 0`);
    g.defer([
      {
        kind: 'gc.account update',
        rows: [[account, row.balance + amount]],
        build: (rows) => ({
          sql: `update gc.account a set balance = u.b from unnest(?::int[], ?::int[]) as u(id, b) where a.id = u.id`,
          params: [pgArray(rows.map((r: any) => r[0])), pgArray(rows.map((r: any) => r[1]))],
        }),
      },
    ]);
    return {
      writeSet: name,
      writer: (docName, recordNumber) =>
        opts.given ? [{ entity: GcDoc, rows: [{ companyId: company, recordNumber, name: docName }] }] : [],
    };
  };
  return Object.assign(work, {
    numbering: { schema: 'gc', table: 'gc.doc', companyId: company, ordner, year: 2026, given: opts.given },
  });
}

const submit = (work: ReturnType<typeof doc>, locks: string[] = []) =>
  groupCommit(`gc:${ordner.id}`, orm.em.fork(), work, {
    numbering: work.numbering,
    lazySavepoint: true,
    locks,
  }).then(
    (v) => ({ ok: `${v.writeSet}:${v.recordNumber}` }),
    (e) => ({ err: String(e.message ?? e) }),
  );
const balance = async (id: number) =>
  (await orm.em.getConnection().execute(`select balance from gc.account where id = ?`, [id]))[0]?.balance;
/** Numbers of the stored documents, sorted; the refused ones' errors as they are. */
const outcome = (r: ({ ok: string } | { err: string })[]) =>
  r
    .map((x) => ('ok' in x ? x.ok.split(':')[0] : x.err))
    .concat(r.flatMap((x) => ('ok' in x ? [x.ok.split(':')[1]] : [])).sort());

/**
 * Runs `docs` as ONE group: three blocking documents (on accounts of their own) occupy the ordner's
 * parallel groups while `docs` queue, then all go on.
 */
async function asOneGroup(docs: { work: ReturnType<typeof doc>; locks: string[] }[]) {
  let open!: () => void;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const blockers = [101, 102, 103].map((a) => submit(doc(`x${a}`, a, 1, { gate })));
  await new Promise((r) => setTimeout(r, 50));
  const results = docs.map((d) => submit(d.work, d.locks));
  await new Promise((r) => setTimeout(r, 50));
  open();
  await Promise.all(blockers);
  return Promise.all(results);
}
/** A document declaring its account as its lock (documents sharing rows must declare them: rounds). */
const d = (name: string, account: number, amount: number, opts: Parameters<typeof doc>[3] = {}) => ({
  work: doc(name, account, amount, opts),
  locks: [`account:${account}`],
});

describe('group commit without savepoints, with deferred writes (issue #24)', () => {
  it('stores the documents of a group, two on one account (the second reads after the first is written), and refuses one by a rule alone', async () => {
    const r = await asOneGroup([
      d('a', 1, 5),
      d('b', 1, 7),
      d('c', 2, 3, { throwAfterRead: true }),
      d('d', 2, 4),
    ]);
    expect(outcome(r)).toEqual(['a', 'b', 'c refused by a rule', 'd', 'GC004', 'GC005', 'GC006']);
    expect([await balance(1), await balance(2)]).toEqual([12, 4]);
  });

  it('refuses a document whose own statement failed outside a savepoint, and stores the others of its group', async () => {
    const r = await asOneGroup([d('e', 3, 1), d('f', 3, 2, { badSql: true }), d('g', 4, 2)]);
    expect(outcome(r)).toEqual(['e', expect.stringMatching(/division by zero/), 'g', 'GC010', 'GC011']);
    expect([await balance(3), await balance(4)]).toEqual([1, 2]);
  });

  it("never loses an earlier document's deferred writes to a later document's rollback", async () => {
    const r = await asOneGroup([d('k', 8, 6), d('l', 8, 1, { refusedInSavepoint: true }), d('m', 9, 1)]);
    expect(outcome(r)).toEqual(['k', 'l refused after its savepoint', 'm', 'GC015', 'GC016']);
    expect([await balance(8), await balance(9)]).toEqual([6, 1]);
  });

  it('refuses a document whose hand-given number is taken together with its deferred writes, and keeps the others', async () => {
    await orm.em.getConnection().execute(`insert into gc.doc values (?, 'HAND-1', 'earlier')`, [company]);
    const r = await asOneGroup([
      d('n', 11, 5, { given: 'HAND-1' }),
      d('o', 12, 2),
      d('q', 13, 3, { given: 'HAND-2' }),
    ]);
    expect(r.map((x) => ('ok' in x ? x.ok : x.err.slice(0, 25)))).toEqual([
      'duplicate key value viola',
      'o:GC020',
      'q:HAND-2',
    ]);
    // n's write of account 11 went with its refusal (its account row, made before, stays at 0).
    expect([await balance(11), await balance(12), await balance(13)]).toEqual([0, 2, 3]);
  });

  it("when the group's merged writes fail, stores each document alone so that only the culprit is refused, numbers gapless", async () => {
    // Account 6 would end at -1: its check constraint fails the group's last statement.
    const r = await asOneGroup([d('h', 5, 3), d('i', 6, -1), d('j', 7, 2)]);
    expect(outcome(r)).toEqual(['h', expect.stringMatching(/check constraint/), 'j', 'GC024', 'GC025']);
    expect([await balance(5), await balance(6), await balance(7)]).toEqual([3, undefined, 2]);
  });
});

describe('documents sharing a declared lock (issue #24)', () => {
  it('documents sharing a lock go in one group, in rounds: a and c, then b, then e; each reads after the earlier rounds wrote', async () => {
    const seen = new Map<string, string>();
    const watched = (name: string, account: number, amount: number) => {
      const work = doc(name, account, amount);
      return {
        work: Object.assign(
          (g: GroupTx) => {
            seen.set(name, `${g.self}/${g.peers.length} round ${g.rounds[g.self]}`);
            return work(g);
          },
          { numbering: work.numbering },
        ),
        locks: [`acct:${account}`],
      };
    };
    const r = await asOneGroup([
      watched('a', 21, 1),
      watched('b', 21, 2),
      watched('c', 22, 3),
      watched('e', 21, 4),
    ]);
    expect(r.every((x) => 'ok' in x)).toBe(true);
    // One group of four, worked in round order: a and c (round 0), b (1), e (2).
    expect(Object.fromEntries(seen)).toEqual({
      a: '0/4 round 0',
      c: '1/4 round 0',
      b: '2/4 round 1',
      e: '3/4 round 2',
    });
    // Numbered in that order, consecutively.
    const numberOf = (i: number) => Number((r[i] as { ok: string }).ok.split(':')[1].slice(2));
    expect([numberOf(0), numberOf(2), numberOf(1), numberOf(3)].map((n) => n - numberOf(0))).toEqual([
      0, 1, 2, 3,
    ]);
    // Each of b and e read the balance the rounds before it wrote: 1 + 2 + 4.
    expect([await balance(21), await balance(22)]).toEqual([7, 3]);
  });
});

describe('takeRecordNumbersBatch (issue #24: the numbers of a whole group in one round)', () => {
  it('numbers several ordners and years at once, continues a format without a year from the highest counter, and skips numbers used by hand', async () => {
    const c = orm.em.getConnection();
    const yearly = { id: '00000000-0000-0000-0000-0000000000b1', numberFormat: 'Y{yyyy}-{seq:2}' };
    const plain = { id: '00000000-0000-0000-0000-0000000000b2', numberFormat: 'P{seq:3}' };
    // The plain ordner numbered by year before (its format had a year): it continues after 41.
    await c.execute(`insert into gc.ordner_counter values (?, ?, 2025, 41)`, [company, plain.id]);
    // A document given P043 by hand: the counter passes over it.
    await c.execute(`insert into gc.doc values (?, 'P043', 'by hand')`, [company]);
    const other = '00000000-0000-0000-0000-0000000000c2';
    const numbers = await orm.em.fork().transactional((tx) =>
      takeRecordNumbersBatch(tx, [
        { schema: 'gc', table: 'gc.doc', companyId: company, ordner: yearly, year: 2026, n: 2 },
        { schema: 'gc', table: 'gc.doc', companyId: company, ordner: plain, year: 2026, n: 3 },
        { schema: 'gc', table: 'gc.doc', companyId: company, ordner: yearly, year: 2027, n: 1 },
        // The same plain counter for a document of another year: it follows in the requests' order.
        { schema: 'gc', table: 'gc.doc', companyId: company, ordner: plain, year: 2027, n: 1 },
        // Another company's number P043 is free for it.
        {
          schema: 'gc',
          table: 'gc.doc',
          companyId: other,
          ordner: { ...plain, id: '00000000-0000-0000-0000-0000000000b3' },
          year: 2026,
          n: 1,
        },
      ]),
    );
    // P043 is skipped; the plain counter's numbers follow in the requests' order (P046 to the 2027
    // document, past the reservation): every number once, none missing.
    expect(numbers).toEqual([
      ['Y2026-01', 'Y2026-02'],
      ['P042', 'P044', 'P045'],
      ['Y2027-01'],
      ['P046'],
      ['P001'],
    ]);
    const again = await orm.em
      .fork()
      .transactional((tx) =>
        takeRecordNumbersBatch(tx, [
          { schema: 'gc', table: 'gc.doc', companyId: company, ordner: yearly, year: 2026, n: 1 },
        ]),
      );
    expect(again).toEqual([['Y2026-03']]);
  });

  it('skips a number used by hand whether the counter is where this process left it (looked up with the counter) or was moved by another process (looked up after)', async () => {
    const c = orm.em.getConnection();
    const ordner = { id: '00000000-0000-0000-0000-0000000000b4', numberFormat: 'Q{seq:3}' };
    const take = (n: number) =>
      orm.em
        .fork()
        .transactional((tx) =>
          takeRecordNumbersBatch(tx, [
            { schema: 'gc', table: 'gc.doc', companyId: company, ordner, year: 2026, n },
          ]),
        );
    expect(await take(2)).toEqual([['Q001', 'Q002']]);
    // Predicted right: Q003 and Q004 are the next candidates; Q003 was given by hand.
    await c.execute(`insert into gc.doc values (?, 'Q003', 'by hand')`, [company]);
    expect(await take(2)).toEqual([['Q004', 'Q005']]);
    // Another process took Q006–Q009 (its counter statement), and Q010 was given by hand: this process
    // predicted Q006, is wrong, and looks its real candidates up after the counter.
    await c.execute(`update gc.ordner_counter set last_value = last_value + 4 where ordner_id = ?`, [
      ordner.id,
    ]);
    await c.execute(`insert into gc.doc values (?, 'Q010', 'by hand')`, [company]);
    expect(await take(2)).toEqual([['Q011', 'Q012']]);
    // A group rolled back after numbering: the counter is back, the prediction wrong once, numbers gapless.
    await orm.em
      .fork()
      .transactional(async (tx) => {
        expect(
          await takeRecordNumbersBatch(tx, [
            { schema: 'gc', table: 'gc.doc', companyId: company, ordner, year: 2026, n: 1 },
          ]),
        ).toEqual([['Q013']]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await take(1)).toEqual([['Q013']]);
  });

  it('two transactions of this process numbering one counter at once get distinct numbers (the second predicted from where the first had not yet left it)', async () => {
    const ordner = { id: '00000000-0000-0000-0000-0000000000b5', numberFormat: 'R{seq:3}' };
    const request = (n: number) => [
      { schema: 'gc', table: 'gc.doc', companyId: company, ordner, year: 2026, n },
    ];
    // The counter is known to this process (R001–R002).
    expect(await orm.em.fork().transactional((tx) => takeRecordNumbersBatch(tx, request(2)))).toEqual([
      ['R001', 'R002'],
    ]);
    // A and B start together: both predict R003 on from where this process last left the counter. The
    // first to run its counter statement holds the row until its commit, the other waits for it; when
    // the other's answer comes, the first has moved the mark to its own end, which must not make the
    // other's stale prediction look right.
    let commit!: () => void;
    const gate = new Promise<void>((r) => {
      commit = r;
    });
    const take = (n: number) =>
      orm.em.fork().transactional(async (tx) => {
        const numbers = await takeRecordNumbersBatch(tx, request(n));
        await gate;
        return numbers;
      });
    // Connections ready in the pool, so that both begin and predict at once.
    await Promise.all(
      [1, 2, 3].map(() => orm.em.fork().transactional((tx) => tx.execute('select pg_sleep(0.05)'))),
    );
    const both = Promise.all([take(3), take(2)]);
    await new Promise((r) => setTimeout(r, 200));
    commit();
    const [a, b] = await both;
    const all = [...a[0], ...b[0]].sort();
    expect(all).toEqual(['R003', 'R004', 'R005', 'R006', 'R007']);
  });
});
