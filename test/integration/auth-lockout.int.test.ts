/**
 * Authentication under attack without locking out the owner (issue #22): guesses are throttled per
 * source, a client whose credentials are right keeps working. A real HTTP server on 127.0.0.1; the
 * attacker's sockets are bound to 127.0.0.2, the owner's to 127.0.0.1 (or 127.0.0.2 when it is the
 * attacking address). Production defaults of every limit; verified tuples are never cached (1 ms), so
 * every call of the owner needs a verification. The tarpit (issue #46) is off here: these attackers send
 * one request after another, and what is asserted is which requests are refused, not when (the hold is
 * tested by auth-flood.int.test.ts).
 */
import { request as httpRequest } from 'node:http';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../gateway/src/config.js';
import { type Client, type Stack, startStack } from '../support/stack.js';

const DEFAULTS = { ...loadConfig({}), AUTH_TARPIT_MS: 0 };
const PAIR_BUDGET = DEFAULTS.AUTH_FAILURES_PER_USERNAME_ADDRESS;

let stack: Stack;
const servers: ServerType[] = [];

async function listen(app: Stack['app']): Promise<number> {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  servers.push(server);
  return (server.address() as { port: number }).port;
}

let port: number;
beforeAll(async () => {
  stack = await startStack({ authCacheTtlMs: 1, authLimits: DEFAULTS });
  port = await listen(stack.app);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  await stack?.stop();
});

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | undefined;
  body: string;
}

/** One GET of `/1.6/units` from `from` with `headers`. */
function call(from: string, headers: Record<string, string>, to = port): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: to,
        localAddress: from,
        path: '/1.6/units',
        headers: { ...headers, Connection: 'close' },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - t0,
            retryAfter: res.headers['retry-after'] as string | undefined,
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * How much slower than its own baseline an owner's call may be while an attack runs (issue #35: no absolute
 * bound, a ratio measured in the same run with room for two shared cores). A lockout that failed would
 * put the owner's verification behind the attacker's hundreds of slow hashes: a hundred times or more.
 */
const SLOWDOWN = 10;

/** The median of `n` sequential calls of `c` from `from` (each a first call: nothing is cached). */
async function medianOf(c: Client, from: string, n = 5): Promise<{ answers: Answer[]; p50: number }> {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) answers.push(await call(from, c.headers));
  const ms = answers.map((a) => a.ms).sort((x, y) => x - y);
  return { answers, p50: ms[Math.floor(n / 2)] };
}

const withPassword = (c: Client, password: string) => ({
  ...c.headers,
  Authorization: `Basic ${Buffer.from(`${c.creds.username}:${password}`).toString('base64')}`,
});

/**
 * `n` wrong passwords for `c`'s username from `from`, 20 at a time, as fast as they are answered; the
 * statuses counted. None may be answered with data; every 429 has a Retry-After.
 */
