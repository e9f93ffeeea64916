/**
 * Issue #21 benchmarks, in one run, side by side:
 *  (1) baseline: sales-invoice creation (10 rows, three VAT rates) through the gateway;
 *  (2) the draft e-invoice of those invoices (`GET …/e-invoice`: read, map, pre-flight, write UBL);
 *  (3) issuing them (`POST …/e-invoice`: the same plus the frozen bytes and the outbox event), each once;
 *  (4) the pure domain step alone, in this process: map + pre-flight + UBL of one 10-row invoice.
 * Documents per second, p50/p99, and CPU milliseconds per document of each process (gateway, services,
 * PostgreSQL, nats-server) for (1)–(3).
 * Usage: pnpm bench e-invoices   (DURATION_MS, CONCURRENCY)
 */
import autocannon from 'autocannon';
import { eInvoiceFromSalesInvoice } from '../services/invoicing/src/e-invoice-format/from-sales-invoice.js';
import { preflight } from '../services/invoicing/src/e-invoice-format/preflight.js';
import { sampleSource } from '../services/invoicing/src/e-invoice-format/sample-source.fixture.js';
import { writeUbl } from '../services/invoicing/src/e-invoice-format/ubl-write.js';
import { calculate } from '../services/invoicing/src/invoice-rules/invoice-calculation.js';
import { cpuPerDocument, cpuSnapshot, processGroups } from './cpu.js';
import { startBenchStack } from './support.js';

const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const s = await startBenchStack();
const out: string[] = [];
const rates = ['23', '19', '5'];
const rowsOf = () =>
  Array.from({ length: 10 }, (_, i) => ({
    name: `Položka ${i}`,
    quantity: 1 + (i % 3),
    price: (10 + i * 1.37).toFixed(2),
    vatRate: rates[i % 3],
  }));
