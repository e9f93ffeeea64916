/**
 * Request coalescing (issue #24, shared/messaging/src/batch.ts) on the real stack: HTTP requests that
 * reach the gateway together travel to their service as one NATS message, and each still gets its own
 * answer: stored documents their numbers and costs, refused ones their own error, nothing of a refused one
 * stored. A message that claims to be a batch and is not one is refused whole, with nothing done.
 */
import { defineContract, Headers, z } from '@bm/contracts';
import { createLogger } from '@bm/logger';
import { coalesceStats, encodeFrames, request, serve } from '@bm/messaging';
import { Svcm } from '@nats-io/services';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithPartner, issue, item, ok, receive, stockOf, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

const CREATE_CARD = 'warehouse.issue-cards.create';
let stack: Stack;
let c: Client;
let partnerId: string;

beforeAll(async () => {
  stack = await startStack();
  ({ c, partnerId } = await companyWithPartner(stack));
});
afterAll(() => stack?.stop());

describe('requests sent together', () => {
  it('12 issue cards at once: one NATS message or a few, each card its own answer, numbers gapless, stock exact', async () => {
    const w = await warehouse(c);
    const a = await item(c);
    const b = await item(c);
    await receive(c, w.id, '2025-03-01', [
      [a.id, 10, '2.50'],
      [b.id, 3, '4.00'],
    ]);
    const o = ok(
      await c.post('/1.6/ordners', {
        code: 'BT',
        name: 'Batch',
        documentType: 'IssueCard',
        numberFormat: 'BT{seq:3}',
      }),
      201,
    );
    // Cards 0–7 issue 1 piece of a each; 8 and 9 want 2 pieces of b each (3 in stock: one of them is
    // refused); 10 names an item that does not exist; 11 has no rows (refused by the service's rules).
    const bodies = [
      ...Array.from({ length: 8 }, () => ({ itemId: a.id, quantity: 1 })),
      { itemId: b.id, quantity: 2 },
      { itemId: b.id, quantity: 2 },
      { itemId: '00000000-0000-4000-8000-0000000000ff', quantity: 1 },
    ].map((row) => ({ rows: [row] }));
    const before = { ...coalesceStats };
    const replies = await Promise.all(
      [...bodies, { rows: [] }].map((body) =>
        issue(c, {
          ordnerCode: undefined,
          ordnerId: o.id,
          warehouseId: w.id,
          partnerId,
          dateOperation: '2025-03-02',
          ...body,
        } as any),
      ),
    );
    // They went together: fewer NATS messages than requests.
    expect(coalesceStats.batched - before.batched).toBeGreaterThanOrEqual(2);
    expect(coalesceStats.batches - before.batches).toBeLessThan(coalesceStats.batched - before.batched);

    const statuses = replies.map((r) => r.status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(201));
    // Exactly one of the two cards of b is stored.
    expect(statuses.slice(8, 10).sort()).toEqual([201, 422]);
    const short = replies.slice(8, 10).find((r) => r.status === 422)!;
    expect(short.body.code).toBe('OperationCanceledException');
    expect(short.body.shortfalls[0].available).toBe(1);
    expect(replies[10].status).toBe(422);
    expect(replies[10].body.code).toBe('ReferenceNotFound');
    expect(replies[10].body.errors).toEqual([{ path: 'rows.0.itemId', message: 'item not found' }]);
    expect(replies[11].status).toBe(400);
    expect(replies[11].body.errors.map((e: any) => e.path)).toContain('rows');

    const stored = replies.filter((r) => r.status === 201).map((r) => r.body);
    expect(stored.map((s) => s.recordNumber).sort()).toEqual(
      Array.from({ length: 9 }, (_, i) => `BT${String(i + 1).padStart(3, '0')}`),
    );
    expect(stored.filter((s) => s.rows[0].itemId === a.id).map((s) => s.totalCost)).toEqual(
      Array(8).fill(2.5),
    );
    expect(stored.find((s) => s.rows[0].itemId === b.id).totalCost).toBe(8);
    expect(await stockOf(c, w.id, a.id)).toEqual([2, 5]);
    expect(await stockOf(c, w.id, b.id)).toEqual([1, 4]);
  });

  it('a message marked as a batch whose body is not frames is refused whole (400), and nothing is stored', async () => {
    const nc = await stack.natsConnect('gateway');
    try {
      const h = natsHeaders();
      h.set(Headers.batchSize, '2');
      const garbage = new Uint8Array([0, 0, 0, 200, 123, 34]); // a header length past the end
      const m = await nc.request(CREATE_CARD, garbage, {
        timeout: 5000,
        headers: h,
      });
      expect(m.headers?.get('Nats-Service-Error-Code')).toBe('400');
      expect(m.headers?.get('Nats-Service-Error')).toBe('BadRequest');
      expect(JSON.parse(new TextDecoder().decode(m.data)).detail).toMatch(/malformed batch/);

      // A well-formed batch straight to the service: each frame answered in order, errors per frame.
      const frames = encodeFrames([
        { headers: { [Headers.requestId]: 'r-1' }, data: new TextEncoder().encode('{"nonsense":true}') },
        { headers: { [Headers.requestId]: 'r-2' }, data: new TextEncoder().encode('not json') },
      ]);
      const r = await nc.request(CREATE_CARD, frames, {
        timeout: 5000,
        headers: h,
      });
      expect(r.headers?.get(Headers.batchSize)).toBe('2');
      const { decodeFrames } = await import('@bm/messaging');
      const out = decodeFrames(r.data);
      expect(out.map((f) => f.headers['Nats-Service-Error-Code'])).toEqual(['400', '400']);
      expect(out.map((f) => f.headers['Nats-Service-Error'])).toEqual(['ValidationFailed', 'BadRequest']);
    } finally {
      await nc.close();
    }
  });

  it('requests sent together to a service of their own, one with a reply above the message limit: each gets its own reply, the large one through the object store', async () => {
    const nc = await stack.natsConnect('admin');
    const service = await new Svcm(nc).add({ name: 'batch-test', version: '1.0.0', queue: 'batch-test' });
    const contract = defineContract({
      subject: 'batch-test.echo',
      request: z.object({ n: z.number().int(), big: z.boolean() }),
      reply: z.object({ n: z.number(), text: z.string() }),
    });
    serve(
      service.addGroup(''),
      contract,
      async (req) => ({ n: req.n * 10, text: req.big ? 'x'.repeat(2_000_000) : 'small' }),
      { log: createLogger('batch-test', 'silent'), nc },
    );
    try {
      const before = { ...coalesceStats };
      const replies = await Promise.all(
        [1, 2, 3].map((n) =>
          request(nc, contract, { n, big: n === 2 }, { requestId: `r-${n}` }, { coalesce: true }),
        ),
      );
      expect(coalesceStats.batches - before.batches).toBe(1);
      expect(coalesceStats.batched - before.batched).toBe(3);
      expect(replies.map((r) => [r.n, r.text.length])).toEqual([
        [10, 5],
        [20, 2_000_000],
        [30, 5],
      ]);
    } finally {
      await service.stop();
      await nc.close();
    }
  });
});
