/**
 * E-invoice delivery through the access-point connector (issue #23), with a real PostgreSQL and NATS:
 * - `loopback`: company A issues an e-invoice to company B (a partner carrying B's `peppolId`); B gets a
 *   purchase invoice with A's figures and A's bytes; A's invoice goes issued → queued → sent → delivered;
 *   to an unknown endpoint it ends rejected with `FD`; issuing again sends nothing twice; a repeated status
 *   report changes nothing; a `peppolId` belongs to one company.
 * - `phoss`: against a stand-in written here from phoss-ap's published API (paths, `X-Token`, status
 *   values, forwarding contract): submit and polling to `sent` + `received_ap`, a 422 of its verification,
 *   `permanently_failed` then resend, inbound SBDs (and a wrong secret), and exactly once when the
 *   connector dies between submit and acknowledgement.
 * - `folder`: files out and in, a malformed file moved to `failed/` with its reason.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportEInvoiceStatus } from '@bm/contracts';
import { request } from '@bm/messaging';
import { type ServerType, serve } from '@hono/node-server';
import { jetstreamManager } from '@nats-io/jetstream';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transmissionId } from '../../services/access-point/src/domain/peppol.js';
import type { RunningAccessPoint } from '../../services/access-point/src/service.js';
import { OTHER_SELLER, ok, SLOVAK_SELLER, warehouse } from '../support/fixtures.js';
import { ADMIN_TOKEN, type Client, type Stack, send, startStack } from '../support/stack.js';
import { unchecked } from '../support/typed-paths.js';

const A_ID = '0245:2022222222';
const B_ID = '0245:2020123456';
let stack: Stack;
let a: Client;
let b: Client;
let whA: string;

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bratislava' }).format(new Date());
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  stack = await startStack();
  a = await stack.company({ ...OTHER_SELLER, peppolId: A_ID });
  b = await stack.company({ ...SLOVAK_SELLER, peppolId: B_ID });
  whA = (await warehouse(a)).id;
});
afterAll(() => stack?.stop());

/** A partner of A with Peppol id `peppolId`, and a sales invoice to it of 4 × 12.50 + 3 × 2.10 (68.12). */
async function invoiceTo(peppolId: string, code: string) {
  const partner = ok(
    await a.post(
      '/1.6/partners',
      unchecked({
        code,
        name: 'Demo Obchod s.r.o.',
        country: 'SK',
        vatNumber: 'SK2020123456',
        companyNumber: '50123456',
        street: 'Hlavná 12',
        city: 'Bratislava',
        postalCode: '81101',
        peppolId,
      }),
    ),
    201,
  );
  return ok(
    await a.post(
      '/1.6/sales/invoices',
      unchecked({
        ordnerCode: 'OF',
        warehouseId: whA,
        dateCreated: today(),
        partnerId: partner.id,
        rows: [
          { name: 'Káva', quantity: 4, price: 12.5, vatRate: 23 },
          { name: 'Mlieko', quantity: 3, price: 2.1, vatRate: 5 },
        ],
      }),
    ),
    201,
  );
}

/** Issues the e-invoice; returns its bytes. */
async function issue(id: string): Promise<Buffer> {
  const r = await a.post(`/1.6/sales/invoices/${id}/e-invoice`);
  expect(r.status).toBe(201);
  return Buffer.from(r.text, 'utf8');
}

