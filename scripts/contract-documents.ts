/**
 * The generated contract files (issue #14), as text, by their path in the repository: built from the
 * gateway's routes and the shared contracts, without PostgreSQL or NATS (nothing is sent while building).
 */
import { generateTypes } from '@bm/client/generate';
import { buildAsyncApiDocument } from '@bm/contracts';
import { createLogger } from '@bm/logger';
import type { NatsConnection } from '@bm/messaging';
import { createApp, openApiDocument } from '../gateway/src/app.js';
import type { IdempotencyStore } from '../gateway/src/identity/idempotency.store.js';
import type { IdentityService } from '../gateway/src/identity/identity.service.js';

const json = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;

/** `docs/openapi.json`, `docs/asyncapi.json` and `clients/typescript/src/schema.d.ts`, as generated now. */
export async function contractDocuments(): Promise<Record<string, string>> {
  // The routes only are needed: the dependencies are used when a request arrives, never here.
  const unused = <T>() => ({}) as T;
  const app = createApp({
    config: {
      ADMIN_TOKEN: 'x'.repeat(32),
      REQUEST_TIMEOUT_MS: 5000,
      BODY_LIMIT_BYTES: 1,
      AUTH_CACHE_TTL_MS: 1,
    },
    identity: unused<IdentityService>(),
    idempotency: unused<IdempotencyStore>(),
    nc: unused<NatsConnection>(),
    log: createLogger('generate', 'error'),
    pingDb: async () => undefined,
  });
  const openapi = openApiDocument(app);
  return {
    'docs/openapi.json': json(openapi),
    'docs/asyncapi.json': json(buildAsyncApiDocument()),
    'clients/typescript/src/schema.d.ts': await generateTypes(openapi),
  };
}
