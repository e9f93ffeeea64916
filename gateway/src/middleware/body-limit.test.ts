import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLimit } from './body-limit.js';

/** A real HTTP server (the lightweight requests of @hono/node-server, as in production) echoing the body's length. */
const app = new Hono();
app.use(
  '*',
  bodyLimit(100, () => {
    throw new HTTPException(413, { message: 'too large' });
  }),
);
app.post('/echo', async (c) => c.text(String((await c.req.text()).length)));
app.get('/echo', (c) => c.text('get'));
let server: ReturnType<typeof serve>;
let url: string;

beforeAll(async () => {
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A body sent in two chunks without Content-Length (Transfer-Encoding: chunked). */
const chunked = (text: string) =>
  new ReadableStream({
    start(c) {
      const enc = new TextEncoder();
      c.enqueue(enc.encode(text.slice(0, 10)));
      c.enqueue(enc.encode(text.slice(10)));
      c.close();
    },
  });

describe('body limit (issue #24: judged by Content-Length when there is one)', () => {
  it('passes a body up to the limit and reads it whole', async () => {
    const r = await fetch(url, { method: 'POST', body: 'x'.repeat(100) });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('100');
  });

  it('refuses a body over the limit by its Content-Length', async () => {
    const r = await fetch(url, { method: 'POST', body: 'x'.repeat(101) });
    expect(r.status).toBe(413);
  });

  it('counts a chunked body as it arrives: 413 over the limit, read whole under it', async () => {
    const over = await fetch(url, { method: 'POST', body: chunked('y'.repeat(150)), duplex: 'half' } as any);
    expect(over.status).toBe(413);
    const under = await fetch(url, { method: 'POST', body: chunked('y'.repeat(60)), duplex: 'half' } as any);
    expect(under.status).toBe(200);
    expect(await under.text()).toBe('60');
  });

  it('lets a GET through', async () => {
    const r = await fetch(url);
    expect(await r.text()).toBe('get');
  });
});
