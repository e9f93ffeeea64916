/** Per-service database URLs (issue #25): `<OWNER>_DATABASE_URL` in place of `DATABASE_URL`. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv, ServiceEnv, withOwnDatabase } from './config.js';

const shared = 'postgresql://u@db-main:5432/business';
const own = 'postgresql://w@db-warehouse:5432/business';

describe('per-service database URLs', () => {
  it('a service takes its own URL, the others keep DATABASE_URL', () => {
    const env = { DATABASE_URL: shared, WAREHOUSE_DATABASE_URL: own };
    expect(parseEnv(ServiceEnv, withOwnDatabase('warehouse', env)).DATABASE_URL).toBe(own);
    expect(parseEnv(ServiceEnv, withOwnDatabase('invoicing', env)).DATABASE_URL).toBe(shared);
  });

  it('its own URL may come from a file, and wins over a DATABASE_URL_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'own-db-'));
    writeFileSync(join(dir, 'warehouse.url'), `${own}\n`);
    writeFileSync(join(dir, 'shared.url'), `${shared}\n`);
    const env = {
      DATABASE_URL_FILE: join(dir, 'shared.url'),
      WAREHOUSE_DATABASE_URL_FILE: join(dir, 'warehouse.url'),
    };
    expect(parseEnv(ServiceEnv, withOwnDatabase('warehouse', env)).DATABASE_URL).toBe(own);
    expect(parseEnv(ServiceEnv, withOwnDatabase('reporting', env)).DATABASE_URL).toBe(shared);
  });
});
