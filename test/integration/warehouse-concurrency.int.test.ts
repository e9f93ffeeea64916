/**
 * Concurrency against the real stack (issue #4 acceptance): no overselling under concurrent issues of
 * one item, and gapless distinct record numbers under concurrent creates in one ordner. Issue #13: cards
 * of one ordner arriving together are stored in one transaction under savepoints (group commit); the
 * property below mixes stored and refused cards and checks each answer, the numbers and the stock
 * against a reference computed here.
 */
import { groupCommitStats } from '@bm/service-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithPartner, issue, item, ok, receive, stockOf, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;
let partnerId: string;

beforeAll(async () => {
  stack = await startStack({ requestTimeoutMs: 60_000 });
  ({ c, partnerId } = await companyWithPartner(stack));
});
afterAll(() => stack?.stop());

describe('concurrent issues', () => {
  it('200 concurrent single-piece issues of 100 in stock: exactly 100 succeed, stock ends at 0 and 0.00', async () => {
    const w = await warehouse(c);
    const a = await item(c);
    await receive(c, w.id, '2025-06-01', [[a.id, 100, 1.2345]]); // 123.45
    const replies = await Promise.all(
      Array.from({ length: 200 }, () =>
        issue(c, {
          warehouseId: w.id,
          partnerId,
          dateOperation: '2025-06-02',
          rows: [{ itemId: a.id, quantity: 1 }],
        }),
      ),
    );
    const created = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status === 422);
    expect(created).toHaveLength(100);
    expect(refused).toHaveLength(100);
    expect(
      refused.every(
        (r) => r.body.code === 'OperationCanceledException' && r.body.shortfalls[0].available === 0,
      ),
    ).toBe(true);
    expect(await stockOf(c, w.id, a.id)).toEqual([0, 0]);
    // 99 pieces at round2(1.2345) = 1.23 and the last one takes what is left: 1.68.
    const cents = created.map((r) => Math.round(r.body.totalCost * 100)).sort((x, y) => x - y);
    expect(cents.reduce((s, x) => s + x, 0)).toBe(12345);
    expect(cents.filter((x) => x === 123)).toHaveLength(99);
    expect(cents.at(-1)).toBe(168);
    expect(new Set(created.map((r) => r.body.recordNumber)).size).toBe(100);
  });

  it('500 concurrent creates in one ordner get 500 distinct, gapless record numbers', async () => {
    const w = await warehouse(c, { allowNegativeStock: true });
    const a = await item(c);
    const o = ok(
      await c.post('/1.6/ordners', {
        code: 'CC',
        name: 'Concurrent',
        documentType: 'IssueCard',
        numberFormat: 'CC{seq:4}',
      }),
      201,
    );
    const replies = await Promise.all(
      Array.from({ length: 500 }, () =>
        c.post('/1.6/warehouses/issue-cards', {
          ordnerId: o.id,
          warehouseId: w.id,
          partnerId,
          dateOperation: '2025-06-03',
          rows: [{ itemId: a.id }],
        }),
      ),
    );
    expect(replies.filter((r) => r.status !== 201).map((r) => r.text)).toEqual([]);
    const numbers = replies.map((r) => r.body.recordNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 500 }, (_, i) => `CC${String(i + 1).padStart(4, '0')}`));
    expect(await stockOf(c, w.id, a.id)).toEqual([-500, 0]);
  });

  it('20 concurrent cards with one given record number: one is stored, the others are 409 DuplicateRecordNumber, stock moves once', async () => {
    const w = await warehouse(c);
    const a = await item(c);
    await receive(c, w.id, '2025-06-01', [[a.id, 50, 3]]);
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        issue(c, {
          warehouseId: w.id,
          partnerId,
          recordNumber: 'RUČNE-1',
          dateOperation: '2025-06-02',
          rows: [{ itemId: a.id, quantity: 2 }],
        }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    expect(
      replies.filter((r) => r.status === 409).every((r) => r.body.code === 'DuplicateRecordNumber'),
    ).toBe(true);
    expect(await stockOf(c, w.id, a.id)).toEqual([48, 144]);
  });
});

describe('group commit per ordner (issue #13)', () => {
  /** One card: which of the three items, how many pieces. */
  const card = fc.record({ key: fc.integer({ min: 0, max: 2 }), quantity: fc.integer({ min: 1, max: 4 }) });
  let run = 0;

  it('any mix of concurrent cards in one ordner: each answered on its own, numbers gapless, every refusal asked for more than was left, stock exact', async () => {
    const before = { ...groupCommitStats };
    groupCommitStats.largest = 0; // measured for this test alone
    await fc.assert(
      fc.asyncProperty(fc.array(card, { minLength: 10, maxLength: 40 }), async (docs) => {
        run++;
        const w = await warehouse(c);
        const items = [await item(c), await item(c), await item(c)];
        // Reference: 5 and 10 pieces at 1.50; the third item has none, so its cards are always refused.
        const stock = [5, 10, 0];
        await receive(c, w.id, '2025-06-01', [
          [items[0].id, 5, '1.5'],
          [items[1].id, 10, '1.5'],
        ]);
        const o = ok(
          await c.post('/1.6/ordners', {
            code: `GC${run}`,
            name: 'Group commit',
            documentType: 'IssueCard',
            numberFormat: `GC${run}X{seq:3}`,
          }),
          201,
        );
        const replies = await Promise.all(
          docs.map((d) =>
            issue(c, {
              ordnerId: o.id,
              warehouseId: w.id,
              partnerId,
              dateOperation: '2025-06-02',
              rows: [{ itemId: items[d.key].id, quantity: d.quantity }],
            }),
          ),
        );
        const issued = [0, 0, 0];
        for (const [i, r] of replies.entries()) {
          const d = docs[i];
          if (r.status === 201) {
            // The answer is this card's own: its item, its quantity, its cost.
            expect(r.body.rows.map((x: any) => [x.itemId, x.quantity])).toEqual([
              [items[d.key].id, d.quantity],
            ]);
            expect(r.body.totalCost).toBe(d.quantity * 1.5);
            issued[d.key] += d.quantity;
          } else {
            expect(r.status).toBe(422);
            expect(r.body.code).toBe('OperationCanceledException');
            expect(r.body.shortfalls[0].itemId).toBe(items[d.key].id);
            expect(r.body.shortfalls[0].requested).toBe(d.quantity);
          }
        }
        // A refusal happened when less was left than asked; what is left at the end is at most that.
        for (const [i, r] of replies.entries())
          if (r.status === 422)
            expect(docs[i].quantity).toBeGreaterThan(stock[docs[i].key] - issued[docs[i].key]);
        for (const k of [0, 1, 2]) {
          expect(issued[k]).toBeLessThanOrEqual(stock[k]);
          expect(await stockOf(c, w.id, items[k].id)).toEqual([
            stock[k] - issued[k],
            (stock[k] - issued[k]) * 1.5,
          ]);
        }
        // Refused cards took no number: the stored ones are numbered 1..n without a gap.
        const numbers = replies
          .filter((r) => r.status === 201)
          .map((r) => r.body.recordNumber)
          .sort();
        expect(numbers).toEqual(numbers.map((_, i) => `GC${run}X${String(i + 1).padStart(3, '0')}`));
      }),
      { numRuns: Number(process.env.GROUP_COMMIT_RUNS ?? 6) },
    );
    // The cards were in fact grouped: some transaction began with more than one card.
    expect(groupCommitStats.groups).toBeGreaterThan(before.groups);
    expect(groupCommitStats.largest).toBeGreaterThan(1);
  });
});
