/**
 * Authentication and tenancy through HTTP (INTERFACE §5, DESIGN §2 "Auth failure", §3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, type Client, type Stack, send, startStack } from '../support/stack.js';

let stack: Stack;
let a: Client;
let b: Client;

beforeAll(async () => {
  stack = await startStack();
  a = await stack.company({ name: 'Alfa s.r.o.' });
  b = await stack.company({ name: 'Beta a.s.' });
});
afterAll(() => stack?.stop());

const get = (headers: Record<string, string>) =>
  send(stack.app, 'GET', '/1.6/warehouses', undefined, headers);

describe('authentication (401)', () => {
  it.each(['Authorization', 'ClientID', 'ClientSecret', 'CompanyID'])(
    'refuses a request without %s',
    async (header) => {
      const headers = { ...a.headers };
      delete headers[header];
      const r = await get(headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(r.body).toMatchObject({ status: 401, code: 'Unauthorized' });
      expect(r.body.detail).toContain(header);
    },
  );

  it.each([
    [
      'a wrong password',
      (h: Record<string, string>) => ({
        ...h,
        Authorization: `Basic ${Buffer.from(`${a.creds.username}:nope`).toString('base64')}`,
      }),
    ],
    [
      'an unknown user',
      (h: Record<string, string>) => ({
        ...h,
        Authorization: `Basic ${Buffer.from(`ghost:${a.creds.password}`).toString('base64')}`,
      }),
    ],
    ['a wrong client secret', (h: Record<string, string>) => ({ ...h, ClientSecret: 'wrong' })],
    ['an unknown client id', (h: Record<string, string>) => ({ ...h, ClientID: 'cli_unknown' })],
    ['a non-Basic scheme', (h: Record<string, string>) => ({ ...h, Authorization: 'Bearer abc' })],
  ])('refuses %s', async (_what, mutate) => {
    const r = await get(mutate(a.headers));
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(r.body.code).toBe('Unauthorized');
  });

  it('accepts the four valid headers and returns the company warehouse', async () => {
    const r = await get(a.headers);
    expect(r.status).toBe(200);
    expect(r.body.items.map((w: any) => w.code)).toEqual(['HS']);
  });
});

describe('company access (403)', () => {
  it("refuses valid credentials with another company's CompanyID", async () => {
    const r = await get({ ...a.headers, CompanyID: b.creds.companyId });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('Forbidden');
  });

  it('refuses a malformed or unknown CompanyID', async () => {
    expect((await get({ ...a.headers, CompanyID: 'not-a-guid' })).status).toBe(403);
    expect((await get({ ...a.headers, CompanyID: crypto.randomUUID() })).status).toBe(403);
  });

  it("refuses a member user with another company's API client", async () => {
    const r = await send(
      stack.app,
      'POST',
      `/admin/companies/${b.creds.companyId}/members`,
      { username: a.creds.username },
      {
        Authorization: 'Bearer test-admin-token-0123456789',
      },
    );
    expect(r.status).toBe(201);
    // The user may work for B now, but A's API client belongs to A only.
    expect((await get({ ...a.headers, CompanyID: b.creds.companyId })).status).toBe(403);
    // With B's client the same user reaches B.
    const headers = {
      ...authHeaders(a.creds),
      ClientID: b.creds.clientId,
      ClientSecret: b.creds.clientSecret,
      CompanyID: b.creds.companyId,
    };
    expect((await get(headers)).status).toBe(200);
  });
});

describe('tenancy', () => {
  it("answers 404 with no data for another company's record by id", async () => {
    const created = await a.post('/1.6/partners', { code: 'P1', name: 'Tajný partner Alfa' });
    expect(created.status).toBe(201);
    const mine = await a.get(`/1.6/partners/${created.body.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.name).toBe('Tajný partner Alfa');
    const theirs = await b.get(`/1.6/partners/${created.body.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('NotFound');
    expect(theirs.text).not.toContain('Tajný');
    const unknown = await b.get(`/1.6/partners/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(theirs.body.detail);
    // B's list does not show it, and B may use the same code.
    expect((await b.get('/1.6/partners')).body.totalCount).toBe(0);
    expect((await b.post('/1.6/partners', { code: 'P1', name: 'Beta partner' })).status).toBe(201);
  });

  it("refuses another company's id inside a body as ReferenceNotFound", async () => {
    const unitOfA = (await a.get('/1.6/units')).body.items.find((u: any) => u.code === 'ks');
    const r = await b.post('/1.6/items', { code: 'X', name: 'X', unitId: unitOfA.id });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'ReferenceNotFound', errors: [{ path: 'unitId' }] });
  });

  it('keeps admin endpoints behind the bearer token', async () => {
    const r = await send(
      stack.app,
      'POST',
      '/admin/companies',
      { name: 'X', country: 'SK' },
      { Authorization: 'Bearer wrong-token-000000000' },
    );
    expect(r.status).toBe(401);
  });
});
