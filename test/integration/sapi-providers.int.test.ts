/**
 * SAPI-SK as real providers answer (issue #43), with a real PostgreSQL and NATS and the stand-in on
 * loopback answering as the public sources say (`test/support/sapi-stand-in.ts`):
 * - refused credentials are the company's problem: nothing `rejected`, the error in the settings, the
 *   mints held back, and every invoice held back sent once after the fix (a PUT, or the provider taking
 *   the deployment's secret again at the next try);
 * - a retry is the same request (a dropped 202, a 409 while the key is in flight, a proxy's page);
 * - a received document is identified by its bytes (ids repeating across senders), its checksum checked,
 *   an unknown listing shape or a page-token loop an error in the settings, a booking failing with an
 *   error retried a bounded number of times, and its bytes kept once.
 */
import { registry } from '@bm/telemetry';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAccessPoint } from '../../services/access-point/src/service.js';
import { sendKey } from '../../services/access-point/src/transports/sapi/send.js';
import { eventually, ok, SLOVAK_SELLER, warehouse } from '../support/fixtures.js';
import { acked, inbox, issueTo, purchaseCount, sha, until } from '../support/sapi-helpers.js';
import { SapiStandIn } from '../support/sapi-stand-in.js';
import { type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';
import { invoiceXml, SUPPLIER } from '../support/ubl.js';

const RECEIVER = '0245:2020123456';
const DEPLOY = { id: 'deploy-client', secret: 'deploy-secret-0123456789' };

let stack: Stack;
let standIn: SapiStandIn;
let ap: RunningAccessPoint | undefined;

const env = (over: Record<string, string> = {}) => ({
  PEPPOL_AP: 'sapi',
  SAPI_URL: standIn.url,
  SAPI_CLIENT_ID: DEPLOY.id,
  SAPI_CLIENT_SECRET: DEPLOY.secret,
  PEPPOL_SEND_ATTEMPTS: '3',
  PEPPOL_RETRY_BASE_MS: '100',
  SAPI_POLL_MS: '200',
  SAPI_AUTH_BACKOFF_MS: '100',
  SAPI_AUTH_BACKOFF_MAX_MS: '400',
  ...over,
});
/** Restarts the connector with `over` in its environment. */
async function connector(over: Record<string, string> = {}) {
  await ap?.stop();
  ap = await stack.startAccessPoint(env(over));
}

let seq = 0;
/** A company with its own Peppol id (`0245:20300000nn`), a warehouse, and optionally its own provider. */
async function company(name: string) {
  seq++;
  const n = String(seq).padStart(2, '0');
  const c = await stack.company({
    ...SLOVAK_SELLER,
    name,
    vatNumber: `SK20300000${n}`,
    companyNumber: `540000${n}`,
    taxNumber: `20300000${n}`,
    peppolId: `0245:20300000${n}`,
  });
  return { c, peppolId: `0245:20300000${n}`, wh: (await warehouse(c)).id as string };
}

const errorsCounted = async (category: string, operation: string) => {
  const m = await registry.getSingleMetric('bm_access_point_errors_total')?.get();
  return (
    m?.values.find((v) => v.labels.category === category && v.labels.operation === operation)?.value ?? 0
  );
};

beforeAll(async () => {
  stack = await startStack();
  standIn = new SapiStandIn({ [DEPLOY.id]: DEPLOY.secret });
  await standIn.listen();
});
afterAll(async () => {
  await ap?.stop();
  await stack?.stop();
  await standIn?.close();
});

describe('refused credentials are the company’s problem, never the document’s', () => {
  it('a wrong secret of the company’s own provider: nothing rejected, the error shown, the mints held back; after the PUT every waiting invoice is sent once', async () => {
    // A long back-off: after the first refusal nothing more is minted until a person acts.
    await connector({ SAPI_AUTH_BACKOFF_MS: '600000', SAPI_AUTH_BACKOFF_MAX_MS: '900000' });
    const own = new SapiStandIn({ 'client-e': 'right-secret-e-0123' });
    await own.listen();
    try {
      const { c, peppolId, wh } = await company('Éčko s.r.o.');
      const authBefore = (await errorsCounted('AUTH', 'send')) + (await errorsCounted('AUTH', 'poll'));
      ok(
        await c.put(
          '/1.6/company/access-point',
          unchecked({ transport: 'sapi', url: own.url, clientId: 'client-e', clientSecret: 'wrong-secret' }),
        ),
      );
      const invoices = [];
      for (let i = 0; i < 3; i++) invoices.push((await issueTo(c, wh, RECEIVER)).inv);
      // Each is delivered PEPPOL_SEND_ATTEMPTS (3) times, then `failed` for AUTH: 9 tries in all.
      for (const inv of invoices) {
        const done = await until(c, inv.id, 'failed');
        expect(done.eInvoice.reasons).toEqual([
          { code: 'AUTH', message: expect.stringContaining('SAPI-AUTH-001') },
        ]);
      }
      // 9 tries and the mailbox polls every 200 ms, yet the provider was asked for a token once or twice
      // (a send and a poll may share the first refusal): the hold answered the rest without a call.
      expect(own.mintCalls).toBeGreaterThanOrEqual(1);
      expect(own.mintCalls).toBeLessThanOrEqual(2);
      expect(own.sent).toHaveLength(0);
      expect(own.sendCalls).toHaveLength(0);
      const settings = ok(await c.get('/1.6/company/access-point'));
      expect(settings.lastError).toContain('SAPI-AUTH-001');
      expect(settings.hold).toMatchObject({
        category: 'AUTH',
        error: expect.stringContaining('SAPI-AUTH-001'),
      });
      expect(Date.parse(settings.hold.nextTryAt)).toBeGreaterThan(Date.parse(settings.hold.since));
      // Counted once per refusal that reached the provider (a send's or a poll's), not per held try.
      const authAfter = (await errorsCounted('AUTH', 'send')) + (await errorsCounted('AUTH', 'poll'));
      // (a send and a poll sharing one refused mint count it twice).
      expect(authAfter - authBefore).toBeGreaterThanOrEqual(1);
      expect(authAfter - authBefore).toBeLessThanOrEqual(2 * own.mintCalls);
      // A person's test tries at once (one more mint) and says what the provider said.
      const tested = await c.post('/1.6/company/access-point/test');
      expect(tested.status).toBe(502);
      expect(tested.body).toMatchObject({ providerCode: 'SAPI-AUTH-001', category: 'AUTH' });
      expect(own.mintCalls).toBeLessThanOrEqual(3);

      // The fix: every invoice held back goes out by itself, once each, in its first attempt.
      ok(
        await c.put(
          '/1.6/company/access-point',
          unchecked({
            transport: 'sapi',
            url: own.url,
            clientId: 'client-e',
            clientSecret: 'right-secret-e-0123',
          }),
        ),
      );
      for (const inv of invoices) {
        const sent = await until(c, inv.id, 'sent');
        expect(sent.eInvoice.attempt).toBe(1);
      }
      expect(own.sent.map((s) => s.idempotencyKey).sort()).toEqual(
        invoices.map((i) => sendKey(i.id, 1)).sort(),
      );
      expect(own.sent.every((s) => s.participant === peppolId)).toBe(true);
      const history = ok(await c.get(`/1.6/sales/invoices/${invoices[0].id}/e-invoice/history`)).items;
      expect(history.map((h: any) => h.status)).toEqual([
        'issued',
        'queued',
        'failed',
        'issued',
        'queued',
        'sent',
      ]);
      expect(history.every((h: any) => h.attempt === 1)).toBe(true);
      const after = ok(await c.get('/1.6/company/access-point'));
      expect(after.hold).toBeNull();
    } finally {
      await own.close();
    }
  });

  it('the deployment’s secret refused: every company on the default provider waits, and sends once the provider takes the secret at the next try', async () => {
    await connector({
      SAPI_CLIENT_SECRET: 'rotated-secret-0123456',
      SAPI_AUTH_BACKOFF_MS: '200',
      SAPI_AUTH_BACKOFF_MAX_MS: '800',
    });
    const f = await company('Efko s.r.o.');
    const g = await company('Géčko s.r.o.');
    const invF = (await issueTo(f.c, f.wh, RECEIVER)).inv;
    const invG = (await issueTo(g.c, g.wh, RECEIVER)).inv;
    for (const [c, inv] of [
      [f.c, invF],
      [g.c, invG],
    ] as const) {
      const done = await until(c, inv.id, 'failed');
      expect(done.eInvoice.reasons[0].code).toBe('AUTH');
    }
    const view = ok(await f.c.get('/1.6/company/access-point'));
    expect(view).toMatchObject({ transport: 'default', effectiveTransport: 'sapi' });
    expect(view.lastError).toContain('SAPI-AUTH-001');
    expect(view.hold.category).toBe('AUTH');
    // The provider now takes the deployment's (rotated) secret: no PUT, no restart.
    const sentBefore = standIn.sent.length;
    standIn.setSecret(DEPLOY.id, 'rotated-secret-0123456');
    await until(f.c, invF.id, 'sent');
    await until(g.c, invG.id, 'sent');
    const mine = standIn.sent.slice(sentBefore).map((s) => s.idempotencyKey);
    expect(mine.sort()).toEqual([sendKey(invF.id, 1), sendKey(invG.id, 1)].sort());
    expect(ok(await g.c.get('/1.6/company/access-point')).hold).toBeNull();
    standIn.setSecret(DEPLOY.id, DEPLOY.secret);
  });
});

describe('a retry is the same request', () => {
  it('a 202 lost to a timeout, then 409 without a body while the key is in flight, then the same request: one document, byte-identical tries', async () => {
    await connector({ SAPI_TIMEOUT_MS: '1000', PEPPOL_SEND_ATTEMPTS: '10' });
    standIn.sendDelayMs = 2500;
    standIn.conflictBody = false;
    try {
      const { c, wh } = await company('Haťko s.r.o.');
      const callsBefore = standIn.calls.length;
      const { inv } = await issueTo(c, wh, RECEIVER);
      const done = await until(c, inv.id, 'sent');
      const key = sendKey(inv.id, 1);
      const mine = standIn.sent.filter((s) => s.idempotencyKey === key);
      expect(mine).toHaveLength(1);
      expect(done.eInvoice.transmissionId).toBe(mine[0].providerDocumentId);
      const sends = standIn.calls.slice(callsBefore).filter((x) => x.path === '/document/send');
      expect(sends.length).toBeGreaterThanOrEqual(2);
      // Never IDEMPOTENCY_KEY_MISMATCH (422): every try under the key was the same request.
      expect(sends.map((x) => x.status).filter((st) => st !== 202 && st !== 409)).toEqual([]);
      expect(sends.some((x) => x.status === 409)).toBe(true);
    } finally {
      standIn.sendDelayMs = 0;
      standIn.conflictBody = true;
    }
  });

  it.each([
    [
      '409 with a PROCESSING body marked not retryable',
      { status: 409, category: 'PROCESSING', code: 'SAPI-IDEMPOTENCY-409', retryable: false },
    ],
    ['a proxy’s 404 page', { status: 404, raw: '<html><body>Not Found</body></html>' }],
    ['a proxy’s 502 page', { status: 502, raw: '<html><body>Bad Gateway</body></html>' }],
  ])('%s: retried with the same key, never rejected', async (_name, answer) => {
    await connector();
    const { c, wh } = await company('Ivko s.r.o.');
    standIn.failNext('send', answer);
    const { inv } = await issueTo(c, wh, RECEIVER);
    await until(c, inv.id, 'sent');
    const history = ok(await c.get(`/1.6/sales/invoices/${inv.id}/e-invoice/history`)).items;
    expect(history.map((h: any) => h.status)).toEqual(['issued', 'queued', 'sent']);
    expect(standIn.sent.filter((s) => s.idempotencyKey === sendKey(inv.id, 1))).toHaveLength(1);
  });
});

describe('received documents are identified by their bytes', () => {
  let r: Awaited<ReturnType<typeof company>>;
  const buyer = () => ({ name: 'Jednotka s.r.o.', endpoint: r.peppolId, vat: null, legalId: null });
  const OTHER_SUPPLIER = {
    ...SUPPLIER,
    name: 'Iný dodávateľ s.r.o.',
    endpoint: '0245:2021666666',
    vat: 'SK2021666666',
    legalId: '44666777',
  };

  beforeAll(async () => {
    await connector();
    r = await company('Jednotka s.r.o.');
  });

  it('two senders’ documents under one provider id: both stored and booked; the same bytes again: stored once', async () => {
    const before = await purchaseCount(r.c);
    const first = invoiceXml({ id: 'FA-2026-001', buyer: buyer(), quantity: 2 });
    const second = invoiceXml({ id: 'FA-2026-001', buyer: buyer(), seller: OTHER_SUPPLIER, quantity: 5 });
    standIn.deliver(r.peppolId, first, { documentId: 'FA-2026-001', sender: SUPPLIER.endpoint });
    standIn.deliver(r.peppolId, second, { documentId: 'FA-2026-001', sender: OTHER_SUPPLIER.endpoint });
    standIn.deliver(r.peppolId, first, { documentId: 'FA-2026-001', sender: SUPPLIER.endpoint });
    const all = () => standIn.mailbox.filter((d) => d.participant === r.peppolId);
    await eventually(async () => all().every((d) => d.status === 'ACKNOWLEDGED'), Boolean, 60_000);
    expect(all().map((d) => d.status)).toEqual(['ACKNOWLEDGED', 'ACKNOWLEDGED', 'ACKNOWLEDGED']);
    const records = (await inbox(r.c)).items.filter((x: any) => x.providerDocumentId === 'FA-2026-001');
    expect(records.map((x: any) => x.sha256).sort()).toEqual([sha(first), sha(second)].sort());
    expect(records.map((x: any) => x.status)).toEqual(['booked', 'booked']);
    expect(new Set(records.map((x: any) => x.senderName))).toEqual(
      new Set([SUPPLIER.name, OTHER_SUPPLIER.name]),
    );
    expect(await purchaseCount(r.c)).toBe(before + 2);
  });

  it('two connector replicas, ids repeating across senders: every document stored once, none acknowledged unstored', async () => {
    const second = await stack.startAccessPoint(env());
    // A slow provider: both replicas are at the same documents at once.
    standIn.fetchDelayMs = 150;
    try {
      const docs = Array.from({ length: 12 }, (_, i) => {
        const seller = i % 2 ? OTHER_SUPPLIER : SUPPLIER;
        const xml = invoiceXml({ id: `TWIN-ID-${i >> 1}`, buyer: buyer(), seller, quantity: i + 1 });
        standIn.deliver(r.peppolId, xml, {
          documentId: `FA-2026-${100 + (i >> 1)}`,
          sender: seller.endpoint,
        });
        return xml;
      });
      const mine = () => standIn.mailbox.filter((d) => d.documentId.startsWith('FA-2026-1'));
      await eventually(async () => mine().every((d) => d.status === 'ACKNOWLEDGED'), Boolean, 60_000);
      expect(mine().map((d) => d.status)).toEqual(Array(12).fill('ACKNOWLEDGED'));
      // Each acknowledged document is in the inbox: by its bytes, exactly once.
      const stored = (await inbox(r.c)).items.filter((x: any) => x.invoiceNumber?.startsWith('TWIN-ID-'));
      expect(stored.map((x: any) => x.sha256).sort()).toEqual(docs.map(sha).sort());
    } finally {
      standIn.fetchDelayMs = 0;
      await second.stop();
    }
  });

  it('a checksum that never matches: kept as needs-attention and acknowledged; one wrong once: fetched again and booked', async () => {
    const persistent = standIn.deliver(r.peppolId, invoiceXml({ id: 'CHK-1', buyer: buyer() }));
    const once = standIn.deliver(r.peppolId, invoiceXml({ id: 'CHK-2', buyer: buyer() }));
    standIn.corruptChecksum(persistent, 100);
    standIn.corruptChecksum(once, 1);
    await eventually(async () => acked(standIn, [persistent, once]), Boolean, 60_000);
    expect(acked(standIn, [persistent, once])).toBe(true);
    const records = (await inbox(r.c)).items;
    const bad = records.find((x: any) => x.providerDocumentId === persistent);
    expect(bad).toMatchObject({ status: 'needs-attention', purchaseInvoiceId: null, invoiceNumber: 'CHK-1' });
    expect(bad.problems).toEqual([
      { rule: 'ChecksumMismatch', field: null, message: expect.stringContaining('checksum mismatch') },
    ]);
    expect(records.find((x: any) => x.providerDocumentId === once)).toMatchObject({ status: 'booked' });
    // The person books it after looking: the bytes were kept.
    const booked = await r.c.post(`/1.6/purchase/e-invoices/${bad.id}/book`);
    expect(booked.status).toBe(201);
    expect(booked.body.externalRecordNumber).toBe('CHK-1');
  });

  it('a listing wrapped in payload (the reference sandbox) is read; an acknowledge answered 204 counts', async () => {
    standIn.listShape = 'payload';
    standIn.ackStatus = 204;
    try {
      const id = standIn.deliver(r.peppolId, invoiceXml({ id: 'WRAP-1', buyer: buyer() }));
      await eventually(async () => acked(standIn, [id]), Boolean, 60_000);
      expect(acked(standIn, [id])).toBe(true);
      const rec = (await inbox(r.c)).items.find((x: any) => x.providerDocumentId === id);
      expect(rec).toMatchObject({ status: 'booked', invoiceNumber: 'WRAP-1' });
      // Acknowledged with no body (the stand-in refuses one).
      const ackCalls = standIn.calls.filter((x) => x.path === `/document/receive/${id}/acknowledge`);
      expect(ackCalls.map((x) => x.status)).toContain(204);
    } finally {
      standIn.listShape = 'flat';
      standIn.ackStatus = 200;
    }
  });

  it('a booking that keeps failing with an error is needs-attention after 5 tries, then booked by hand', async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query('alter table "invoicing"."purchase_invoice_row" rename to "purchase_invoice_row_away"');
      let id: string;
      try {
        id = standIn.deliver(r.peppolId, invoiceXml({ id: 'BROKEN-BOOK-1', buyer: buyer() }));
        const rec = await eventually(
          async () => (await inbox(r.c)).items.find((x: any) => x.providerDocumentId === id),
          (x) => x?.status === 'needs-attention',
          60_000,
        );
        expect(rec.problems).toEqual([
          { rule: 'BookingFailed', field: null, message: expect.stringContaining('booking failed 5×') },
        ]);
        const { rows } = await db.query(
          'select booking_attempts from invoicing.received_e_invoice where id = $1',
          [rec.id],
        );
        expect(rows[0].booking_attempts).toBe(5);
        // Stored, so acknowledged: it is no longer the provider's to keep.
        await eventually(async () => acked(standIn, [id]), Boolean, 30_000);
        expect(acked(standIn, [id])).toBe(true);
      } finally {
        await db.query(
          'alter table "invoicing"."purchase_invoice_row_away" rename to "purchase_invoice_row"',
        );
      }
      const rec = (await inbox(r.c)).items.find((x: any) => x.providerDocumentId === id);
      const booked = await r.c.post(`/1.6/purchase/e-invoices/${rec.id}/book`);
      expect(booked.status).toBe(201);
    } finally {
      await db.end();
    }
  });

  it('the bytes of a booked document are kept once: the archive refers to the inbox record', async () => {
    const xml = invoiceXml({ id: 'ONCE-1', buyer: buyer(), quantity: 7 });
    const id = standIn.deliver(r.peppolId, xml);
    await eventually(async () => acked(standIn, [id]), Boolean, 60_000);
    const rec = (await inbox(r.c)).items.find((x: any) => x.providerDocumentId === id);
    expect(rec.status).toBe('booked');
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        `select d.bytes is null as no_copy, d.received_id, d.sha256 from invoicing.e_invoice_document d
          where d.direction = 'received' and d.company_id = $1`,
        [r.c.creds.companyId],
      );
      expect(rows.length).toBeGreaterThanOrEqual(4);
      expect(rows.every((x) => x.no_copy && x.received_id)).toBe(true);
      const mine = rows.find((x) => x.received_id === rec.id);
      expect(mine.sha256).toBe(sha(xml));
    } finally {
      await db.end();
    }
    const bytes = await r.c.get(`/1.6/purchase/invoices/${rec.purchaseInvoiceId}/e-invoice`);
    expect(bytes.status).toBe(200);
    expect(bytes.text).toBe(xml);
    expect(bytes.headers.get('ETag')).toBe(`"${sha(xml)}"`);
  });
});

