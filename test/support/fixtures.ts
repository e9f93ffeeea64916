/**
 * Builders for HTTP-level tests: master data and documents created through the public interface,
 * failing loudly when the setup itself is refused.
 */
import { expect } from 'vitest';
import type { Client, Reply, Stack } from './stack.js';
import { type BodyOf, exact, type Unchecked } from './typed-paths.js';

/** Asserts the status and returns the body, printing the problem when it differs. */
export function ok(r: Reply, status = 200): any {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
  return r.body;
}

let n = 0;
/** A unique code for this test process. */
export const code = (prefix: string) => `${prefix}${++n}`;

/** Opens the accounting period of a calendar year (the seeded ones are this year and the next). */
export async function openYear(c: Client, year: number): Promise<string> {
  const existing = ok(await c.get('/1.6/periods?pageSize=500')).items.find(
    (p: any) => p.code === String(year),
  );
  if (existing) return existing.id;
  return ok(
    await c.post('/1.6/periods', { code: String(year), dateFrom: `${year}-01-01`, dateTo: `${year}-12-31` }),
    201,
  ).id;
}

export async function warehouse(c: Client, over: Record<string, unknown> = {}): Promise<any> {
  return ok(
    await c.post('/1.6/warehouses', {
      code: code('W'),
      name: 'Sklad',
      valuationMethod: 'FIFO',
      accounted: true,
      ...over,
    }),
    201,
  );
}

export async function item(c: Client, over: Record<string, unknown> = {}): Promise<any> {
  return ok(
    await c.post('/1.6/items', {
      code: code('I'),
      name: 'Tovar',
      unitCode: 'ks',
      sellPrice: 10,
      vatRate: 23,
      ...over,
    }),
    201,
  );
}

export async function partner(c: Client): Promise<any> {
  return ok(
    await c.post('/1.6/partners', {
      code: code('P'),
      name: 'Odberateľ s.r.o.',
      address: 'Hlavná 1, Bratislava',
      country: 'SK',
    }),
    201,
  );
}

/**
 * A new company of `stack` with the accounting periods of `year` open and one partner: the set-up most
 * document tests share.
 */
export async function companyWithPartner(
  stack: Stack,
  year = 2025,
): Promise<{ c: Client; partnerId: string }> {
  const c = await stack.company();
  await openYear(c, year);
  return { c, partnerId: (await partner(c)).id };
}

/** Receives `rows` ([itemId, quantity, costPrice, lotNumberID?]) into a warehouse on `date`. */
export async function receive(
  c: Client,
  warehouseId: string,
  date: string,
  rows: [string, string | number, string | number, string?][],
): Promise<any> {
  return ok(
    await c.post('/1.6/warehouses/receipt-cards', {
      ordnerCode: 'PR',
      warehouseId,
      dateOperation: date,
      rows: rows.map(([itemId, quantity, costPrice, lotNumberID]) => ({
        itemId,
        quantity: exact(quantity),
        costPrice: exact(costPrice),
        ...(lotNumberID ? { lotNumberID } : {}),
      })),
    }),
    201,
  );
}

/** The JSON body of `POST /1.6/warehouses/issue-cards`, as the typed client has it. */
export type IssueCardBody = BodyOf<'/1.6/warehouses/issue-cards', 'post'>;

/** Sends an issue card (ordner VY unless given); returns the raw reply. */
export function issue(
  c: Client,
  body: (Omit<IssueCardBody, 'ordnerCode'> & { ordnerCode?: string }) | (Record<string, unknown> & Unchecked),
  headers: Record<string, string> = {},
): Promise<Reply> {
  // The body was checked against the document above (or marked unchecked by the caller).
  return c.post('/1.6/warehouses/issue-cards', { ordnerCode: 'VY', ...body } as IssueCardBody, headers);
}

/** Rows as [quantity, costPrice, amount] for compact assertions. */
export const costs = (card: any) => card.rows.map((r: any) => [r.quantity, r.costPrice, r.amount]);

/** Stock of one item as [quantity, value] (0, 0 when none). */
export async function stockOf(
  c: Client,
  warehouseId: string,
  itemId: string,
  date?: string,
  lotNumberID: string | null = null,
): Promise<[number, number]> {
  const q = new URLSearchParams({ itemId, ...(date ? { date } : {}) });
  const body = ok(await c.get(`/1.6/warehouses/${warehouseId}/stock?${q}`));
  const line = body.items.find((i: any) => i.lotNumberID === lotNumberID);
  return line ? [line.quantity, line.value] : [0, 0];
}

/**
 * Reads `read` every 100 ms, up to `withinMs` (10 s), until `done` holds (what an event consumer does
 * asynchronously); returns the last value read, so the caller's assertion shows it when it never came.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  withinMs = 10_000,
): Promise<T> {
  let v = await read();
  for (let i = 0; i < withinMs / 100 && !done(v); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

/**
 * A Slovak company with every field its e-invoices need (issue #21): IČO, DIČ, IČ DPH, structured address,
 * register line, contact, bank account; for `stack.company`.
 */
export const SLOVAK_SELLER = {
  name: 'Demo Obchod s.r.o.',
  country: 'SK',
  vatNumber: 'SK2020123456',
  companyNumber: '50123456',
  taxNumber: '2020123456',
  street: 'Hlavná 12',
  city: 'Bratislava',
  postalCode: '81101',
  registration: 'Obchodný register Mestského súdu Bratislava III, oddiel Sro, vložka č. 12345/B',
  email: 'fakturacia@demo.example',
  phone: '+421 2 1234 5678',
  iban: 'SK3112000000198742637541',
  ossRegistered: true,
};

/**
 * A second Slovak company with everything its e-invoices need (issue #23, #35): the seller of the delivery
 * tests, whose buyer is {@link SLOVAK_SELLER}. Its Peppol id is `0245:2022222222`.
 */
export const OTHER_SELLER = {
  name: 'Iná firma s.r.o.',
  country: 'SK',
  vatNumber: 'SK2022222222',
  companyNumber: '47111222',
  taxNumber: '2022222222',
  street: 'Dlhá 1',
  city: 'Nitra',
  postalCode: '94901',
  iban: 'SK3112000000198742637541',
  peppolId: '0245:2022222222',
};

export { expect };
