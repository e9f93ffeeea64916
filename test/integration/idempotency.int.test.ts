/**
 * Idempotent creates and request deadlines (issue #12 "Idempotent creates"): a retry with the same
 * `Idempotency-Key` never stores a second document, whether it repeats a stored one, races it, or follows
 * a 504 from a service that ran past its deadline.
 */
import { faults } from '@bm/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { companyWithPartner, issue, item, ok, receive, stockOf, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;
let partnerId: string;

beforeAll(async () => {
  // A short gateway deadline so that the forced 504 comes quickly.
  stack = await startStack({ requestTimeoutMs: 1500 });
  ({ c, partnerId } = await companyWithPartner(stack));
});
afterEach(() => {
  faults.beforeCommitDelayMs = 0;
});
afterAll(() => stack?.stop());

/** A warehouse with 100 pieces of a new item at 2.50 each. */
async function stocked() {
  const w = await warehouse(c);
  const a = await item(c);
  await receive(c, w.id, '2025-03-01', [[a.id, 100, 2.5]]);
  return { w, a };
}

/** An issue card of `quantity` pieces of one item, dated 2025-03-02. */
const cardOf = (warehouseId: string, itemId: string, quantity: number) => ({
  warehouseId,
  partnerId,
  dateOperation: '2025-03-02',
  rows: [{ itemId, quantity }],
});

const cardsOf = async (warehouseId: string) =>
  ok(await c.get(`/1.6/warehouses/issue-cards?warehouseId=${warehouseId}&pageSize=500`)).items;

describe('Idempotency-Key', () => {
  it('a repeat with the same key and body gets the stored answer and stores nothing more', async () => {
    const { w, a } = await stocked();
    const body = cardOf(w.id, a.id, 3);
    const first = await issue(c, body, { 'Idempotency-Key': 'k-repeat-1' });
    expect(first.status).toBe(201);
    expect(first.body.totalCost).toBe(7.5);
    const again = await issue(c, body, { 'Idempotency-Key': '"k-repeat-1"' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await cardsOf(w.id)).toHaveLength(1);
    expect(await stockOf(c, w.id, a.id)).toEqual([97, 242.5]);
    // Without a key every POST is a new document.
    expect((await issue(c, body)).status).toBe(201);
    expect(await cardsOf(w.id)).toHaveLength(2);
  });

  it('the same key with another body is 422 IdempotencyKeyReused and stores nothing', async () => {
    const { w, a } = await stocked();
    const body = cardOf(w.id, a.id, 1);
    expect((await issue(c, body, { 'Idempotency-Key': 'k-other-body' })).status).toBe(201);
    const other = await issue(
      c,
      { ...body, rows: [{ itemId: a.id, quantity: 2 }] },
      { 'Idempotency-Key': 'k-other-body' },
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IdempotencyKeyReused');
    expect(other.body.errors).toEqual([
      { path: 'Idempotency-Key', message: 'already used with another request' },
    ]);
    expect(await stockOf(c, w.id, a.id)).toEqual([99, 247.5]);
  });

  it('50 concurrent requests with one key store one document; the others are replays or 409 in flight', async () => {
    const { w, a } = await stocked();
    const body = cardOf(w.id, a.id, 1);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => issue(c, body, { 'Idempotency-Key': 'k-race' })),
    );
    const created = replies.filter((r) => r.status === 201);
    const inFlight = replies.filter((r) => r.status === 409);
    expect(created.length + inFlight.length).toBe(50);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(
      inFlight.every((r) => r.body.code === 'Conflict' && Number(r.headers.get('retry-after')) >= 1),
    ).toBe(true);
    expect(await cardsOf(w.id)).toHaveLength(1);
    expect(await stockOf(c, w.id, a.id)).toEqual([99, 247.5]);
  });

  it('a bad key is 400 naming the header', async () => {
    const { w, a } = await stocked();
    const r = await issue(c, cardOf(w.id, a.id, 1), { 'Idempotency-Key': 'x'.repeat(256) });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('Idempotency-Key');
    expect(await cardsOf(w.id)).toHaveLength(0);
  });
});

describe('deadlines', () => {
  it('a service delayed past the deadline stores nothing and says so (504); the retry with the key stores exactly one card', async () => {
    const { w, a } = await stocked();
    const body = cardOf(w.id, a.id, 4);
    faults.beforeCommitDelayMs = 1300;
    const t0 = performance.now();
    const late = await issue(c, body, { 'Idempotency-Key': 'k-deadline' });
    expect(late.status).toBe(504);
    expect(late.body.code).toBe('Timeout');
    expect(late.body.detail).toMatch(/nothing was stored/);
    expect(performance.now() - t0).toBeLessThan(1500 + 1000);
    faults.beforeCommitDelayMs = 0;
    // The transaction rolled back: no card, no stock movement, no record number taken.
    expect(await cardsOf(w.id)).toHaveLength(0);
    expect(await stockOf(c, w.id, a.id)).toEqual([100, 250]);
    const retry = await issue(c, body, { 'Idempotency-Key': 'k-deadline' });
    expect(retry.status).toBe(201);
    expect(retry.body.totalCost).toBe(10);
    const again = await issue(c, body, { 'Idempotency-Key': 'k-deadline' });
    expect(again.body.id).toBe(retry.body.id);
    expect(await cardsOf(w.id)).toHaveLength(1);
    expect(await stockOf(c, w.id, a.id)).toEqual([96, 240]);
  });

  it('when no answer comes in time the 504 says the outcome is unknown, and the key stays locked (409) instead of running twice', async () => {
    const { w, a } = await stocked();
    const body = cardOf(w.id, a.id, 5);
    // Longer than the gateway waits: the gateway's own timer answers, not the service.
    faults.beforeCommitDelayMs = 1800;
    const lost = await issue(c, body, { 'Idempotency-Key': 'k-unknown' });
    expect(lost.status).toBe(504);
    expect(lost.body.detail).toMatch(/outcome is unknown/);
    const retry = await issue(c, body, { 'Idempotency-Key': 'k-unknown' });
    expect(retry.status).toBe(409);
    expect(Number(retry.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The service still rolled back at its deadline.
    await new Promise((r) => setTimeout(r, 600));
    faults.beforeCommitDelayMs = 0;
    expect(await cardsOf(w.id)).toHaveLength(0);
    expect(await stockOf(c, w.id, a.id)).toEqual([100, 250]);
  });
});