try {
  const profile = await s.call('GET', '/1.6/company');
  await s.call('PUT', '/1.6/company', {
    ...profile,
    companyNumber: '50999999',
    taxNumber: '2020999999',
    street: 'Hlavná 1',
    city: 'Bratislava',
    postalCode: '81101',
  });
  const wh = (await s.call('GET', '/1.6/warehouses')).items[0];
  const partner = await s.call('POST', '/1.6/partners', {
    code: 'B1',
    name: 'Bench odberateľ s.r.o.',
    country: 'SK',
    vatNumber: 'SK2021000001',
    companyNumber: '36000001',
    street: 'Námestie SNP 5',
    city: 'Banská Bystrica',
    postalCode: '97401',
  });
  const groups = processGroups(() => s.pids());
  const order = ['gateway', 'invoicing', 'warehouse', 'postgresql', 'nats'];
  const row = (label: string, r: autocannon.Result, perSecond: number, cpu: Record<string, number>) =>
    `| ${label} | ${perSecond.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} | ${cpu.total.toFixed(2)} (${order.map((n) => `${n} ${cpu[n].toFixed(2)}`).join(', ')}) |`;
  const ids: string[] = [];
  let before = cpuSnapshot(groups);
  const create = await autocannon({
    url: `${s.baseUrl}/1.6/sales/invoices`,
    connections: CONCURRENCY,
    duration: DURATION / 1000,
    requests: [
      {
        method: 'POST',
        headers: s.headers,
        body: JSON.stringify({
          ordnerCode: 'OF',
          warehouseId: wh.id,
          partnerId: partner.id,
          dateCreated: s.today,
          rows: rowsOf(),
        }),
        onResponse: (status: number, body: string) => {
          if (status === 201) ids.push(JSON.parse(body).id);
        },
      },
    ],
  } as any);
  const createCpu = cpuPerDocument(groups, before, Math.max(create['2xx'], 1));

  let n = 0;
  const nextId = () => ids[n++ % ids.length];
  before = cpuSnapshot(groups);
  const drafts = await autocannon({
    url: s.baseUrl,
    connections: CONCURRENCY,
    duration: DURATION / 1000,
    requests: [
      {
        method: 'GET',
        headers: { ...s.headers, Accept: 'application/xml' },
        setupRequest: (req: any) => ({ ...req, path: `/1.6/sales/invoices/${nextId()}/e-invoice` }),
      },
    ],
  });
  const draftCpu = cpuPerDocument(groups, before, Math.max(drafts['2xx'], 1));

  // Each invoice issued once: as many requests as invoices, then the run ends.
  let k = 0;
  before = cpuSnapshot(groups);
  const t0 = performance.now();
  const issued = await autocannon({
    url: s.baseUrl,
    connections: CONCURRENCY,
    amount: ids.length,
    requests: [
      {
        method: 'POST',
        headers: { ...s.headers, Accept: 'application/xml' },
        setupRequest: (req: any) => ({ ...req, path: `/1.6/sales/invoices/${ids[k++]}/e-invoice` }),
      },
    ],
  });
  const issueSeconds = (performance.now() - t0) / 1000;
  const issueCpu = cpuPerDocument(groups, before, Math.max(issued['2xx'], 1));

  // The pure domain step, in this process (no I/O): one 10-row invoice mapped, checked and written.
  const calcRows = rowsOf().map((r) => ({
    quantity: String(r.quantity),
    price: r.price,
    vatId: r.vatRate,
    vatCode: `SK${r.vatRate}`,
    rate: r.vatRate,
  }));
  const calc = calculate('creation', calcRows);
  // The domain tests' sample invoice with these ten rows (three rates, each its own VAT code).
  const source = sampleSource();
  Object.assign(source.invoice, {
    sumBase: calc.sumBase,
    sumVat: calc.sumVat,
    sumTotal: calc.sumTotal,
    vatSummary: calc.vatSummary,
    rows: calc.rows.map((r, i) => ({
      quantity: calcRows[i].quantity,
      price: r.price,
      code: null,
      name: `Položka ${i}`,
      vatId: calcRows[i].vatId,
      vatRate: calcRows[i].rate,
      vatParagraphId: null,
      sumBase: r.sumBase,
      unitCode: 'H87',
    })),
  });
  source.vatCodes = Object.fromEntries(rates.map((r) => [r, { kind: 'standard' as const, paragraphs: {} }]));
  const once = () => {
    const model = eInvoiceFromSalesInvoice(source);
    if (preflight(model, { sk: true }).length) throw new Error('bench document fails the pre-flight rules');
    return writeUbl(model).byteLength;
  };
  for (let i = 0; i < 500; i++) once();
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  let bytes = 0;
  const loops = 5000;
  for (let i = 0; i < loops; i++) bytes = once();
  const wallMs = performance.now() - w0;
  const cpuMs = (process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1000;

  out.push(
    `### E-invoices beside invoice creation (${CONCURRENCY} concurrent, ${DURATION / 1000} s; issue: each of the ${ids.length} invoices once)`,
  );
  out.push('');
  out.push('| request | documents/s | p50 ms | p99 ms | non-2xx | CPU ms per document (by process) |');
  out.push('|---|---|---|---|---|---|');
  out.push(
    row('baseline: POST /1.6/sales/invoices, 10 rows', create, create['2xx'] / (DURATION / 1000), createCpu),
  );
  out.push(
    row(
      'GET …/e-invoice (draft: read, map, pre-flight, UBL)',
      drafts,
      drafts['2xx'] / (DURATION / 1000),
      draftCpu,
    ),
  );
  out.push(
    row('POST …/e-invoice (issue: + frozen bytes, event)', issued, issued['2xx'] / issueSeconds, issueCpu),
  );
  out.push('');
  out.push(
    `Ratios in this run: drafts / creations **${(drafts['2xx'] / Math.max(create['2xx'], 1)).toFixed(2)}**, issues / creations per second **${(issued['2xx'] / issueSeconds / (create['2xx'] / (DURATION / 1000))).toFixed(2)}**, CPU per issue / CPU per creation **${(issueCpu.total / createCpu.total).toFixed(2)}**.`,
  );
  out.push('');
  out.push(
    `In-process domain step (map + pre-flight + UBL, 10 rows, ${bytes} bytes): ${((loops / wallMs) * 1000).toFixed(0)} documents/s on one core, ${(cpuMs / loops).toFixed(3)} ms CPU each.`,
  );
  console.log(out.join('\n'));
} finally {
  await s.stop();
}
