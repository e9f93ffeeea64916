/**
 * `pnpm sapi-stand-in [--port N] [--client ID:SECRET]` (issue #35): the SAPI-SK 1.0 stand-in of the tests,
 * on loopback, to try the stack's `sapi` transport without a provider. Prints its base URL and the
 * credentials to give `pnpm start` (PEPPOL_AP=sapi SAPI_URL=… SAPI_CLIENT_ID=… SAPI_CLIENT_SECRET=…) or
 * `PUT /1.6/company/access-point`. Documents go into a mailbox with
 * `curl -X POST --data-binary @invoice.xml <url>/_stand-in/mailbox/0245:2020123456`; what was sent is at
 * `<url>/_stand-in/sent`. Ctrl-C stops it. Not for production: state in memory, no TLS.
 */
import { parseArgs } from 'node:util';
import { SapiStandIn } from '../test/support/sapi-stand-in.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '8095' }, client: { type: 'string', multiple: true } },
});
const clients = Object.fromEntries(
  (values.client?.length ? values.client : ['demo-client:demo-secret-0123456789']).map((c) => {
    const i = c.indexOf(':');
    if (i < 1) throw new Error(`--client ${c}: expected ID:SECRET`);
    return [c.slice(0, i), c.slice(i + 1)];
  }),
);
const standIn = new SapiStandIn(clients);
const url = await standIn.listen(Number(values.port));
console.log(`SAPI-SK stand-in at ${url}`);
for (const [id, secret] of Object.entries(clients)) console.log(`  client ${id}, secret ${secret}`);
console.log(
  `  PEPPOL_AP=sapi SAPI_URL=${url} SAPI_CLIENT_ID=${Object.keys(clients)[0]} SAPI_CLIENT_SECRET=${Object.values(clients)[0]} pnpm start`,
);
console.log(`  curl -X POST --data-binary @invoice.xml ${url}/_stand-in/mailbox/0245:2020123456`);
const stop = () => void standIn.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
