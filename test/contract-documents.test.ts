/**
 * Drift of the generated contract files (issue #14): `docs/openapi.json`, `docs/asyncapi.json` and the
 * typed client's `clients/typescript/src/schema.d.ts` must be exactly what `pnpm generate` makes from the
 * zod contracts now. A hand edit of any of them, or a contract change without regenerating, fails here.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractDocuments } from '../scripts/contract-documents.js';

const root = resolve(import.meta.dirname, '..');
let generated: Record<string, string>;
beforeAll(async () => {
  generated = await contractDocuments();
});

/** The first line where two texts differ (1-based), or undefined when they are equal. */
function firstDifference(
  a: string,
  b: string,
): { line: number; generated: string; committed: string } | undefined {
  if (a === b) return undefined;
  const x = a.split('\n');
  const y = b.split('\n');
  const i = x.findIndex((l, k) => l !== y[k]);
  const line = i === -1 ? x.length : i;
  return { line: line + 1, generated: x[line] ?? '(end)', committed: y[line] ?? '(end)' };
}

describe('generated contract files', () => {
  it('are committed exactly as generated (run `pnpm generate` after a contract change)', () => {
    expect(Object.keys(generated).sort()).toEqual([
      'clients/typescript/src/schema.d.ts',
      'docs/asyncapi.json',
      'docs/openapi.json',
    ]);
    for (const [path, text] of Object.entries(generated)) {
      const committed = readFileSync(resolve(root, path), 'utf8');
      expect(
        firstDifference(text, committed),
        `${path} differs from what pnpm generate makes`,
      ).toBeUndefined();
    }
  });

  it('a hand edit is a difference the check reports, with its line', () => {
    const text = generated['docs/asyncapi.json'];
    const edited = text.replace('"title": "Business management message interface"', '"title": "Edited"');
    expect(edited).not.toBe(text);
    expect(firstDifference(text, edited)).toMatchObject({ committed: expect.stringContaining('Edited') });
    const types = generated['clients/typescript/src/schema.d.ts'];
    const typeEdit = types.replace('recordNumber: string;', 'recordNumber: any;');
    expect(firstDifference(types, typeEdit)?.committed).toMatch(/recordNumber: any;/);
  });

  it('the client types have no `any` (every path, parameter and body is typed)', () => {
    const code = generated['clients/typescript/src/schema.d.ts']
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    expect(code.match(/\bany\b/g) ?? []).toEqual([]);
    // The paths the tests use most are there, with their methods.
    expect(code).toMatch(/"\/1\.6\/warehouses\/issue-cards": \{/);
    expect(code).toMatch(/"\/1\.6\/sales\/invoices\/\{id\}\/payments": \{/);
  });

  it('the AsyncAPI document is valid for the official parser, with no errors', async () => {
    const { diagnostics } = await new Parser().parse(generated['docs/asyncapi.json']);
    const errors = diagnostics.filter((d) => d.severity === 0);
    expect(errors.map((d) => `${d.code}: ${d.message} at ${d.path.join('/')}`)).toEqual([]);
  });
});
