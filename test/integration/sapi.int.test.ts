/**
 * Going live with a certified Slovak access point over SAPI-SK 1.0 (issue #35), with a real PostgreSQL and
 * NATS and a SAPI-SK stand-in on loopback (`test/support/sapi-stand-in.ts`):
 * - sending: headers and envelope exact, a token reused and re-minted once when expired, retries under the
 *   same key (503, 429 with Retry-After), each error category to its status (AUTH never `rejected`, issue
 *   #43), `REJECTED`, failed then resend;
 * - receiving: 120 documents over two pages booked once and acknowledged after they are stored; a
 *   connector stopped between store and acknowledge; two replicas on one mailbox; `needs-attention` kept
 *   and booked after the fix;
 * - two companies with their own providers at once; the secret never in clear in the database, an answer
 *   or the log.
 */
import { PassThrough } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAccessPoint } from '../../services/access-point/src/service.js';
import { eventually, OTHER_SELLER, ok, SLOVAK_SELLER, warehouse } from '../support/fixtures.js';
import { acked, inbox, issueTo, purchaseCount, sha, until } from '../support/sapi-helpers.js';
import { SapiStandIn } from '../support/sapi-stand-in.js';
import { type Client, type Stack, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';
import { invoiceXml, payableOf } from '../support/ubl.js';

const A_ID = '0245:2022222222';
const B_ID = '0245:2020123456';
const B_PARTY = {
  name: SLOVAK_SELLER.name,
  endpoint: B_ID,
  vat: SLOVAK_SELLER.vatNumber,
  legalId: SLOVAK_SELLER.companyNumber,
};
const SEND_TYPE = {
  Invoice:
    'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
  CreditNote:
    'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let stack: Stack;
let a: Client;
let b: Client;
let whA: string;
let standIn: SapiStandIn;
let ap: RunningAccessPoint;
const env = () => ({
  PEPPOL_AP: 'sapi',
  SAPI_URL: standIn.url,
  SAPI_CLIENT_ID: 'client-a',
  SAPI_CLIENT_SECRET: 'secret-a',
  PEPPOL_SEND_ATTEMPTS: '3',
  PEPPOL_RETRY_BASE_MS: '100',
  SAPI_AUTH_BACKOFF_MS: '100',
  SAPI_AUTH_BACKOFF_MAX_MS: '400',
});

beforeAll(async () => {
  stack = await startStack();
  standIn = new SapiStandIn({ 'client-a': 'secret-a' });
  await standIn.listen();
  a = await stack.company({ ...OTHER_SELLER, peppolId: A_ID });
  b = await stack.company({ ...SLOVAK_SELLER, peppolId: B_ID });
  whA = (await warehouse(a)).id;
  ap = await stack.startAccessPoint(env());
});
afterAll(async () => {
  await stack?.stop();
  await standIn?.close();
});

describe('sending through SAPI-SK', () => {
  it('sends the exact bytes with the envelope and headers of SAPI-SK; sent with the provider’s id', async () => {
    const { inv, bytes } = await issueTo(a, whA, B_ID);
    const done = await until(a, inv.id, 'sent');
    expect(standIn.sent).toHaveLength(1);
    const s = standIn.sent[0];
    expect(s.headers['x-peppol-participant-id']).toBe(A_ID);
    expect(s.headers.authorization).toMatch(/^Bearer [0-9a-f-]{36}$/);
    expect(s.idempotencyKey).toMatch(UUID);
    expect(s.envelope).toEqual({
      metadata: {
        documentId: s.idempotencyKey,
        documentTypeId: SEND_TYPE.Invoice,
        processId: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
        senderParticipantId: A_ID,
        receiverParticipantId: B_ID,
        // Issue #43: the issue's time, not the try's, so a retry is the same request.
        creationDateTime: done.eInvoice.issuedAt,
      },
      payload: bytes.toString('utf8'),
      payloadFormat: 'XML',
      payloadEncoding: 'UTF-8',
      checksum: sha(bytes),
    });
    expect(Buffer.from(s.envelope.payload, 'utf8').equals(bytes)).toBe(true);
    expect(done.eInvoice.transmissionId).toBe(s.providerDocumentId);
    const history = ok(await a.get(`/1.6/sales/invoices/${inv.id}/e-invoice/history`)).items;
    expect(history.map((h: any) => h.status)).toEqual(['issued', 'queued', 'sent']);
    // The frozen bytes keep their ETag after the status moved on.
    const again = await a.get(`/1.6/sales/invoices/${inv.id}/e-invoice`);
    expect(again.headers.get('ETag')).toBe(`"${sha(bytes)}"`);
    expect(again.headers.get('E-Invoice-Status')).toBe('sent');
  });

  it('reuses one token across sends and re-mints once when it expired; a credit note is a CreditNote', async () => {
    const mints = standIn.mints;
    const first = await issueTo(a, whA, B_ID);
    await until(a, first.inv.id, 'sent');
    expect(standIn.mints).toBe(mints);
    standIn.expireTokens();
    const credit = await issueTo(a, whA, B_ID, -1);
    await until(a, credit.inv.id, 'sent');
    expect(standIn.mints).toBe(mints + 1);
    expect(standIn.sent.at(-1)!.envelope.metadata.documentTypeId).toBe(SEND_TYPE.CreditNote);
  });

  it('503 then 202 with the same key: one document at the provider', async () => {
    const sentBefore = standIn.sent.length;
    const callsBefore = standIn.sendCalls.length;
    standIn.failNext('send', { status: 503, category: 'TEMPORARY', code: 'SAPI-TMP-001', retryable: true });
    const { inv } = await issueTo(a, whA, B_ID);
    await until(a, inv.id, 'sent');
    const keys = standIn.sendCalls.slice(callsBefore);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(standIn.sent.length).toBe(sentBefore + 1);
  });

  it('429 with Retry-After: tried again no sooner than it says, with the same key', async () => {
    const callsBefore = standIn.calls.length;
    standIn.failNext('send', { status: 429, retryAfter: '1', retryable: true });
    const { inv } = await issueTo(a, whA, B_ID);
    await until(a, inv.id, 'sent');
    const sends = standIn.calls.slice(callsBefore).filter((c) => c.path === '/document/send');
    expect(sends).toHaveLength(2);
    expect(sends[1].at - sends[0].at).toBeGreaterThanOrEqual(1000);
  });

  it.each([
    ['VALIDATION', 422, 'SAPI-DOC-025'],
    ['PERMANENT', 400, 'SAPI-DOC-030'],
  ])('%s: rejected with the provider’s code and message', async (category, status, code) => {
    standIn.failNext('send', { status, category, code, message: `refused: ${code}`, retryable: false });
    const { inv } = await issueTo(a, whA, B_ID);
    const done = await until(a, inv.id, 'rejected');
    expect(done.eInvoice.reasons).toEqual([{ code, message: `refused: ${code}` }]);
  });

  it('AUTH after the one re-mint is the credentials’ problem, not the document’s: it waits and goes; a 202 REJECTED: rejected with its reason', async () => {
    const auth = {
      status: 401,
      category: 'AUTH',
      code: 'SAPI-AUTH-003',
      message: 'client not allowed to send',
      retryable: false,
    };
    standIn.failNext('send', auth, auth);
    const mints = standIn.mints;
    const one = await issueTo(a, whA, B_ID);
    // Issue #43 (reversing #35): never rejected for a refused credential; sent once the provider takes it.
    await until(a, one.inv.id, 'sent');
    const history = ok(await a.get(`/1.6/sales/invoices/${one.inv.id}/e-invoice/history`)).items;
    expect(history.map((h: any) => h.status)).toEqual(['issued', 'queued', 'sent']);
    expect(standIn.mints).toBeGreaterThanOrEqual(mints + 1);
    standIn.rejectNextSend('receiver not registered for BIS Billing 3.0');
    const two = await issueTo(a, whA, B_ID);
    expect((await until(a, two.inv.id, 'rejected')).eInvoice.reasons).toEqual([
      { code: 'REJECTED', message: 'receiver not registered for BIS Billing 3.0' },
    ]);
  });

  it('TEMPORARY on every try: failed; a resend sends once more under a new key and is sent', async () => {
    const tmp = {
      status: 503,
      category: 'TEMPORARY',
      code: 'SAPI-TMP-002',
      message: 'maintenance',
      retryable: true,
    };
    standIn.failNext('send', tmp, tmp, tmp);
    const callsBefore = standIn.sendCalls.length;
    const { inv } = await issueTo(a, whA, B_ID);
    await until(a, inv.id, 'failed');
    const tried = standIn.sendCalls.slice(callsBefore);
    expect(tried).toHaveLength(3);
    expect(new Set(tried).size).toBe(1);
    ok(await a.post(`/1.6/sales/invoices/${inv.id}/e-invoice/resend`));
    const done = await until(a, inv.id, 'sent');
    expect(done.eInvoice.attempt).toBe(2);
    const last = standIn.sendCalls.slice(callsBefore + 3);
    expect(last).toHaveLength(1);
    expect(last[0]).not.toBe(tried[0]);
    expect(standIn.sent.filter((s) => s.idempotencyKey === last[0])).toHaveLength(1);
  });
});

describe('receiving through SAPI-SK: store first, then book, then acknowledge', () => {
  it('120 documents over two pages become purchase invoices once, each acknowledged after it is stored', async () => {
    const before = await purchaseCount(b);
    const ids = Array.from({ length: 120 }, (_, i) =>
      standIn.deliver(B_ID, invoiceXml({ id: `BULK-${i + 1}`, buyer: B_PARTY, quantity: i + 1 })),
    );
    await eventually(async () => acked(standIn, ids), Boolean, 120_000);
    expect(acked(standIn, ids)).toBe(true);
    expect(await purchaseCount(b)).toBe(before + 120);
    const records = (await inbox(b)).items.filter((r: any) => r.invoiceNumber?.startsWith('BULK-'));
    expect(records).toHaveLength(120);
    expect(new Set(records.map((r: any) => r.status))).toEqual(new Set(['booked']));
    const r7 = records.find((r: any) => r.invoiceNumber === 'BULK-7');
    expect(r7).toMatchObject({
      channel: 'sapi',
      total: payableOf(7),
      currency: 'EUR',
      senderName: 'Veľkoobchod Káva s.r.o.',
    });
    const doc = standIn.mailbox.find((d) => d.documentId === r7.providerDocumentId)!;
    expect(r7.sha256).toBe(sha(doc.payload));
    // Stored before acknowledged: every record's time is not after its acknowledgement.
    for (const r of records) {
      const d = standIn.mailbox.find((x) => x.documentId === r.providerDocumentId)!;
      expect(Date.parse(r.receivedAt)).toBeLessThanOrEqual(Date.parse(d.acknowledgedAt!));
    }
    // Two pages were listed (limit 100).
    expect(standIn.calls.some((c) => c.path === '/document/receive' && c.participant === B_ID)).toBe(true);
    const pi = ok(await b.get(`/1.6/purchase/invoices/${r7.purchaseInvoiceId}`));
    expect(pi).toMatchObject({ externalRecordNumber: 'BULK-7', sumTotal: Number(payableOf(7)) });
    // The bytes as delivered, with their ETag.
    const bytes = await b.get(`/1.6/purchase/e-invoices/${r7.id}`);
    expect(bytes.status).toBe(200);
    expect(bytes.text).toBe(doc.payload);
    expect(bytes.headers.get('ETag')).toBe(`"${sha(doc.payload)}"`);
  });

  it('the same invoice number again: in other bytes with the same figures a duplicate, with other figures it needs attention', async () => {
    const before = await purchaseCount(b);
    const first = invoiceXml({ id: 'AGAIN-1', buyer: B_PARTY, quantity: 2 });
    const ids = [
      standIn.deliver(B_ID, first),
      // Re-generated by the supplier: other bytes, same issue date, currency and amount due.
      standIn.deliver(B_ID, `${first}\n<!-- sent again -->\n`),
      // Another document under the same number.
      standIn.deliver(B_ID, invoiceXml({ id: 'AGAIN-1', buyer: B_PARTY, quantity: 5 })),
    ];
    await eventually(async () => acked(standIn, ids), Boolean, 60_000);
    const records = (await inbox(b)).items.filter((r: any) => r.invoiceNumber === 'AGAIN-1');
    const byProvider = new Map(records.map((r: any) => [r.providerDocumentId, r]));
    const [booked, copy, other] = ids.map((id) => byProvider.get(id) as any);
    expect(booked).toMatchObject({ status: 'booked', total: payableOf(2) });
    expect(copy).toMatchObject({ status: 'duplicate', purchaseInvoiceId: booked.purchaseInvoiceId });
    expect(copy.problems[0]).toMatchObject({ rule: 'DuplicateRecordNumber', field: 'BT-1' });
    expect(other).toMatchObject({ status: 'needs-attention', purchaseInvoiceId: null });
    expect(other.problems[0].message).toContain('with other figures');
    expect(await purchaseCount(b)).toBe(before + 1);
  });

  it('a connector stopped after storing and before acknowledging: after a restart acknowledged, not booked twice', async () => {
    const before = await purchaseCount(b);
    standIn.ackDown = true;
    const ids = [1, 2, 3].map((i) =>
      standIn.deliver(B_ID, invoiceXml({ id: `RESTART-${i}`, buyer: B_PARTY })),
    );
    const stored = await eventually(
      async () => (await inbox(b)).items.filter((r: any) => r.invoiceNumber?.startsWith('RESTART-')),
      (rs) => rs.length === 3 && rs.every((r: any) => r.status === 'booked'),
      60_000,
    );
    expect(stored).toHaveLength(3);
    expect(acked(standIn, ids)).toBe(false);
    await ap.stop();
    standIn.ackDown = false;
    ap = await stack.startAccessPoint(env());
    await eventually(async () => acked(standIn, ids), Boolean, 60_000);
    expect(acked(standIn, ids)).toBe(true);
    expect(await purchaseCount(b)).toBe(before + 3);
    expect((await inbox(b)).items.filter((r: any) => r.invoiceNumber?.startsWith('RESTART-'))).toHaveLength(
      3,
    );
  });

  it('two connector replicas on one mailbox book every document once', async () => {
    const second = await stack.startAccessPoint(env());
    try {
      const before = await purchaseCount(b);
      const ids = Array.from({ length: 30 }, (_, i) =>
        standIn.deliver(B_ID, invoiceXml({ id: `TWIN-${i + 1}`, buyer: B_PARTY })),
      );
      await eventually(async () => acked(standIn, ids), Boolean, 60_000);
      expect(acked(standIn, ids)).toBe(true);
      expect(await purchaseCount(b)).toBe(before + 30);
      expect((await inbox(b)).items.filter((r: any) => r.invoiceNumber?.startsWith('TWIN-'))).toHaveLength(
        30,
      );
    } finally {
      await second.stop();
    }
  });

  it('a document the rules refuse waits as needs-attention (acknowledged, never lost); one not for us is booked after the fix', async () => {
    const c = await stack.company({
      ...SLOVAK_SELLER,
      name: 'Tretia s.r.o.',
      vatNumber: 'SK2023333333',
      companyNumber: '51333333',
      taxNumber: '2023333333',
      peppolId: '0245:2023333333',
    });
    const broken = standIn.deliver(
      '0245:2023333333',
      invoiceXml({
        id: 'BROKEN-1',
        buyer: { name: 'Tretia s.r.o.', endpoint: '0245:2023333333', vat: 'SK2023333333', legalId: null },
        breakTotals: true,
      }),
    );
    // The supplier named the buyer by an endpoint and IČO this company does not have yet.
    const stranger = standIn.deliver(
      '0245:2023333333',
      invoiceXml({
        id: 'OTHER-1',
        buyer: { name: 'Tretia s.r.o.', endpoint: '9950:SK2099999999', vat: null, legalId: '51999999' },
      }),
    );
    await eventually(async () => acked(standIn, [broken, stranger]), Boolean, 60_000);
    const waiting = (await inbox(c, '&status=needs-attention')).items;
    expect(waiting.map((r: any) => r.invoiceNumber).sort()).toEqual(['BROKEN-1', 'OTHER-1']);
    const brokenRec = waiting.find((r: any) => r.invoiceNumber === 'BROKEN-1');
    expect(brokenRec.problems).toContainEqual(expect.objectContaining({ rule: 'BR-CO-10' }));
    expect(brokenRec.purchaseInvoiceId).toBeNull();
    const otherRec = waiting.find((r: any) => r.invoiceNumber === 'OTHER-1');
    expect(otherRec.problems).toContainEqual(expect.objectContaining({ rule: 'EInvoiceNotForThisCompany' }));
    expect(await purchaseCount(c)).toBe(0);
    // Booking again before the fix: 422 with the problems, still waiting.
    const refused = await c.post(`/1.6/purchase/e-invoices/${brokenRec.id}/book`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('[BR-CO-10]') }),
    );
    // The fix: the company's IČO is the one the supplier used.
    const company = ok(await c.get('/1.6/company'));
    ok(await c.put('/1.6/company', unchecked({ ...company, companyNumber: '51999999' })));
    const booked = await c.post(`/1.6/purchase/e-invoices/${otherRec.id}/book`);
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ externalRecordNumber: 'OTHER-1', sumTotal: Number(payableOf()) });
    const rec = ok(await c.get(`/1.6/purchase/e-invoices/${otherRec.id}`, { Accept: 'application/json' }));
    expect(rec).toMatchObject({ status: 'booked', purchaseInvoiceId: booked.body.id, problems: [] });
    expect((await c.post(`/1.6/purchase/e-invoices/${otherRec.id}/book`)).status).toBe(409);
  });
});