describe('a provider’s rate limit', () => {
  it('X-RateLimit-Remaining 0 holds every call until the reset: no 429 is ever provoked, and the invoice goes', async () => {
    await connector();
    // Three calls a window of 1.5 s: a mint, a listing and one more, then the provider would answer 429.
    const limited = new SapiStandIn({ 'client-l': 'secret-l-0123456789' }, '/sapi/v1', {
      rateLimit: 3,
      rateWindowMs: 1500,
    });
    await limited.listen();
    try {
      const { c, wh } = await company('Limitka s.r.o.');
      ok(
        await c.put(
          '/1.6/company/access-point',
          unchecked({
            transport: 'sapi',
            url: limited.url,
            clientId: 'client-l',
            clientSecret: 'secret-l-0123456789',
          }),
        ),
      );
      const held = await eventually(
        async () => ok(await c.get('/1.6/company/access-point')),
        (v) => v.hold?.category === 'RATE_LIMIT',
        30_000,
      );
      expect(held.hold).toMatchObject({
        category: 'RATE_LIMIT',
        error: expect.stringContaining('rate limit'),
      });
      const { inv } = await issueTo(c, wh, RECEIVER);
      await until(c, inv.id, 'sent');
      expect(limited.sent.map((x) => x.idempotencyKey)).toEqual([sendKey(inv.id, 1)]);
      // The connector waited for each reset instead of calling into a spent limit.
      expect(limited.calls.filter((x) => x.status === 429)).toEqual([]);
      expect(limited.calls.length).toBeGreaterThan(3);
    } finally {
      await limited.close();
    }
  });
});

