/**
 * `pnpm generate` (issue #14): writes the documents generated from the zod contracts and the typed client
 * generated from them. `test/contract-documents.test.ts` fails when a committed file differs.
 *
 * - `docs/openapi.json`: the OpenAPI 3.1 document the gateway serves at `GET /1.6/openapi.json`;
 * - `docs/asyncapi.json`: the AsyncAPI 3.0 document served at `GET /1.6/asyncapi.json`;
 * - `clients/typescript/src/schema.d.ts`: the client's types (openapi-typescript).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { contractDocuments } from './contract-documents.js';

const root = resolve(import.meta.dirname, '..');
const docs = await contractDocuments();
for (const [path, text] of Object.entries(docs)) {
  writeFileSync(resolve(root, path), text);
  console.log(`wrote ${path} (${text.length.toLocaleString('en')} characters)`);
}