describe('each company its own provider', () => {
  let s2: SapiStandIn;
  let s3: SapiStandIn;
  let c: Client;
  let d: Client;
  const C_ID = '0245:2024444444';
  const D_ID = '0245:2025555555';
  const logs: string[] = [];

  beforeAll(async () => {
    s2 = new SapiStandIn({ 'client-c': 'tajne-c-0123456789' });
    s3 = new SapiStandIn({ 'client-d': 'tajne-d-9876543210' }, '/sapi');
    await Promise.all([s2.listen(), s3.listen()]);
    const base = { ...SLOVAK_SELLER, iban: 'SK3112000000198742637541' };
    c = await stack.company({
      ...base,
      name: 'Céčko s.r.o.',
      vatNumber: 'SK2024444444',
      companyNumber: '52444444',
      taxNumber: '2024444444',
      peppolId: C_ID,
    });
    d = await stack.company({
      ...base,
      name: 'Déčko s.r.o.',
      vatNumber: 'SK2025555555',
      companyNumber: '53555555',
      taxNumber: '2025555555',
      peppolId: D_ID,
    });
    // The connector logs everything it does at debug, into `logs`.
    await ap.stop();
    const sink = new PassThrough();
    sink.on('data', (chunk) => logs.push(String(chunk)));
    ap = await stack.startAccessPoint({ ...env(), LOG_LEVEL: 'debug' }, { logTo: sink });
  });
  afterAll(async () => {
    await Promise.all([s2?.close(), s3?.close()]);
  });

  it('PUT /1.6/company/access-point: bad input is 400 naming the field; the secret is write-only', async () => {
    const bad = await c.put(
      '/1.6/company/access-point',
      unchecked({ transport: 'sapi', url: 'http://ap.example.sk/sapi/v1', clientId: 'x', clientSecret: 'y' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ path: 'url' }));
    const noClient = await c.put(
      '/1.6/company/access-point',
      unchecked({ transport: 'sapi', url: s2.url, clientSecret: 'y' }),
    );
    expect(noClient.status).toBe(400);
    expect(noClient.body.errors).toContainEqual(expect.objectContaining({ path: 'clientId' }));
    const noSecret = await c.put(
      '/1.6/company/access-point',
      unchecked({ transport: 'sapi', url: s2.url, clientId: 'client-c' }),
    );
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.errors).toContainEqual(expect.objectContaining({ path: 'clientSecret' }));

    const put = await c.put(
      '/1.6/company/access-point',
      unchecked({ transport: 'sapi', url: s2.url, clientId: 'client-c', clientSecret: 'wrong-secret' }),
    );
    expect(put.status).toBe(200);
    expect(put.text).not.toContain('wrong-secret');
    const failed = await c.post('/1.6/company/access-point/test');
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'AccessPointError', providerCode: 'SAPI-AUTH-001' });
    ok(
      await c.put(
        '/1.6/company/access-point',
        unchecked({
          transport: 'sapi',
          url: s2.url,
          clientId: 'client-c',
          clientSecret: 'tajne-c-0123456789',
        }),
      ),
    );
    ok(
      await d.put(
        '/1.6/company/access-point',
        unchecked({
          transport: 'sapi',
          url: s3.url,
          clientId: 'client-d',
          clientSecret: 'tajne-d-9876543210',
        }),
      ),
    );
    // Without clientSecret the stored one stays.
    ok(
      await d.put(
        '/1.6/company/access-point',
        unchecked({ transport: 'sapi', url: s3.url, clientId: 'client-d' }),
      ),
    );
    const tested = ok(await c.post('/1.6/company/access-point/test'));
    expect(tested).toMatchObject({ ok: true, transport: 'sapi', documentsWaiting: 0 });
    const got = await c.get('/1.6/company/access-point');
    expect(got.body).toMatchObject({
      transport: 'sapi',
      effectiveTransport: 'sapi',
      url: s2.url,
      clientId: 'client-c',
      configured: true,
      participantId: C_ID,
      lastError: null,
    });
    expect(got.body.lastContactAt).toEqual(expect.any(String));
    expect(got.text).not.toContain('tajne');
  });

  it('two companies send and receive at once, each through its own provider, seeing none of the other’s', async () => {
    const [sentC, sentD] = await Promise.all([
      (async () => issueTo(c, (await warehouse(c)).id, D_ID))(),
      (async () => issueTo(d, (await warehouse(d)).id, C_ID))(),
    ]);
    const inC = s2.deliver(
      C_ID,
      invoiceXml({
        id: 'FOR-C-1',
        buyer: { name: 'Céčko s.r.o.', endpoint: C_ID, vat: 'SK2024444444', legalId: null },
      }),
    );
    const inD = s3.deliver(
      D_ID,
      invoiceXml({
        id: 'FOR-D-1',
        buyer: { name: 'Déčko s.r.o.', endpoint: D_ID, vat: 'SK2025555555', legalId: null },
      }),
    );
    await Promise.all([until(c, sentC.inv.id, 'sent'), until(d, sentD.inv.id, 'sent')]);
    await eventually(async () => acked(s2, [inC]) && acked(s3, [inD]), Boolean, 60_000);
    expect(s2.sent.map((s) => s.participant)).toEqual([C_ID]);
    expect(s3.sent.map((s) => s.participant)).toEqual([D_ID]);
    expect(s2.sent[0].envelope.payload).toBe(sentC.bytes.toString('utf8'));
    expect(s3.sent[0].envelope.payload).toBe(sentD.bytes.toString('utf8'));
    expect(new Set(s2.calls.filter((x) => x.participant).map((x) => x.participant))).toEqual(new Set([C_ID]));
    expect(new Set(s3.calls.filter((x) => x.participant).map((x) => x.participant))).toEqual(new Set([D_ID]));
    expect((await inbox(c)).items.map((r: any) => r.invoiceNumber)).toEqual(['FOR-C-1']);
    expect((await inbox(d)).items.map((r: any) => r.invoiceNumber)).toEqual(['FOR-D-1']);
    // The default provider carried nothing of theirs.
    expect(standIn.sent.some((x) => x.participant === C_ID || x.participant === D_ID)).toBe(false);
  });

  it('the secret is not in the database in clear, not in an answer, not in the log', async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(`select * from "invoicing"."access_point_settings"`);
      const text = JSON.stringify(rows);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(text).not.toContain('tajne');
      expect(
        rows.every((r: any) => r.secret_ciphertext === null || r.secret_ciphertext.startsWith('v1:')),
      ).toBe(true);
      const outbox = await db.query(`select payload::text from "invoicing"."outbox"`);
      expect(JSON.stringify(outbox.rows)).not.toContain('tajne');
    } finally {
      await db.end();
    }
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('')).not.toContain('tajne');
  });
});
