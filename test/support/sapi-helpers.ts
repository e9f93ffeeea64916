/**
 * Helpers of the SAPI-SK tests (issues #35, #43): a sales invoice issued as an e-invoice to a Peppol
 * participant, waiting for its delivery status, and the inbox as the API shows it.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { eventually, ok } from './fixtures.js';
import type { SapiStandIn } from './sapi-stand-in.js';
import type { Client } from './stack.js';
import { unchecked } from './typed-paths.js';

export const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
export const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bratislava' }).format(new Date());

/** Each company's partner that stands for the receiver (by the receiver's Peppol id). */
const partners = new Map<string, string>();
/** A sales invoice of `c` to the participant (`sign` −1: a credit note), issued; returns the invoice and the issued bytes. */
export async function issueTo(c: Client, wh: string, partnerPeppolId: string, sign = 1) {
  const key = `${c.creds.companyId}:${partnerPeppolId}`;
  const partnerId =
    partners.get(key) ??
    ok(
      await c.post(
        '/1.6/partners',
        unchecked({
          code: `B-${crypto.randomUUID().slice(0, 6)}`,
          name: 'Demo Obchod s.r.o.',
          country: 'SK',
          vatNumber: 'SK2020123456',
          companyNumber: '50123456',
          street: 'Hlavná 12',
          city: 'Bratislava',
          postalCode: '81101',
          peppolId: partnerPeppolId,
        }),
      ),
      201,
    ).id;
  partners.set(key, partnerId);
  const inv = ok(
    await c.post(
      '/1.6/sales/invoices',
      unchecked({
        ordnerCode: 'OF',
        warehouseId: wh,
        dateCreated: today(),
        partnerId,
        rows: [{ name: 'Káva', quantity: 4 * sign, price: 12.5, vatRate: 23 }],
      }),
    ),
    201,
  );
  const r = await c.post(`/1.6/sales/invoices/${inv.id}/e-invoice`);
  expect(r.status).toBe(201);
  return { inv, bytes: Buffer.from(r.text, 'utf8') };
}

/** Waits until the invoice's e-invoice has `status`; returns the invoice. */
export async function until(c: Client, id: string, status: string): Promise<any> {
  const inv = await eventually(
    async () => ok(await c.get(`/1.6/sales/invoices/${id}`)),
    (x) => x.eInvoice.status === status,
    60_000,
  );
  expect(inv.eInvoice.status).toBe(status);
  return inv;
}

/** The company's inbox of received e-invoices (first 500). */
export const inbox = async (c: Client, q = '') =>
  ok(await c.get(`/1.6/purchase/e-invoices?pageSize=500${q}`));
export const purchaseCount = async (c: Client) =>
  ok(await c.get('/1.6/purchase/invoices')).totalCount as number;
/** Whether every mailbox document of these ids is acknowledged. */
export const acked = (s: SapiStandIn, ids: string[]) =>
  ids.every((id) => s.mailbox.find((d) => d.documentId === id)?.status === 'ACKNOWLEDGED');
