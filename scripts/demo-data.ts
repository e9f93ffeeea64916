/**
 * The demo company of `pnpm start` (issue #3, #6): created once through `POST /admin/companies`, then
 * filled with master data an accountant recognises, all through the public HTTP interface. A second
 * start reuses it when its credentials still work.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
}

const headersOf = (c: DemoCredentials) => ({
  Authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
  ClientID: c.clientId,
  ClientSecret: c.clientSecret,
  CompanyID: c.companyId,
  'Content-Type': 'application/json',
});

/** Ids of the demo documents, kept beside the credentials for `pnpm demo`. */
export interface DemoDocuments {
  invoices: { id: string; recordNumber: string }[];
  issueCards: { id: string; recordNumber: string }[];
}

const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );

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
      taxNumber: '2020123456',
      street: 'Hlavná 12',
      city: 'Bratislava',
      postalCode: '81101',
      address: 'Hlavná 12, 811 01 Bratislava',
      registration: 'Obchodný register Mestského súdu Bratislava III, oddiel Sro, vložka č. 12345/B',
      email: 'fakturacia@demo-obchod.example',
      phone: '+421 2 1234 5678',
      // Issue #44: the VAT return's header (danovyUrad, opravnenaOsoba).
      taxOffice: 'Daňový úrad Bratislava',
      authorizedPersonName: 'Mária Demová',
      authorizedPersonEmail: 'maria.demova@demo-obchod.example',
      peppolId: '0245:2020123456',
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
  const items: Record<string, any> = {};
  for (const item of [
    { code: 'KAV-250', name: 'Káva zrnková Žltý kôň 250 g', unitCode: 'ks', sellPrice: 8.9, vatRate: 23 },
    { code: 'CAJ-100', name: 'Čaj zelený ďateľový 100 g', unitCode: 'ks', sellPrice: 4.5, vatRate: 23 },
    { code: 'MLY-01', name: 'Mlynček na kávu úpel', unitCode: 'ks', sellPrice: 49.9, vatRate: 23 },
    {
      code: 'MED-500',
      name: 'Med lesný 500 g',
      unitCode: 'ks',
      sellPrice: 7.2,
      vatRate: 23,
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
    items[item.code] = await post('/1.6/items', item);
  }
  const partners: Record<string, any> = {};
  for (const partner of [
    {
      code: 'TATRA',
      name: 'Tatranská káviareň s.r.o.',
      address: 'Námestie SNP 5, 974 01 Banská Bystrica',
      street: 'Námestie SNP 5',
      city: 'Banská Bystrica',
      postalCode: '97401',
      country: 'SK',
      companyNumber: '36789012',
      taxNumber: '2021987654',
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
      street: 'Leopoldstraße 8',
      city: 'München',
      postalCode: '80802',
      country: 'DE',
      vatNumber: 'DE123456789',
      dueDays: 30,
    },
  ]) {
    partners[partner.code] = await post('/1.6/partners', partner);
  }
  const today = todayIn('Europe/Bratislava');
  const monthStart = `${today.slice(0, 8)}01`;
  const hs = (await (await fetch(`${o.baseUrl}/1.6/warehouses`, { headers: headersOf(creds) })).json())
    .items[0];
  const avg = await post('/1.6/warehouses', {
    code: 'PRED',
    name: 'Predajňa (vážený priemer)',
    valuationMethod: 'WeightedAverage',
    accounted: true,
  });
  const lot = await post(`/1.6/items/${items['MED-500'].id}/lot-numbers`, {
    number: 'L-2026-10',
    expiryDate: '2027-10-31',
  });
  const receipt = (warehouseId: string, rows: unknown[]) =>
    post('/1.6/warehouses/receipt-cards', { ordnerCode: 'PR', warehouseId, dateOperation: monthStart, rows });
  await receipt(hs.id, [
    { itemId: items['KAV-250'].id, quantity: 50, costPrice: 4.2 },
    { itemId: items['CAJ-100'].id, quantity: 100, costPrice: 1.8 },
    { itemId: items['MLY-01'].id, quantity: 10, costPrice: 31.5 },
    { itemId: items['MED-500'].id, lotNumberID: lot.id, quantity: 30, costPrice: 3.9 },
  ]);
  await receipt(hs.id, [{ itemId: items['KAV-250'].id, quantity: 40, costPrice: 4.6 }]);
  await receipt(avg.id, [
    { itemId: items['KAV-250'].id, quantity: 20, costPrice: 4.1 },
    { itemId: items['KAV-250'].id, quantity: 20, costPrice: 4.5 },
  ]);
  const docs: DemoDocuments = { invoices: [], issueCards: [] };
  const card = async (body: unknown) => {
    const c = await post('/1.6/warehouses/issue-cards', body);
    docs.issueCards.push({ id: c.id, recordNumber: c.recordNumber });
    return c;
  };
  // FIFO: 60 pieces span the two coffee layers (50 at 4.20 and 10 at 4.60).
  await card({
    ordnerCode: 'VY',
    warehouseId: hs.id,
    partnerId: partners.TATRA.id,
    dateOperation: today,
    itemsComment: 'Dodávka pre prevádzku Banská Bystrica',
    rows: [{ itemId: items['KAV-250'].id, quantity: 60 }],
  });
  // Moving average: 40 pieces for 172.00 → 4.30 a piece.
  await card({
    ordnerCode: 'VY',
    warehouseCode: 'PRED',
    partnerId: partners.TATRA.id,
    dateOperation: today,
    rows: [{ itemId: items['KAV-250'].id, quantity: 10 }],
  });
  const paymentTypes = (
    await (await fetch(`${o.baseUrl}/1.6/payment-types`, { headers: headersOf(creds) })).json()
  ).items;
  const transfer = paymentTypes.find((p: any) => p.code === 'PP')?.id;
  const invoice = async (body: Record<string, unknown>) => {
    const i = await post('/1.6/sales/invoices', {
      ordnerCode: 'OF',
      warehouseId: hs.id,
      dateCreated: today,
      paymentTypeId: transfer,
      ...body,
    });
    docs.invoices.push({ id: i.id, recordNumber: i.recordNumber });
    return i;
  };
  const domestic = await invoice({
    partnerId: partners.TATRA.id,
    commentAboveItems: 'Fakturujeme Vám za dodaný tovar a služby:',
    commentBelowItems: 'Ďakujeme za Vašu objednávku.',
    rows: [
      { itemId: items['KAV-250'].id, quantity: 24, price: 8.9 },
      { itemId: items['MLY-01'].id, quantity: 2, price: 49.9 },
      { itemId: items.SERVIS.id, quantity: 1.5, price: 35 },
    ],
  });
  await invoice({
    partnerId: partners.NOVAK.id,
    commentAboveItems: 'Objednávka z e-shopu',
    rows: [{ itemId: items['CAJ-100'].id, quantity: 5, price: 4.5 }],
  });
  await invoice({
    partnerId: partners.KAFFEE.id,
    vatRate: 0,
    rows: [{ itemId: items['MLY-01'].id, quantity: 5, price: 42 }],
  });
  // The goods of the domestic invoice leave the warehouse through an issue card copied from it.
  const copied = await post(
    `/1.6/warehouses/issue-cards/copy?sourceId=${domestic.id}&dateOperation=${today}`,
    undefined,
  );
  docs.issueCards.push({ id: copied.id, recordNumber: copied.recordNumber });
  writeFileSync(
    o.credsFile.replace(/credentials\.json$/, 'documents.json'),
    `${JSON.stringify(docs, null, 2)}\n`,
  );
  return creds;
}

/**
 * Writes the PDFs of the demo invoices and issue cards to `dir` (`pnpm demo`), through
 * `GET /1.6/reports/{code}?output=pdf&recordID=…` like any client.
 */
export async function writeDemoPdfs(
  baseUrl: string,
  creds: DemoCredentials,
  credsFile: string,
  dir: string,
  log: (s: string) => void,
): Promise<void> {
  const docsFile = credsFile.replace(/credentials\.json$/, 'documents.json');
  if (!existsSync(docsFile))
    return log(`no ${docsFile}; delete .local/ and start again to seed the demo documents`);
  const docs = JSON.parse(readFileSync(docsFile, 'utf8')) as DemoDocuments;
  mkdirSync(dir, { recursive: true });
  const fetchPdf = async (report: string, d: { id: string; recordNumber: string }) => {
    const r = await fetch(`${baseUrl}/1.6/reports/${report}?output=pdf&recordID=${d.id}`, {
      headers: { ...headersOf(creds), Accept: 'application/pdf' },
    });
    if (!r.ok) throw new Error(`printout of ${d.recordNumber}: ${r.status} ${await r.text()}`);
    const file = join(dir, `${d.recordNumber}.pdf`);
    writeFileSync(file, Buffer.from(await r.arrayBuffer()));
    log(`  ${file}`);
  };
  log(`Demo printouts in ${dir}:`);
  for (const d of docs.invoices) await fetchPdf('SalesInvoice', d);
  for (const d of docs.issueCards) await fetchPdf('IssueCard', d);
}
