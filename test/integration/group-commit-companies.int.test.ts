/**
 * One group commit holds documents of several companies and ordners (issue #24: with one group per
 * ordner, 20 companies meant groups of one document each): every document is numbered by its own
 * ordner's counter, gapless and in its own company's sequence; every one works under its own company
 * (a sales invoice reads its period through the company filter); stock is exact per company.
 */
import { groupCommitStats } from '@bm/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issue, item, ok, openYear, partner, receive, stockOf, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
const companies: { c: Client; wh: string; item: string; partner: string }[] = [];

beforeAll(async () => {
  stack = await startStack();
  for (let i = 0; i < 3; i++) {
    const c = await stack.company();
    await openYear(c, 2026);
    const wh = (await warehouse(c)).id;
    const it = (await item(c)).id;
    await receive(c, wh, '2026-11-02', [[it, 100, '1.25']]);
    companies.push({ c, wh, item: it, partner: (await partner(c)).id });
  }
});
afterAll(() => stack?.stop());

const numbers = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}2026${String(i + 1).padStart(5, '0')}`);

describe('a group commit across companies', () => {
  it('numbers each company’s cards and invoices in its own gapless sequence, values each card at its own stock, and mixes companies in groups', async () => {
    const before = groupCommitStats.mixed;
    const N = 12;
    const sent = Array.from({ length: N }, (_, k) =>
      companies.flatMap(({ c, wh, item: itemId, partner: partnerId }) => [
        issue(c, {
          warehouseId: wh,
          partnerId,
          dateOperation: '2026-11-03',
          rows: [{ itemId, quantity: 2 }],
        }).then((r) => ({ kind: 'card', c, body: ok(r, 201) })),
        c
          .post('/1.6/sales/invoices', {
            ordnerCode: 'OF',
            warehouseId: wh,
            partnerId,
            dateCreated: '2026-11-04',
            rows: [{ name: 'Služba', quantity: 1, price: 10 + k, vatRate: 23 }],
          })
          .then((r) => ({ kind: 'invoice', c, body: ok(r, 201) })),
      ]),
    ).flat();
    const done = await Promise.all(sent);
    for (const { c, wh, item: itemId } of companies) {
      const mine = done.filter((d) => d.c === c);
      const cards = mine.filter((d) => d.kind === 'card').map((d) => d.body);
      const invoices = mine.filter((d) => d.kind === 'invoice').map((d) => d.body);
      expect(cards.map((b) => b.recordNumber).sort()).toEqual(numbers('VY', N));
      expect(invoices.map((b) => b.recordNumber).sort()).toEqual(numbers('OF', N));
      // Two pieces at 1.25 each, whatever the group; 24 of 100 pieces issued.
      expect(new Set(cards.map((b) => `${b.totalCost}`))).toEqual(new Set(['2.5']));
      expect(invoices.map((b) => b.sumTotal).sort((a, b) => a - b)).toEqual(
        Array.from({ length: N }, (_, k) => Number(((10 + k) * 1.23).toFixed(2))),
      );
      expect(await stockOf(c, wh, itemId)).toEqual([76, 95]);
    }
    expect(groupCommitStats.mixed).toBeGreaterThan(before);
  });
});
