/**
 * Issue #5 benchmarks, in one run:
 *  (1) sales-invoice creation (10 rows, creation mode) through the gateway: invoices/s, p50, p99;
 *  (2) the list view, page 1 and page 1,000, of a company with 100,000 sales invoices, through the
 *      gateway, with the plan of the page query (no full scan, no per-row query).
 * Usage: pnpm bench invoices   (DURATION_MS, CONCURRENCY)
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchStack } from './support.js';

const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const s = await startBenchStack();
const out: string[] = [];
const run = (path: string, method: 'GET' | 'POST', body?: () => string, connections = CONCURRENCY) =>
  autocannon({
    url: `${s.baseUrl}${path}`,
    connections,
    duration: DURATION / 1000,
    requests: [
      {
        method,
        headers: s.headers,
        ...(body ? { setupRequest: (req: any) => ({ ...req, body: body() }) } : {}),
      },
    ],
  });
try {
  const wh = (await s.call('GET', '/1.6/warehouses')).items[0];
  const partner = await s.call('POST', '/1.6/partners', {
    code: 'B1',
    name: 'Bench odberateľ s.r.o.',
    country: 'SK',
    vatNumber: 'SK2021000001',
  });
  const rates = [23, 19, 5];
  const body = () =>
    JSON.stringify({
      ordnerCode: 'OF',
      warehouseId: wh.id,
      partnerId: partner.id,
      dateCreated: s.today,
      rows: Array.from({ length: 10 }, (_, i) => ({
        name: `Položka ${i}`,
        quantity: 1 + (i % 3),
        price: (10 + i * 1.37).toFixed(2),
        vatRate: rates[i % 3],
      })),
    });
  const create = await run('/1.6/sales/invoices', 'POST', body);
  out.push(
    `### Sales-invoice creation, 10 rows, three VAT rates (${CONCURRENCY} concurrent, ${DURATION / 1000} s)`,
  );
  out.push('');
  out.push('| path | invoices/s | p50 ms | p99 ms | non-2xx |');
  out.push('|---|---|---|---|---|');
  out.push(
    `| POST /1.6/sales/invoices through the gateway | ${create.requests.average.toFixed(0)} | ${create.latency.p50} | ${create.latency.p99} | ${create.non2xx + create.errors} |`,
  );
  out.push('');

  // 100,000 invoices of the same company (headers as the service stores them; rows do not matter to the list).
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  const ids = await db.query(
    `select o.id as ordner, p.id as period from invoicing.ordner o, invoicing.period p
     where o.company_id = $1 and o.code = 'OF' and p.company_id = $1 and $2::date between p.date_from and p.date_to`,
    [s.creds.companyId, s.today],
  );
  const vat = await db.query(`select id from invoicing.vat_code where company_id = $1 and code = 'SK23'`, [
    s.creds.companyId,
  ]);
  await db.query(
    `insert into invoicing.sales_invoice (id, company_id, ordner_id, warehouse_id, record_number, tags, partner_id, partner_country, date_created, date_accounting,
       period_id, vat_period, vat_id, vat_code, vat_rate, mode, currency, sum_base, sum_vat, sum_total, vat_summary, cancelled, state, created_at, updated_at)
     select gen_random_uuid(), $1, $2, $3, 'BULK' || lpad(i::text, 7, '0'), '{}', $4, 'SK', $5::date - (i % 365), $5::date - (i % 365),
       $6, to_char($5::date - (i % 365), 'YYYY-MM'), $7, 'SK23', 23, 'creation', 'EUR', 100 + i % 50, round((100 + i % 50) * 0.23, 2),
       100 + i % 50 + round((100 + i % 50) * 0.23, 2), '[]', i % 97 = 0, case when i % 97 = 0 then 'cancelled' else 'issued' end, now(), now()
     from generate_series(1, 100000) i`,
    [s.creds.companyId, ids.rows[0].ordner, wh.id, partner.id, s.today, ids.rows[0].period, vat.rows[0].id],
  );
  await db.query(
    `insert into invoicing.payment (id, company_id, invoice_id, amount, date, created_at)
     select gen_random_uuid(), company_id, id, 50, date_created, now() from invoicing.sales_invoice where company_id = $1 and record_number like 'BULK%0'`,
    [s.creds.companyId],
  );
  await db.query('vacuum analyze invoicing.sales_invoice');
  await db.query('analyze invoicing.payment');
  const plan = await db.query(
    `explain (format text) select i."id" from "invoicing"."sales_invoice" i where i."company_id" = $1
      order by i."date_created" desc, i."record_number" desc, i."id" limit 50 offset 49950`,
    [s.creds.companyId],
  );
  await db.end();
  const total = (await s.call('GET', '/1.6/sales/invoices/1')).totalCount;
  const p1 = await run('/1.6/sales/invoices/1', 'GET', undefined, 8);
  const p1000 = await run('/1.6/sales/invoices/1000', 'GET', undefined, 8);
  const units = await run('/1.6/units', 'GET', undefined, 8);
  out.push(
    `### List view of a company with ${total.toLocaleString('en')} sales invoices (8 concurrent, ${DURATION / 1000} s each)`,
  );
  out.push('');
  out.push('| request | req/s | p50 ms | p99 ms |');
  out.push('|---|---|---|---|');
  out.push(
    `| GET /1.6/sales/invoices/1 | ${p1.requests.average.toFixed(0)} | ${p1.latency.p50} | ${p1.latency.p99} |`,
  );
  out.push(
    `| GET /1.6/sales/invoices/1000 | ${p1000.requests.average.toFixed(0)} | ${p1000.latency.p50} | ${p1000.latency.p99} |`,
  );
  out.push(
    `| baseline: GET /1.6/units (5 rows) | ${units.requests.average.toFixed(0)} | ${units.latency.p50} | ${units.latency.p99} |`,
  );
  out.push('');
  out.push(
    `Ratio page 1,000 / page 1 (req/s): **${(p1000.requests.average / p1.requests.average).toFixed(2)}**.`,
  );
  out.push('');
  out.push('Plan of the page-1,000 id query:');
  out.push('');
  out.push('```');
  for (const r of plan.rows) out.push(r['QUERY PLAN']);
  out.push('```');
  console.log(out.join('\n'));
} finally {
  await s.stop();
}
