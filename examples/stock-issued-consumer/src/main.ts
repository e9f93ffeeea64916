/**
 * `pnpm --filter @bm/example-stock-issued-consumer start`: prints one JSON line per stock event.
 *
 * Connection: NATS_URL, NATS_USER, NATS_PASSWORD when set; otherwise the local stack of `pnpm start`
 * (`.local/data/urls.json` and the `integration` user of `.local/data/nats-credentials.json`; LOCAL_DIR
 * to point elsewhere). DURABLE names the consumers (default `stock-printer`): run it again with the same
 * name and it resumes after the last acked event.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { startConsumer } from './consumer.js';

const local = process.env.LOCAL_DIR ?? resolve(import.meta.dirname, '../../../.local');
const readJson = (file: string) => JSON.parse(readFileSync(join(local, 'data', file), 'utf8'));

// One URL, or the comma-separated nodes of a cluster (`NATS_CLUSTER=3 pnpm start`).
const servers = String(process.env.NATS_URL ?? readJson('urls.json').natsUrl).split(',');
const own = process.env.NATS_USER
  ? { user: process.env.NATS_USER, pass: process.env.NATS_PASSWORD }
  : (() => {
      const c = readJson('nats-credentials.json').integration;
      return { user: c.user, pass: c.password };
    })();

const nc = await connect({ servers, ...own, name: 'stock-issued-consumer' });
const consumer = await startConsumer({
  nc,
  durable: process.env.DURABLE ?? 'stock-printer',
  onEvent: (e) => console.log(JSON.stringify({ subject: e.subject, version: e.version, ...e.payload })),
});
console.error(`listening on ${servers} as ${own.user}; Ctrl-C stops`);
const stop = async () => {
  await consumer.stop();
  await nc.drain();
  console.error(`stopped: ${JSON.stringify(consumer.counts())}`);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
