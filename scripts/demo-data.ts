/**
 * The demo company of `pnpm start` (issue #3, #6): created once through `POST /admin/companies`, then
 * filled with master data an accountant recognises, all through the public HTTP interface. A second
 * start reuses it when its credentials still work.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface DemoCredentials {
  companyId: string;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
}

export interface SeedOptions {
  baseUrl: string;
  adminToken: string;
  credsFile: string;
  log: (s: string) => void;
  demoPdfs?: boolean;
}

const headersOf = (c: DemoCredentials) => ({
  Authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
  ClientID: c.clientId,
  ClientSecret: c.clientSecret,
  CompanyID: c.companyId,
  'Content-Type': 'application/json',
});

/** Creates (or reuses) the demo company and returns its credentials. */
export async function seedDemo(o: SeedOptions): Promise<DemoCredentials> {
  if (existsSync(o.credsFile)) {
    const old = JSON.parse(readFileSync(o.credsFile, 'utf8')) as DemoCredentials;
    const r = await fetch(`${o.baseUrl}/1.6/warehouses`, { headers: headersOf(old) }).catch(() => undefined);
    if (r?.ok) {
      o.log('Reusing the demo company from an earlier start.');
      return old;
    }
  }
  o.log('Creating the demo company…');
  const res = await fetch(`${o.baseUrl}/admin/companies`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${o.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Demo Obchod s.r.o.',
      country: 'SK',
      vatNumber: 'SK2020123456',
      companyNumber: '50123456',
      address: 'Hlavná 12, 811 01 Bratislava',
      ossRegistered: true,
      iban: 'SK31 1200 0000 1987 4263 7541',
      username: 'demo',
    }),
  });
  if (res.status !== 201) throw new Error(`demo company: ${res.status} ${await res.text()}`);
  const creds = (await res.json()) as DemoCredentials;
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${o.baseUrl}${path}`, {
      method: 'POST',
      headers: headersOf(creds),
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`demo ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<any>;
  };
  for (const item of [
    { code: 'KAV-250', name: 'Káva zrnková Žltý kôň 250 g', unitCode: 'ks', sellPrice: 8.9, vatRate: 19 },
    { code: 'CAJ-100', name: 'Čaj zelený ďateľový 100 g', unitCode: 'ks', sellPrice: 4.5, vatRate: 19 },
    { code: 'MLY-01', name: 'Mlynček na kávu úpel', unitCode: 'ks', sellPrice: 49.9, vatRate: 23 },
    {
      code: 'MED-500',
      name: 'Med lesný 500 g',
      unitCode: 'ks',
      sellPrice: 7.2,
      vatRate: 19,
      hasLotNumbers: true,
    },
    {
      code: 'SERVIS',
      name: 'Servis kávovaru (hodina)',
      unitCode: 'h',
      sellPrice: 35,
      vatRate: 23,
      kind: 'service',
    },
  ]) {
    await post('/1.6/items', item);
  }
  for (const partner of [
    {
      code: 'TATRA',
      name: 'Tatranská káviareň s.r.o.',
      address: 'Námestie SNP 5, 974 01 Banská Bystrica',
      country: 'SK',
      companyNumber: '36789012',
      vatNumber: 'SK2021987654',
      dueDays: 14,
    },
    {
      code: 'NOVAK',
      name: 'Jana Nováková',
      address: 'Vinohradská 12, 120 00 Praha 2',
      country: 'CZ',
      dueDays: 7,
    },
    {
      code: 'KAFFEE',
      name: 'Kaffeehaus Müller GmbH',
      address: 'Leopoldstraße 8, 80802 München',
      country: 'DE',
      vatNumber: 'DE123456789',
      dueDays: 30,
    },
  ]) {
    await post('/1.6/partners', partner);
  }
  return creds;
}
