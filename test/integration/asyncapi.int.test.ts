/**
 * The AsyncAPI document against the running services (issue #14): it is served at
 * `GET /1.6/asyncapi.json` without credentials, equals the committed `docs/asyncapi.json`, names exactly
 * the subjects the services registered, and every event the services publish is on one of its channels
 * with the version it states.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EVENT_VERSION_HEADER, Headers } from '@bm/contracts';
import type { NatsConnection } from '@bm/messaging';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, issue, item, ok, openYear, partner, receive, warehouse } from '../support/fixtures.js';
import { type Client, type Stack, send, startStack } from '../support/stack.js';

let stack: Stack;
let c: Client;
let nc: NatsConnection;
let doc: any;

beforeAll(async () => {
  stack = await startStack();
  c = await stack.company();
  nc = await stack.natsConnect('admin');
});
afterAll(async () => {
  await nc?.close();
  await stack?.stop();
});

const addresses = (pick: (address: string) => boolean) =>
  Object.values<any>(doc.channels)
    .map((ch) => ch.address)
    .filter((a): a is string => typeof a === 'string' && pick(a))
    .sort();

describe('GET /1.6/asyncapi.json', () => {
  it('is public and equals the committed docs/asyncapi.json', async () => {
    const r = await send(stack.app, 'GET', '/1.6/asyncapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    doc = r.body;
    const committed = JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../../docs/asyncapi.json'), 'utf8'),
    );
    expect(doc).toEqual(committed);
    expect(doc.asyncapi).toBe('3.0.0');
  });

  it('names exactly the request subjects the services registered', async () => {
    const served = new Set<string>();
    for (const list of Object.values(stack.replicas))
      for (const r of list) for (const e of r.kit.service.info().endpoints) served.add(e.subject);
    // The access-point connector (issue #23) answers its own look-up.
    const ap = await stack.startAccessPoint();
    for (const s of ap.subjects) served.add(s);
    await ap.stop();
    const documented = addresses((a) => !a.startsWith('events.'));
    expect(documented).toEqual([...served].sort());
    // Each has a request message with a payload schema, and a reply channel with reply and error.
    const create = doc.operations['warehouse.issue-cards.create'];
    expect(create.action).toBe('receive');
    expect(doc.components.messages['warehouse.issue-cards.create.request'].payload.required).toContain(
      'rows',
    );
    expect(Object.keys(doc.channels['warehouse.issue-cards.create.reply'].messages)).toEqual([
      'reply',
      'error',
    ]);
    expect(Object.keys(doc.components.messages.ServiceError.headers.properties)).toContain(
      'Nats-Service-Error-Code',
    );
  });

  it('has a channel for every event the services publish, with its version', async () => {
    const jsm = await jetstreamManager(nc);
    await stack.replicas.warehouse[0].relay()!.flush(); // creates the EVENTS stream
    // The stream is shared with earlier suites: only what this test stores counts.
    const before = (await jsm.streams.info('EVENTS')).state.last_seq;
    await openYear(c, 2025);
    const w = await warehouse(c);
    const i = await item(c);
    const p = await partner(c);
    await receive(c, w.id, '2025-05-01', [[i.id, 10, '1.5']]);
    ok(
      await issue(c, {
        warehouseId: w.id,
        partnerId: p.id,
        dateOperation: '2025-05-02',
        rows: [{ itemId: i.id, quantity: 4 }],
      }),
      201,
    );
    // Back-dated receipt at another cost: FIFO revalues the card (stock-revalued).
    await receive(c, w.id, '2025-04-01', [[i.id, 10, '2']]);
    ok(
      await c.post('/1.6/sales/invoices', {
        ordnerCode: 'OF',
        warehouseId: w.id,
        partnerId: p.id,
        dateCreated: '2025-05-03',
        rows: [{ name: 'Služba', quantity: 1, price: 100 }],
      }),
      201,
    );
    const wanted = [
      'events.warehouse.stock-received',
      'events.warehouse.stock-issued',
      'events.warehouse.stock-revalued',
      'events.invoicing.sales-invoice-created',
    ];
    const subjects = await eventually(
      async () => {
        for (const r of [...stack.replicas.warehouse, ...stack.replicas.invoicing])
          await (r as { relay?: () => { flush(): Promise<number> } | undefined }).relay?.()?.flush();
        const found = new Set<string>();
        const last = (await jsm.streams.info('EVENTS')).state.last_seq;
        for (let seq = before + 1; seq <= last; seq++) {
          const m = await jsm.streams.getMessage('EVENTS', { seq });
          if (m?.header.get(Headers.companyId) === c.creds.companyId) found.add(m.subject);
        }
        return [...found];
      },
      (s) => wanted.every((w) => s.includes(w)),
    );
    const documented = addresses((a) => a.startsWith('events.'));
    expect(subjects.filter((s) => !documented.includes(s))).toEqual([]);
    expect(documented).toEqual(expect.arrayContaining(wanted));
    // Each stored event carries the version its channel states.
    for (const subject of wanted) {
      const m = (await jsm.streams.getMessage('EVENTS', { last_by_subj: subject }))!;
      const stated = doc.components.messages[subject]['x-event-version'];
      expect([subject, m.header.get(EVENT_VERSION_HEADER)]).toEqual([subject, String(stated)]);
      expect(m.header.get('Nats-Msg-Id')).toBe(m.json<{ eventId: string }>().eventId);
    }
  });
});