/** Waits (at most 10 s) until the invoice's e-invoice has `status`; returns the invoice. */
async function until(id: string, status: string, ms = 10_000): Promise<any> {
  const t0 = Date.now();
  for (;;) {
    const inv = ok(await a.get(`/1.6/sales/invoices/${id}`));
    if (inv.eInvoice.status === status) return inv;
    if (Date.now() - t0 > ms) throw new Error(`e-invoice ${id} is ${inv.eInvoice.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const history = async (id: string) =>
  ok(await a.get(`/1.6/sales/invoices/${id}/e-invoice/history`)).items as any[];
const purchases = async () => ok(await b.get('/1.6/purchase/invoices')).items as any[];

describe('loopback: the companies of this stack are a Peppol network', () => {
  let ap: RunningAccessPoint;
  beforeAll(async () => {
    ap = await stack.startAccessPoint();
  });
  afterAll(() => ap?.stop());

  it('A issues an e-invoice to B: B books A’s figures and bytes, A sees issued → queued → sent → delivered', async () => {
    const before = (await purchases()).length;
    const sale = await invoiceTo(B_ID, 'B1');
    expect(sale.sumTotal).toBe(68.12);
    expect(sale.eInvoice).toMatchObject({ status: 'draft', attempt: 0 });
    const bytes = await issue(sale.id);
    const delivered = await until(sale.id, 'delivered');
    expect(delivered.eInvoice).toMatchObject({
      status: 'delivered',
      mls: 'AP',
      attempt: 1,
      sha256: sha(bytes),
      transmissionId: transmissionId(sale.id, 1),
      reasons: [],
    });
    expect(Date.parse(delivered.eInvoice.deliveredAt)).toBeGreaterThanOrEqual(
      Date.parse(delivered.eInvoice.issuedAt),
    );
    const h = await history(sale.id);
    expect(h.map((c) => c.status)).toEqual(['issued', 'queued', 'sent', 'delivered']);
    expect(h.at(-1)).toMatchObject({ mls: 'AP', attempt: 1, transmissionId: transmissionId(sale.id, 1) });
    const e = await a.get(`/1.6/sales/invoices/${sale.id}/e-invoice`);
    expect(e.headers.get('E-Invoice-Status')).toBe('delivered');

    const got = await purchases();
    expect(got.length).toBe(before + 1);
    const mine = got.find((p) => p.externalRecordNumber === sale.recordNumber);
    expect([mine.sum, mine.sumVat, mine.sumTotal, mine.source]).toEqual([56.3, 11.82, 68.12, 'eInvoice']);
    const archived = await b.get(`/1.6/purchase/invoices/${mine.id}/e-invoice`);
    expect(archived.headers.get('ETag')).toBe(`"${sha(bytes)}"`);

    // Issued again: the same bytes, nothing sent twice.
    const again = await a.post(`/1.6/sales/invoices/${sale.id}/e-invoice`);
    expect([again.status, again.headers.get('E-Invoice-Status')]).toEqual([200, 'delivered']);
    await new Promise((r) => setTimeout(r, 500));
    expect((await purchases()).length).toBe(before + 1);
    expect((await history(sale.id)).length).toBe(4);

    // The list finds it by delivery status.
    const deliveredList = ok(await a.get('/1.6/sales/invoices?eInvoiceStatus=delivered')).items;
    expect(deliveredList.map((i: any) => i.id)).toContain(sale.id);
    expect(deliveredList.every((i: any) => i.eInvoiceStatus === 'delivered')).toBe(true);
    const rejectedList = ok(await a.get('/1.6/sales/invoices?eInvoiceStatus=rejected')).items;
    expect(rejectedList.map((i: any) => i.id)).not.toContain(sale.id);
  });

  it('to an endpoint no company has: rejected with MLS RE and reason FD; resend is refused (not failed)', async () => {
    const sale = await invoiceTo('0245:2099999999', 'X1');
    await issue(sale.id);
    const inv = await until(sale.id, 'rejected');
    expect(inv.eInvoice).toMatchObject({ status: 'rejected', mls: 'RE', deliveredAt: null });
    expect(inv.eInvoice.reasons).toEqual([
      { code: 'FD', message: expect.stringContaining('unknown participant 0245:2099999999') },
    ]);
    expect((await history(sale.id)).map((c) => c.status)).toEqual(['issued', 'queued', 'sent', 'rejected']);
    const resend = await a.post(`/1.6/sales/invoices/${sale.id}/e-invoice/resend`);
    expect([resend.status, resend.body.code]).toEqual([409, 'InvalidState']);
    const list = ok(await a.get('/1.6/sales/invoices?eInvoiceStatus=rejected')).items;
    expect(list.map((i: any) => i.id)).toEqual([sale.id]);
  });

  it('a repeated or late status report changes nothing', async () => {
    const sale = await invoiceTo(B_ID, 'B2');
    await issue(sale.id);
    await until(sale.id, 'delivered');
    const nc = await stack.natsConnect('access-point');
    try {
      const ctx = { companyId: a.creds.companyId, requestId: crypto.randomUUID() };
      const base = { invoiceId: sale.id, attempt: 1, transmissionId: transmissionId(sale.id, 1) };
      const late = await request(nc, reportEInvoiceStatus, { ...base, status: 'sent' }, ctx);
      const again = await request(nc, reportEInvoiceStatus, { ...base, status: 'delivered', mls: 'AP' }, ctx);
      expect([late.changed, again.changed, again.eInvoice.status]).toEqual([false, false, 'delivered']);
    } finally {
      await nc.drain();
    }
    expect((await history(sale.id)).length).toBe(4);
  });

  it('a peppolId belongs to one company (409 PeppolIdTaken); the company shows the connector’s registration', async () => {
    const created = await send(
      stack.app,
      'POST',
      '/admin/companies',
      { name: 'Tretia s.r.o.', country: 'SK', vatNumber: 'SK2023333333', peppolId: B_ID },
      { Authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    expect([created.status, created.body.code, created.body.errors]).toEqual([
      409,
      'PeppolIdTaken',
      [{ path: 'peppolId', message: 'used by another company' }],
    ]);
    const company = ok(await a.get('/1.6/company'));
    expect(company.peppolNetwork).toEqual({ transport: 'loopback', registered: true });
    const put = await a.put('/1.6/company', unchecked({ ...company, peppolId: B_ID.toUpperCase() }));
    expect([put.status, put.body.code]).toEqual([409, 'PeppolIdTaken']);
    expect(ok(await a.get('/1.6/company')).peppolId).toBe(A_ID);
  });
});

/** A stand-in of phoss-ap's REST API (issue #23), written from its published interface. */
function phossStandIn(token: string) {
  type Tx = {
    status: string;
    mlsStatus: string;
    errorDetails?: unknown;
    polls: number;
    body: string;
    path: string;
  };
  const txs = new Map<string, Tx>();
  const submits: string[] = [];
  /** What the stand-in does with a receiver: `ok`, `refuse` (422), `fail` (permanently_failed). */
  const behaviour = new Map<string, 'ok' | 'refuse' | 'fail'>();
  let hold: Promise<void> | null = null;
  const app = new Hono();
  app.use('*', async (c, next) => {
    if (c.req.header('x-token') !== token) return c.json({ error: 'bad token' }, 403);
    await next();
  });
  app.post('/api/outbound/submit/:sender/:receiver/:doctype/:process/:c1', async (c) => {
    const id = c.req.query('sbdhInstanceID') ?? crypto.randomUUID();
    const receiver = decodeURIComponent(c.req.param('receiver'));
    const body = await c.req.text();
    submits.push(id);
    const mode = behaviour.get(receiver.split('::')[1]) ?? 'ok';
    if (mode === 'refuse')
      return c.json(
        { success: false, errorDetails: [{ code: 'BR-S-08', message: 'VAT breakdown is wrong' }] },
        422,
      );
    txs.set(id, {
      status: mode === 'fail' ? 'permanently_failed' : 'pending',
      mlsStatus: 'pending',
      errorDetails: mode === 'fail' ? 'receiver AP unreachable for 24 h' : undefined,
      polls: 0,
      body,
      path: new URL(c.req.url).pathname,
    });
    if (hold) await hold;
    return c.json({ success: true, sbdhInstanceID: id });
  });
  app.get('/api/outbound/status/:id', (c) => {
    const t = txs.get(c.req.param('id'));
    if (!t) return c.json({ error: 'unknown' }, 404);
    t.polls++;
    // pending → sent, then the receiver's MLS arrives.
    if (t.status === 'pending') t.status = 'sent';
    else if (t.status === 'sent' && t.mlsStatus === 'pending') t.mlsStatus = 'received_ap';
    return c.json({
      sbdhInstanceID: c.req.param('id'),
      status: t.status,
      mlsStatus: t.mlsStatus,
      errorDetails: t.errorDetails ?? null,
      completedDT: t.mlsStatus === 'received_ap' ? new Date().toISOString() : null,
    });
  });
  return {
    app,
    txs,
    submits,
    behaviour,
    holdSubmits() {
      let release!: () => void;
      hold = new Promise<void>((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

describe('phoss: phoss-ap’s REST API and forwarding', () => {
  const token = 'phoss-token-0123456789';
  const secret = 'forwarding-secret-0123456789';
  const standIn = phossStandIn(token);
  let server: ServerType;
  let url: string;
  let ap: RunningAccessPoint;
  const env = () => ({
    PEPPOL_AP: 'phoss',
    PEPPOL_AP_URL: url,
    PEPPOL_AP_TOKEN: token,
    PEPPOL_FORWARDING_SECRET: secret,
    PEPPOL_FOLLOW_MS: '100',
    PEPPOL_ACK_WAIT_S: '2',
    PEPPOL_CONSUMER: 'ap-phoss-test',
  });
  beforeAll(async () => {
    server = await new Promise<ServerType>((resolve) => {
      const s = serve(
        { fetch: standIn.app.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false },
        () => resolve(s),
      );
    });
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    ap = await stack.startAccessPoint(env());
  });
  afterAll(async () => {
    await ap?.stop();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  it('submits with the Peppol ids and X-Token, follows the status to sent and received_ap: delivered', async () => {
    const sale = await invoiceTo(B_ID, 'P1');
    const bytes = await issue(sale.id);
    const inv = await until(sale.id, 'delivered');
    const id = transmissionId(sale.id, 1);
    expect(inv.eInvoice).toMatchObject({ mls: 'AP', transmissionId: id });
    const tx = standIn.txs.get(id)!;
    expect(tx.body).toBe(bytes.toString('utf8'));
    expect(decodeURIComponent(tx.path)).toBe(
      `/api/outbound/submit/iso6523-actorid-upis::${A_ID}/iso6523-actorid-upis::${B_ID}/busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1/cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0/SK`,
    );
    expect(standIn.submits.filter((s) => s === id)).toHaveLength(1);
    expect((await history(sale.id)).map((c) => c.status)).toEqual(['issued', 'queued', 'sent', 'delivered']);
    expect(ok(await a.get('/1.6/company')).peppolNetwork).toEqual({ transport: 'phoss', registered: null });
  });

  it('a 422 of its verification: rejected with its message, nothing sent', async () => {
    standIn.behaviour.set('0245:2021111111', 'refuse');
    const sale = await invoiceTo('0245:2021111111', 'P2');
    await issue(sale.id);
    const inv = await until(sale.id, 'rejected');
    expect(inv.eInvoice).toMatchObject({
      mls: null,
      reasons: [{ code: 'BR-S-08', message: 'VAT breakdown is wrong' }],
    });
    expect((await history(sale.id)).map((c) => c.status)).toEqual(['issued', 'queued', 'rejected']);
  });

  it('permanently_failed: failed; resend sends the same bytes as attempt 2, which is delivered', async () => {
    standIn.behaviour.set('0245:2024444444', 'fail');
    const sale = await invoiceTo('0245:2024444444', 'P3');
    const bytes = await issue(sale.id);
    const failed = await until(sale.id, 'failed');
    expect(failed.eInvoice.reasons).toEqual([{ code: 'AP', message: 'receiver AP unreachable for 24 h' }]);
    standIn.behaviour.set('0245:2024444444', 'ok');
    const resent = await a.post(`/1.6/sales/invoices/${sale.id}/e-invoice/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ status: 'issued', attempt: 2, reasons: [] });
    const inv = await until(sale.id, 'delivered');
    expect(inv.eInvoice).toMatchObject({
      attempt: 2,
      transmissionId: transmissionId(sale.id, 2),
      sha256: sha(bytes),
    });
    expect(standIn.txs.get(transmissionId(sale.id, 2))!.body).toBe(bytes.toString('utf8'));
    expect((await history(sale.id)).map((c) => `${c.attempt}:${c.status}`)).toEqual([
      '1:issued',
      '1:queued',
      '1:failed',
      '2:issued',
      '2:queued',
      '2:sent',
      '2:delivered',
    ]);
  });

  it('exactly once: the connector dies between submit and acknowledgement; after a restart nothing is sent twice', async () => {
    const release = standIn.holdSubmits();
    const sale = await invoiceTo(B_ID, 'P4');
    await issue(sale.id);
    const id = transmissionId(sale.id, 1);
    const t0 = Date.now();
    while (!standIn.submits.includes(id) && Date.now() - t0 < 10_000)
      await new Promise((r) => setTimeout(r, 50));
    expect(standIn.submits).toContain(id);
    // Killed: its NATS connection is gone before it could acknowledge the event.
    await ap.nc.close();
    const admin = await stack.natsConnect('admin');
    const jsm = await jetstreamManager(admin);
    // The event's first delivery, never acknowledged: its redelivery will be the next consumer sequence.
    const firstDelivery = (await jsm.consumers.info('EVENTS', 'ap-phoss-test')).delivered.consumer_seq;
    release();
    await ap.stop().catch(() => undefined);
    ap = await stack.startAccessPoint(env());
    await until(sale.id, 'delivered', 15_000);
    // The unacknowledged event comes back after the acknowledgement wait (2 s) and is handled: waited for
    // as the consumer's state (nothing pending, nothing waiting for an ack), not as a fixed window.
    try {
      const redelivered = async () => {
        const info = await jsm.consumers.info('EVENTS', 'ap-phoss-test');
        return info.delivered.consumer_seq > firstDelivery && info.num_ack_pending === 0;
      };
      for (let i = 0; i < 600 && !(await redelivered()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await redelivered()).toBe(true);
    } finally {
      await admin.close();
    }
    // It was not sent again.
    expect(standIn.submits.filter((s) => s === id)).toHaveLength(1);
    expect((await history(sale.id)).map((c) => c.status)).toEqual(['issued', 'queued', 'sent', 'delivered']);
  });

  it('forwarding: an SBD becomes B’s purchase invoice with the UBL’s exact bytes and {"countryCodeC4":"SK"}; a wrong secret is 401', async () => {
    const sale = await invoiceTo(B_ID, 'P5');
    const ubl = await issue(sale.id);
    // The UBL element as the SBD carries it (no XML declaration inside an envelope).
    const ublText = ubl
      .toString('utf8')
      .replace(/^<\?xml[^>]*>\s*/, '')
      .trimEnd();
    const sbd = `<?xml version="1.0" encoding="UTF-8"?>
<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader">
  <StandardBusinessDocumentHeader>
    <HeaderVersion>1.0</HeaderVersion>
    <Sender><Identifier Authority="iso6523-actorid-upis">${A_ID}</Identifier></Sender>
    <Receiver><Identifier Authority="iso6523-actorid-upis">${B_ID}</Identifier></Receiver>
    <DocumentIdentification><Standard>urn:oasis:names:specification:ubl:schema:xsd:Invoice-2</Standard><TypeVersion>2.1</TypeVersion><InstanceIdentifier>in-1</InstanceIdentifier><Type>Invoice</Type><CreationDateAndTime>2027-01-04T10:00:00Z</CreationDateAndTime></DocumentIdentification>
  </StandardBusinessDocumentHeader>
  ${ublText}
</StandardBusinessDocument>
`;
    const forward = (auth: string) =>
      fetch(`http://127.0.0.1:${ap.forwardingPort}/peppol/inbound`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/xml', Authorization: auth, 'X-SBDH-Instance-ID': 'in-1' },
        body: sbd,
      });
    // The loopback-free phoss connector delivered P5 through the stand-in: B has no copy of it yet.
    const count = async () =>
      (await purchases()).filter((p) => p.externalRecordNumber === sale.recordNumber).length;
    await until(sale.id, 'delivered');
    expect(await count()).toBe(0);
    const wrong = await forward('Bearer not-the-secret-at-all-0000');
    expect(wrong.status).toBe(401);
    expect(await count()).toBe(0);
    const r = await forward(`Bearer ${secret}`);
    expect([r.status, await r.json()]).toEqual([200, { countryCodeC4: 'SK' }]);
    const mine = (await purchases()).find((p) => p.externalRecordNumber === sale.recordNumber);
    expect([mine.sumTotal, mine.source]).toEqual([68.12, 'eInvoice']);
    const archived = await b.get(`/1.6/purchase/invoices/${mine.id}/e-invoice`);
    expect(archived.text).toBe(ublText);
    // Forwarded again: taken, nothing stored twice.
    expect((await forward(`Bearer ${secret}`)).status).toBe(200);
    expect(await count()).toBe(1);
    // Not for a company here: a non-2xx with the reason, so phoss-ap reports RE/FD to the sender.
    const stranger = await fetch(`http://127.0.0.1:${ap.forwardingPort}/peppol/inbound`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', Authorization: `Bearer ${secret}` },
      body: sbd.replace(`>${B_ID}<`, '>0245:2099999999<'),
    });
    expect([stranger.status, (await stranger.json()).code]).toEqual([404, 'FD']);
  });
});

