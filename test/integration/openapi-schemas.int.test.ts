/**
 * The OpenAPI document (issue #3: valid OpenAPI 3.1 from the shared schemas) and the schema ownership
 * rules (DESIGN §1: a service only touches its own schema; migrations match the entities).
 */

import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import { compileErrors, validate } from '@readme/openapi-parser';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ormOptions as identity } from '../../gateway/src/identity/orm-options.js';
import { ormOptions as invoicing } from '../../services/invoicing/src/schema/orm-options.js';
import { ormOptions as reporting } from '../../services/reporting/src/persistence/orm-options.js';
import { ormOptions as warehouse } from '../../services/warehouse/src/schema/orm-options.js';
import { assertDocumented, type Stack, send, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

describe('GET /1.6/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without credentials', async () => {
    const r = await send(stack.app, 'GET', '/1.6/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(r.body));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it('documents every operation, with decimals as numbers and the admin bearer', async () => {
    const doc = (await send(stack.app, 'GET', '/1.6/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/1.6/items',
        '/1.6/items/{id}',
        '/1.6/ordners',
        '/1.6/periods/{id}/close',
        '/admin/companies',
      ]),
    );
    const item = doc.paths['/1.6/items'].post.requestBody.content['application/json'].schema;
    const props = item.properties ?? doc.components.schemas[item.$ref?.split('/').pop()]?.properties;
    expect(props.sellPrice.type).toBe('number');
    expect(doc.paths['/admin/companies'].post.security).toEqual([{ adminBearer: [] }]);
    expect(doc.components.securitySchemes.basic).toEqual({ type: 'http', scheme: 'basic' });
    expect(doc.components.schemas.Problem.properties.shortfalls.items).toEqual({
      $ref: '#/components/schemas/Shortfall',
    });
    expect(doc.components.schemas.Shortfall.properties.available.type).toBe('number');
  });
});

describe('schemas', () => {
  it.each([
    ['warehouse', warehouse],
    ['invoicing', invoicing],
    ['reporting', reporting],
    ['identity', identity],
  ])('the %s migrations produce exactly what its entities describe', async (_name, o) => {
    const orm = await MikroORM.init({
      clientUrl: stack.databaseUrl,
      schema: o.schema,
      entities: o.entities as any,
      extensions: [Migrator],
      migrations: { migrationsList: o.migrations, snapshot: false },
    });
    try {
      expect(await orm.schema.getUpdateSchemaSQL({ wrap: false, schema: o.schema })).toBe('');
    } finally {
      await orm.close();
    }
  });

  it('keeps every table of a service in its own schema', async () => {
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    const { rows } = await client.query(
      "select table_schema, table_name from information_schema.tables where table_schema not in ('pg_catalog','information_schema') order by 1, 2",
    );
    await client.end();
    const bySchema: Record<string, string[]> = {};
    for (const r of rows) {
      bySchema[r.table_schema] ??= [];
      bySchema[r.table_schema].push(r.table_name);
    }
    expect(Object.keys(bySchema).sort()).toEqual(['identity', 'invoicing', 'reporting', 'warehouse']);
    expect(bySchema.reporting).toEqual(['mikro_orm_migrations', 'report']);
    expect(bySchema.warehouse).toContain('item');
    expect(bySchema.invoicing).toContain('vat_code');
  });

  it('restarting one service leaves the other schemas untouched', async () => {
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    const count = async () =>
      (
        await client.query(
          "select count(*)::int as n from information_schema.tables where table_schema <> 'warehouse'",
        )
      ).rows[0].n;
    const before = await count();
    await stack.stopService('warehouse');
    await stack.startReplica('warehouse');
    expect(await count()).toBe(before);
    await client.end();
  });
});

describe('answers are checked against the published document (issue #11)', () => {
  it('every JSON answer the suite receives is validated; a violating one fails the test that got it', async () => {
    const ok = { page: 1, pageSize: 50, totalCount: 0, items: [] };
    await expect(
      assertDocumented(stack.app, 'get', '/1.6/units', 200, 'application/json', ok),
    ).resolves.toBeUndefined();
    await expect(
      assertDocumented(stack.app, 'get', '/1.6/units', 200, 'application/json', {
        ...ok,
        totalCount: 'many',
      }),
    ).rejects.toThrow(/violates the published document/);
    await expect(
      assertDocumented(stack.app, 'get', '/1.6/sales/invoices/x', 200, 'application/json', {
        ...ok,
        items: [{ bonusPercent: 'x' }],
      }),
    ).rejects.toThrow(/violates/);
    // Formats are checked too (ajv-formats): an id that is not a GUID violates `format: uuid`.
    const unit = { id: 'not-a-guid', code: 'ks', name: 'kus', uneceCode: 'H87' };
    await expect(
      assertDocumented(stack.app, 'get', '/1.6/units', 200, 'application/json', {
        ...ok,
        totalCount: 1,
        items: [unit],
      }),
    ).rejects.toThrow(/format/);
    await expect(
      assertDocumented(stack.app, 'post', '/1.6/no-such-thing', 201, 'application/json', {}),
    ).rejects.toThrow(/not in the published document/);
  });
});