async function flood(c: Client, from: string, n: number, to = port): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  let sent = 0;
  const worker = async () => {
    while (sent < n) {
      const i = sent++;
      const a = await call(from, withPassword(c, `wrong-${i}`), to);
      counts[a.status] = (counts[a.status] ?? 0) + 1;
      if (a.status === 429) expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(n);
  return counts;
}

/**
 * Wrong passwords from `from`, one at a time and paced under the per-address rate, until the
 * (username, address) budget refuses with a Retry-After of more than a minute; returns how many were
 * hashed (answered 401) on the way.
 */
async function exhaust(c: Client, from: string, to = port): Promise<number> {
  let hashed = 0;
  for (let i = 0; i < 4 * PAIR_BUDGET; i++) {
    const a = await call(from, withPassword(c, `paced-${i}`), to);
    if (a.status === 401) hashed++;
    else if (a.status === 429 && Number(a.retryAfter) > 60) return hashed;
    else expect(a.status).toBe(429);
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the budget was never exhausted (${hashed} hashed)`);
}

describe('a guessing attack on one username', () => {
  it('200 wrong passwords from 127.0.0.2: at most the documented budget of them is hashed (401), the rest is 429 with Retry-After; the right password from 127.0.0.1 is answered 200 about as fast as before the attack', async () => {
    const c = await stack.company();
    const before = await medianOf(c, '127.0.0.1');
    const counts = await flood(c, '127.0.0.2', 200);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(PAIR_BUDGET);
    expect(counts[429]).toBeGreaterThanOrEqual(200 - PAIR_BUDGET);
    // Together with the paced guesses after it, exactly the budget was hashed from that address.
    expect((counts[401] ?? 0) + (await exhaust(c, '127.0.0.2'))).toBe(PAIR_BUDGET);
    // A second address spends its own budget: the username now has AUTH_FAILURES_PER_USERNAME (20)
    // failures and is under attack, yet a first call from a clean address passes at once.
    expect(await exhaust(c, '127.0.0.3')).toBe(PAIR_BUDGET);
    // Each call is a first call (nothing cached): all 200, the median within SLOWDOWN × the one before.
    const { answers: firsts, p50 } = await medianOf(c, '127.0.0.1');
    expect(firsts.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(p50).toBeLessThan(SLOWDOWN * before.p50);
    expect(firsts[0].body.length).toBeGreaterThan(2);
    // A tuple never verified from the attacking address is refused there, with Retry-After.
    const there = await call('127.0.0.2', c.headers);
    expect(there.status).toBe(429);
    expect(Number(there.retryAfter)).toBeGreaterThan(60);
  });

  it('a client that had been working from the attacking address keeps working there', async () => {
    const c = await stack.company();
    const before = await medianOf(c, '127.0.0.4');
    expect(before.answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    await flood(c, '127.0.0.4', 200);
    expect(await exhaust(c, '127.0.0.4')).toBeLessThanOrEqual(PAIR_BUDGET);
    const after = await medianOf(c, '127.0.0.4');
    expect(after.answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(after.p50).toBeLessThan(SLOWDOWN * before.p50);
  });

  it('a fresh client keeps its p50 within SLOWDOWN × its own while the flood goes on', async () => {
    const c = await stack.company();
    const before = await medianOf(c, '127.0.0.1', 10);
    const attack = flood(c, '127.0.0.5', 400);
    const ms: number[] = [];
    for (let i = 0; i < 10; i++) {
      // Never cached (1 ms): each call is verified again, from a clean address.
      const a = await call('127.0.0.1', c.headers);
      expect(a.status).toBe(200);
      ms.push(a.ms);
    }
    await attack;
    ms.sort((a, b) => a - b);
    expect(ms[5]).toBeLessThan(SLOWDOWN * before.p50);
  });

  it('the failure counts are shared by gateway replicas: the budget spent on one is spent on the other', async () => {
    const c = await stack.company();
    const otherPort = await listen(stack.gatewayReplica());
    expect(await exhaust(c, '127.0.0.6')).toBe(PAIR_BUDGET);
    const other = await call('127.0.0.6', withPassword(c, 'one-more'), otherPort);
    expect(other.status).toBe(429);
    expect(Number(other.retryAfter)).toBeGreaterThan(60);
    expect((await call('127.0.0.1', c.headers, otherPort)).status).toBe(200);
  });
});

describe('cheap refusals', () => {
  it('a CompanyID that is not a GUID is 403 and spends neither a verification nor a budget', async () => {
    const c = await stack.company();
    for (let i = 0; i < 3 * PAIR_BUDGET; i++) {
      const a = await call('127.0.0.7', { ...withPassword(c, 'wrong'), CompanyID: `not-a-guid-${i}` });
      expect(a.status).toBe(403);
    }
    // The budget of this username from this address is whole: wrong passwords are still hashed (401).
    expect(await exhaust(c, '127.0.0.7')).toBe(PAIR_BUDGET);
  });
});

describe('refusals the contract knows', () => {
  it('every problem status of every operation is documented with both media types, Retry-After on 429 and 503, WWW-Authenticate on 401', async () => {
    const doc = await (await stack.app.request('/1.6/openapi.json')).json();
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!op.responses?.['401']) continue;
        for (const status of ['400', '401', '403', '413', '429', '503', '504']) {
          const r = op.responses[status];
          expect(r, `${method} ${path} ${status}`).toBeDefined();
          expect(Object.keys(r.content).sort(), `${method} ${path} ${status}`).toEqual([
            'application/problem+json',
            'application/problem+xml',
          ]);
          checked++;
        }
        expect(op.responses['429'].headers['Retry-After'].required).toBe(true);
        expect(op.responses['503'].headers['Retry-After']).toBeDefined();
        expect(op.responses['401'].headers['WWW-Authenticate'].required).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(7 * 50);
  });

  it('an XML 401 and 429 of GET /1.6/warehouses carry a documented media type and the documented headers', async () => {
    const doc = await (await stack.app.request('/1.6/openapi.json')).json();
    const responses = doc.paths['/1.6/warehouses'].get.responses;
    const c = await stack.company();
    const xml = (password: string) => ({ ...withPassword(c, password), Accept: 'application/xml' });
    const seen: Record<number, Answer & { type: string }> = {};
    for (let i = 0; i < 4 * PAIR_BUDGET && !seen[429]; i++) {
      const res = await stack.app.request('/1.6/warehouses', { headers: xml(`wrong-${i}`) });
      seen[res.status] ??= {
        status: res.status,
        ms: 0,
        retryAfter: res.headers.get('retry-after') ?? undefined,
        body: await res.text(),
        type: res.headers.get('content-type') ?? '',
      };
      await new Promise((r) => setTimeout(r, 120));
    }
    for (const status of [401, 429]) {
      const a = seen[status];
      expect(a, String(status)).toBeDefined();
      expect(Object.keys(responses[status].content)).toContain(a.type.split(';')[0]);
      expect(a.type).toMatch(/^application\/problem\+xml/);
      expect(a.body).toMatch(
        new RegExp(`^(<\\?xml[^>]*>\\s*)?<problem[ >][\\s\\S]*<status>${status}</status>`),
      );
    }
    expect(Number(seen[429].retryAfter)).toBeGreaterThan(60);
  });
});