describe('an answer we do not understand is an error, not an empty mailbox', () => {
  it('a listing of an unknown shape and a page token that repeats: the error in the settings and the test', async () => {
    await connector();
    const own = new SapiStandIn({ 'client-k': 'secret-k-0123456789' });
    await own.listen();
    try {
      const { c, peppolId } = await company('Káčko s.r.o.');
      ok(
        await c.put(
          '/1.6/company/access-point',
          unchecked({
            transport: 'sapi',
            url: own.url,
            clientId: 'client-k',
            clientSecret: 'secret-k-0123456789',
          }),
        ),
      );
      const before = await errorsCounted('UNRECOGNISED', 'poll');
      own.listShape = 'unknown';
      own.deliver(
        peppolId,
        invoiceXml({ id: 'LOST-1', buyer: { name: 'Káčko', endpoint: peppolId, vat: null, legalId: null } }),
      );
      const shown = await eventually(
        async () => ok(await c.get('/1.6/company/access-point')),
        (v) => (v.lastError ?? '').includes('UNRECOGNISED-ANSWER'),
        30_000,
      );
      expect(shown.lastError).toContain('no documents array');
      expect(await errorsCounted('UNRECOGNISED', 'poll')).toBeGreaterThan(before);
      const tested = await c.post('/1.6/company/access-point/test');
      expect(tested.status).toBe(502);
      expect(tested.body).toMatchObject({ category: 'UNRECOGNISED', providerCode: 'UNRECOGNISED-ANSWER' });
      expect(own.mailbox[0].status).toBe('RECEIVED');

      own.listShape = 'flat';
      own.loopPages = true;
      const looped = await eventually(
        async () => ok(await c.get('/1.6/company/access-point')),
        (v) => (v.lastError ?? '').includes('PAGE-TOKEN-LOOP'),
        30_000,
      );
      expect(looped.lastError).toContain('twice');
      // Fixed provider: the document is taken at the next poll, and the error clears.
      own.loopPages = false;
      await eventually(async () => own.mailbox[0].status === 'ACKNOWLEDGED', Boolean, 60_000);
      expect(own.mailbox[0].status).toBe('ACKNOWLEDGED');
      const clear = await eventually(
        async () => ok(await c.get('/1.6/company/access-point')),
        (v) => v.lastError === null,
        30_000,
      );
      expect(clear.lastError).toBeNull();
    } finally {
      await own.close();
    }
  });
});
