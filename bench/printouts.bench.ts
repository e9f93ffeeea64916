/**
 * Issue #6 benchmarks, in one run:
 *  (1) render latency of a 1-page and a 20-page sales-invoice printout (pdfmake, in-process, sequential);
 *  (2) printouts per second through the gateway (HTTP → NATS → reporting → object store → HTTP) with the
 *      worker pool (REPORT_WORKERS = cores) vs rendering in the service's single thread (REPORT_WORKERS=0).
 * Usage: pnpm bench printouts   (DURATION_MS, CONCURRENCY)
 */
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import type { InvoicePrint } from '../services/reporting/src/domain/print-model.js';
import { render } from '../services/reporting/src/rendering/render.worker.js';
import { pct, startBenchStack } from './support.js';

const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const out: string[] = [];

const party = {
  name: 'Demo Obchod s.r.o.',
  address: 'Hlavná 12, 811 01 Bratislava',
  companyNumber: '50123456',
  vatNumber: 'SK2020123456',
  country: 'SK',
};
const model = (rows: number): InvoicePrint => ({
  recordNumber: 'OF202600001',
  dateCreated: '2026-11-23',
  dateDelivery: '2026-11-23',
  dateValidTo: '2026-12-07',
  currency: 'EUR',
  supplier: party,
  customer: { ...party, name: 'Tatranská káviareň s.r.o.' },
  deliveryAddress: null,
  symbolVariable: '202600001',
  symbolConstant: null,
  symbolSpecific: null,
  iban: 'SK3112000000198742637541',
  bic: null,
  paymentType: 'Prevodný príkaz',
  deliveryType: null,
  orderRecordNo: null,
  warehouseRecordNo: null,
  commentAboveItems: 'Fakturujeme Vám:',
  commentBelowItems: null,
  vatParagraph: null,
  rows: Array.from({ length: rows }, (_, i) => ({
    code: `P${i}`,
    name: `Položka ${i} Žltý kôň`,
    quantity: '2',
    unit: 'ks',
    price: '8.9',
    vatRate: '23',
    base: '17.8',
    vat: '4.09',
    total: '21.89',
  })),
  vatSummary: [{ rate: '23', base: '17.8', vat: '4.09' }],
  sumBase: '17.8',
  sumVat: '4.09',
  sumTotal: '21.89',
  balance: '21.89',
  state: 'issued',
});

// (1) render latency
const latency = async (rows: number) => {
  const times: number[] = [];
  let pages = 0;
  for (let i = 0; i < 25; i++) {
    const t = performance.now();
    const r = await render({ kind: 'SalesInvoice', data: model(rows) });
    if (i >= 5) times.push(performance.now() - t);
    pages = r.pages;
  }
  times.sort((a, b) => a - b);
  return { pages, p50: pct(times, 50), mean: times.reduce((a, b) => a + b, 0) / times.length };
};
const one = await latency(20);
let twenty = await latency(700);
for (let rows = 700; twenty.pages < 20; rows += 40) twenty = await latency(rows);
out.push('### Render latency, in-process, sequential (20 renders after 5 warm-up)');
out.push('');
out.push('| printout | pages | mean ms | p50 ms |');
out.push('|---|---|---|---|');
out.push(`| sales invoice, 20 rows | ${one.pages} | ${one.mean.toFixed(1)} | ${one.p50.toFixed(1)} |`);
out.push(
  `| sales invoice, ~700 rows | ${twenty.pages} | ${twenty.mean.toFixed(1)} | ${twenty.p50.toFixed(1)} |`,
);
out.push('');

// (2) through the gateway, pool vs single thread
const s = await startBenchStack();
try {
  const wh = (await s.call('GET', '/1.6/warehouses')).items[0];
  const partner = await s.call('POST', '/1.6/partners', {
    code: 'B1',
    name: 'Tatranská káviareň s.r.o.',
    country: 'SK',
    vatNumber: 'SK2021000001',
  });
  const inv = await s.call('POST', '/1.6/sales/invoices', {
    ordnerCode: 'OF',
    warehouseId: wh.id,
    partnerId: partner.id,
    dateCreated: s.today,
    rows: Array.from({ length: 20 }, (_, i) => ({ name: `Položka ${i} Žltý kôň`, quantity: 2, price: 8.9 })),
  });
  const url = `${s.baseUrl}/1.6/reports/SalesInvoice?output=pdf&recordID=${inv.id}`;
  const ready = async () => (await fetch(url, { headers: { ...s.headers, Accept: 'application/pdf' } })).ok;
  const measure = () =>
    autocannon({
      url,
      connections: CONCURRENCY,
      duration: DURATION / 1000,
      headers: { ...s.headers, Accept: 'application/pdf' },
    });
  // One company makes all the printouts here: admit them all (issue #12's per-company bound is 4), so the
  // benchmark measures rendering, not admission.
  const admitAll = { PRINTOUT_PER_COMPANY: '64' };
  await s.restart('services/reporting/src/main.ts', { REPORT_WORKERS: '0', ...admitAll }, ready);
  const single = await measure();
  await s.restart(
    'services/reporting/src/main.ts',
    { REPORT_WORKERS: String(availableParallelism()), ...admitAll },
    ready,
  );
  const pool = await measure();
  out.push(
    `### Printouts through the gateway, 1-page invoice (${CONCURRENCY} concurrent, ${DURATION / 1000} s each, ${availableParallelism()} cores)`,
  );
  out.push('');
  out.push('| reporting service | printouts/s | p50 ms | p99 ms | non-2xx |');
  out.push('|---|---|---|---|---|');
  out.push(
    `| single thread (REPORT_WORKERS=0) | ${single.requests.average.toFixed(1)} | ${single.latency.p50} | ${single.latency.p99} | ${single.non2xx + single.errors} |`,
  );
  out.push(
    `| worker pool (REPORT_WORKERS=${availableParallelism()}) | ${pool.requests.average.toFixed(1)} | ${pool.latency.p50} | ${pool.latency.p99} | ${pool.non2xx + pool.errors} |`,
  );
  out.push('');
  out.push(
    `Ratio pool / single thread: **${(pool.requests.average / single.requests.average).toFixed(2)}**.`,
  );
  console.log(out.join('\n'));
} finally {
  await s.stop();
}