describe('folder: the SFTP-drop way', () => {
  let ap: RunningAccessPoint;
  const dir = mkdtempSync(join(tmpdir(), 'peppol-'));
  const outbox = join(dir, 'out');
  const inbox = join(dir, 'in');
  beforeAll(async () => {
    ap = await stack.startAccessPoint({
      PEPPOL_AP: 'folder',
      PEPPOL_OUTBOX_DIR: outbox,
      PEPPOL_INBOX_DIR: inbox,
    });
  });
  afterAll(() => ap?.stop());

  const waitFor = async (cond: () => boolean) => {
    const t0 = Date.now();
    while (!cond()) {
      if (Date.now() - t0 > 10_000) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('an issued document is written to the outbox under its transmission id (status sent); an inbox file becomes a purchase invoice', async () => {
    const sale = await invoiceTo(B_ID, 'F1');
    const bytes = await issue(sale.id);
    const inv = await until(sale.id, 'sent');
    const file = join(outbox, `${transmissionId(sale.id, 1)}.xml`);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(readdirSync(outbox).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(inv.eInvoice.transmissionId).toBe(transmissionId(sale.id, 1));
    // The provider delivers it to B: dropped into the inbox.
    writeFileSync(join(inbox, 'from-provider-1.xml'), bytes);
    await waitFor(() => existsSync(join(inbox, 'done', 'from-provider-1.xml')));
    const mine = (await purchases()).find((p) => p.externalRecordNumber === sale.recordNumber);
    expect(mine.sumTotal).toBe(68.12);
  });

  it('a malformed file is moved to failed/ with its reason beside it', async () => {
    writeFileSync(join(inbox, 'broken.xml'), '<Invoice><cbc:ID>1</Invoice>');
    await waitFor(() => existsSync(join(inbox, 'failed', 'broken.xml.json')));
    expect(existsSync(join(inbox, 'failed', 'broken.xml'))).toBe(true);
    const reason = JSON.parse(readFileSync(join(inbox, 'failed', 'broken.xml.json'), 'utf8'));
    expect(reason).toMatchObject({ file: 'broken.xml', code: expect.stringMatching(/^(SV|FD)$/) });
    expect(reason.reason.length).toBeGreaterThan(5);
  });
});
