/**
 * Issue #4 benchmarks, in one run:
 *  (1) issue-card creation (5 rows, FIFO) through the gateway (HTTP → NATS → warehouse → PostgreSQL)
 *      vs the same valuation and insert called in-process against PostgreSQL;
 *  (2) the cost of one current-date issue of an item with 10 vs 100,000 earlier movements.
 * Usage: pnpm bench issue-cards   (DURATION_MS, CONCURRENCY to tune; prints a markdown table)
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { storeResolvedIssue } from '../services/warehouse/src/issue-card/issue-card.kind.js';
import { resolveIssue } from '../services/warehouse/src/issue-card/issue-card.resolve.js';
import { ormOptions } from '../services/warehouse/src/schema/orm-options.js';
import { closedLoop, pct, startBenchStack } from './support.js';

const DURATION = Number(process.env.DURATION_MS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const ITEMS = 1000;

const s = await startBenchStack({ ormOptions });
const out: string[] = [];
try {
  const warehouses = await s.call('GET', '/1.6/warehouses');
  const hs = warehouses.items[0]; // FIFO, accounted
  const partner = await s.call('POST', '/1.6/partners', { code: 'B1', name: 'Bench partner' });
  const items: string[] = [];
  for (let i = 0; i < ITEMS; i++)
    items.push(
      (await s.call('POST', '/1.6/items', { code: `B${i}`, name: `Bench item ${i}`, sellPrice: 10 })).id,
    );
  for (let i = 0; i < ITEMS; i += 50) {
    const rows = items
      .slice(i, i + 50)
      .flatMap((itemId) => [1.1, 1.2, 1.3].map((costPrice) => ({ itemId, quantity: 1_000_000, costPrice })));
    await s.call('POST', '/1.6/warehouses/receipt-cards', {
      ordnerCode: 'PR',
      warehouseId: hs.id,
      dateOperation: s.today,
      rows,
    });
  }
  /** 5 distinct random items of the 1,000, one piece each. */
  const body = () => {
    const pick = new Set<string>();
    while (pick.size < 5) pick.add(items[Math.floor(Math.random() * ITEMS)]);
    return {
      ordnerCode: 'VY',
      warehouseId: hs.id,
      partnerId: partner.id,
      dateOperation: s.today,
      rows: [...pick].map((itemId) => ({ itemId, quantity: 1 })),
    };
  };

  // (1a) through the gateway
  const viaGateway = await autocannon({
    url: `${s.baseUrl}/1.6/warehouses/issue-cards`,
    connections: CONCURRENCY,
    duration: DURATION / 1000,
    requests: [
      {
        method: 'POST',
        headers: s.headers,
        setupRequest: (req: any) => ({ ...req, body: JSON.stringify(body()) }),
      },
    ],
  });
  // (1b) the same valuation and insert, in-process (references resolved once per item set, as the gateway path resolves them per request)
  const deps = { kit: s.kit, kickOutbox: () => {} }; // the warehouse process's relay publishes the events
  const resolvedSets = await Promise.all(
    Array.from({ length: 200 }, () => resolveIssue(deps, s.directCtx(), body() as any)),
  );
  const direct = await closedLoop(
    () =>
      storeResolvedIssue(deps, s.directCtx(), resolvedSets[Math.floor(Math.random() * resolvedSets.length)]),
    CONCURRENCY,
    DURATION,
  );
  const gwRps = viaGateway.requests.average;
  const directRps = direct.latencies.length / direct.seconds;
  out.push(`### Issue-card creation, 5 rows, FIFO (${CONCURRENCY} concurrent, ${DURATION / 1000} s each)`);
  out.push('');
  out.push('| path | cards/s | p50 ms | p99 ms | errors |');
  out.push('|---|---|---|---|---|');
  out.push(
    `| gateway: HTTP → NATS → warehouse → PostgreSQL | ${gwRps.toFixed(0)} | ${viaGateway.latency.p50} | ${viaGateway.latency.p99} | ${viaGateway.non2xx + viaGateway.errors} |`,
  );
  out.push(
    `| in-process valuation + insert (no HTTP, no NATS, no lookups) | ${directRps.toFixed(0)} | ${pct(direct.latencies, 50).toFixed(1)} | ${pct(direct.latencies, 99).toFixed(1)} | ${direct.errors} |`,
  );
  out.push('');
  out.push(`Ratio gateway / in-process: **${(gwRps / directRps).toFixed(2)}**.`);
  out.push('');

  // (2) flat cost: 10 vs 100,000 earlier movements of the same item
  const flat = await s.call('POST', '/1.6/warehouses', {
    code: 'FLAT',
    name: 'History',
    valuationMethod: 'FIFO',
  });
  const small = (await s.call('POST', '/1.6/items', { code: 'H10', name: 'Short history' })).id;
  const large = (await s.call('POST', '/1.6/items', { code: 'H100K', name: 'Long history' })).id;
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  // History as the ledger holds it: receipts of 10 pieces (layers since consumed) and issues of 10, then one open layer.
  const history = async (itemId: string, movements: number) => {
    const pairs = movements / 2;
    await db.query(
      `with g as (select i, gen_random_uuid() as layer, gen_random_uuid() as doc from generate_series(1, $4::int) i),
       l as (insert into warehouse.valuation_layer (id, company_id, warehouse_id, item_id, lot_key, date_operation, seq, line_no, quantity, unit_cost, amount, remaining_quantity, remaining_value)
             select layer, $1, $2, $3, '00000000-0000-0000-0000-000000000000', date '2020-01-01' + (i / 40), nextval('warehouse.ledger_seq'), 0, 10, 1 + (i % 7) / 10.0, 10 * (1 + (i % 7) / 10.0), 0, 0 from g returning id),
       m1 as (insert into warehouse.stock_movement (id, company_id, warehouse_id, item_id, lot_key, date_operation, seq, quantity, value, document_type, document_id)
             select gen_random_uuid(), $1, $2, $3, '00000000-0000-0000-0000-000000000000', date '2020-01-01' + (i / 40), nextval('warehouse.ledger_seq'), 10, 10 * (1 + (i % 7) / 10.0), 'ReceiptCard', doc from g returning id),
       m2 as (insert into warehouse.stock_movement (id, company_id, warehouse_id, item_id, lot_key, date_operation, seq, quantity, value, document_type, document_id)
             select gen_random_uuid(), $1, $2, $3, '00000000-0000-0000-0000-000000000000', date '2020-01-01' + (i / 40), nextval('warehouse.ledger_seq'), -10, -10 * (1 + (i % 7) / 10.0), 'IssueCard', doc from g returning id)
       insert into warehouse.layer_consumption (id, company_id, layer_id, document_id, date_operation, quantity, value)
             select gen_random_uuid(), $1, layer, doc, date '2020-01-01' + (i / 40), 10, 10 * (1 + (i % 7) / 10.0) from g`,
      [s.creds.companyId, flat.id, itemId, pairs],
    );
  };
  await history(small, 10);
  await history(large, 100_000);
  await db.query('analyze');
  await db.end();
  await s.call('POST', '/1.6/warehouses/receipt-cards', {
    ordnerCode: 'PR',
    warehouseId: flat.id,
    dateOperation: s.today,
    rows: [
      { itemId: small, quantity: 1_000_000, costPrice: 2 },
      { itemId: large, quantity: 1_000_000, costPrice: 2 },
    ],
  });
  const one = (itemId: string) =>
    resolveIssue(deps, s.directCtx(), {
      ordnerCode: 'VY',
      warehouseId: flat.id,
      partnerId: partner.id,
      dateOperation: s.today,
      rows: [{ itemId, quantity: '1' }],
    } as any);
  const [rs, rl] = await Promise.all([one(small), one(large)]);
  const times: Record<string, number[]> = { small: [], large: [] };
  for (let i = 0; i < 400; i++) {
    for (const [k, r] of [
      ['small', rs],
      ['large', rl],
    ] as const) {
      const t = performance.now();
      await storeResolvedIssue(deps, s.directCtx(), r);
      if (i >= 50) times[k].push(performance.now() - t); // after warm-up
    }
  }
  for (const k of Object.keys(times)) times[k].sort((a, b) => a - b);
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  out.push(
    '### One issue (1 row, FIFO, current date) vs length of the item history (in-process, sequential, 350 issues each)',
  );
  out.push('');
  out.push('| earlier movements of the item | mean ms | p50 ms | p99 ms |');
  out.push('|---|---|---|---|');
  out.push(
    `| 10 | ${mean(times.small).toFixed(2)} | ${pct(times.small, 50).toFixed(2)} | ${pct(times.small, 99).toFixed(2)} |`,
  );
  out.push(
    `| 100,000 | ${mean(times.large).toFixed(2)} | ${pct(times.large, 50).toFixed(2)} | ${pct(times.large, 99).toFixed(2)} |`,
  );
  out.push('');
  out.push(`Ratio 100,000 / 10 (p50): **${(pct(times.large, 50) / pct(times.small, 50)).toFixed(2)}**.`);
  console.log(out.join('\n'));
} finally {
  await s.stop();
}
