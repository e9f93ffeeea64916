/**
 * Issue #10 benchmark, in one run: the cost of a back-dated receipt that reposts (revalues) 10,000 later
 * issue cards of one FIFO item (it covers every one of them at a new cost), next to the same receipt dated today (no later movement: no repost work),
 * and next to a back-dated receipt of another item in the same warehouse that has only 10 later issues
 * (the repost's cost follows the later movements of the keys it touches, not the warehouse's history).
 * In-process (`createReceiptCard`, the service's own use case, against PostgreSQL and NATS), sequential.
 * Usage: pnpm bench repost   (REPOST_CARDS to change the 10,000; prints a markdown table)
 */
import pg from 'pg';
import { createReceiptCard } from '../services/warehouse/src/receipt-card/receipt-card.kind.js';
import { ormOptions } from '../services/warehouse/src/schema/orm-options.js';
import { pct, startBenchStack } from './support.js';

const CARDS = Number(process.env.REPOST_CARDS ?? 10_000);
/** Rounds per case: the cheap cases get more, so their median is not noise. */
const ROUNDS = { cheap: 9, repost: 3 };

const s = await startBenchStack({ ormOptions });
const out: string[] = [];
try {
  for (const year of [2019, 2020])
    await s.call('POST', '/1.6/periods', {
      code: String(year),
      dateFrom: `${year}-01-01`,
      dateTo: `${year}-12-31`,
    });
  const w = await s.call('POST', '/1.6/warehouses', {
    code: 'REPOST',
    name: 'Repost',
    valuationMethod: 'FIFO',
    accounted: true,
  });
  const partner = await s.call('POST', '/1.6/partners', { code: 'R1', name: 'Repost partner' });
  const ordners = (await s.call('GET', '/1.6/ordners?pageSize=500')).items;
  const vy = ordners.find((o: any) => o.code === 'VY').id;
  const pr = ordners.find((o: any) => o.code === 'PR').id;
  const big = (await s.call('POST', '/1.6/items', { code: 'R10K', name: 'Many later issues' })).id;
  const few = (await s.call('POST', '/1.6/items', { code: 'R10', name: 'Few later issues' })).id;
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  /**
   * The ledger as the service writes it: one receipt of 2·n pieces @ 1 on 2020-01-01 (its layer), then n
   * issue cards of one piece each on the following days, each with its row, movement, layer consumption
   * and accounting entry; the balance row last.
   */
  const ledger = async (itemId: string, n: number, prefix: string) => {
    await db.query(
      `with r as (
         insert into warehouse.receipt_card (id, company_id, ordner_id, warehouse_id, partner_id, record_number, date_operation, date_accounting, period_id, total_cost, created_at)
         values (gen_random_uuid(), $1, $5, $2, null, $6 || 'R', date '2020-01-01', date '2020-01-01', null, 2 * $4::int, now()) returning id),
       rr as (insert into warehouse.receipt_card_row (id, company_id, receipt_card_id, row_no, item_id, lot_number_id, quantity, cost_price, amount)
         select gen_random_uuid(), $1, r.id, 1, $3, null, 2 * $4::int, 1, 2 * $4::int from r),
       rm as (insert into warehouse.stock_movement (id, company_id, warehouse_id, item_id, lot_key, date_operation, seq, quantity, value, document_type, document_id)
         select gen_random_uuid(), $1, $2, $3, '00000000-0000-0000-0000-000000000000', date '2020-01-01', nextval('warehouse.ledger_seq'), 2 * $4::int, 2 * $4::int, 'ReceiptCard', r.id from r),
       l as (insert into warehouse.valuation_layer (id, company_id, warehouse_id, item_id, lot_key, date_operation, seq, line_no, quantity, unit_cost, amount, remaining_quantity, remaining_value)
         select gen_random_uuid(), $1, $2, $3, '00000000-0000-0000-0000-000000000000', date '2020-01-01', nextval('warehouse.ledger_seq'), 0, 2 * $4::int, 1, 2 * $4::int, $4::int, $4::int returning id),
       g as (select i, gen_random_uuid() as card, date '2020-01-02' + (i / 100) as d from generate_series(1, $4::int) i),
       c as (insert into warehouse.issue_card (id, company_id, ordner_id, warehouse_id, partner_id, record_number, tags, partner_address, date_created, date_accounting, date_operation, period_id, items_comment, report_id, total_cost, source_id, source_type, created_at)
         select card, $1, $7, $2, $8, $6 || i, '{}', null, d, d, d, null, null, null, 1, null, null, now() from g returning id),
       cr as (insert into warehouse.issue_card_row (id, company_id, issue_card_id, row_no, line_no, item_id, code, name, unit_id, lot_number_id, quantity, sell_price, cost_price, amount)
         select gen_random_uuid(), $1, card, 1, 0, $3, null, null, null, null, 1, 0, 1, 1 from g),
       cm as (insert into warehouse.stock_movement (id, company_id, warehouse_id, item_id, lot_key, date_operation, seq, quantity, value, document_type, document_id)
         select gen_random_uuid(), $1, $2, $3, '00000000-0000-0000-0000-000000000000', d, nextval('warehouse.ledger_seq'), -1, -1, 'IssueCard', card from g),
       ce as (insert into warehouse.accounting_entry (id, company_id, document_id, line_no, debit_account, credit_account, amount, description)
         select gen_random_uuid(), $1, card, 1, '504', '132', 1, 'Issue card ' || $6 || i from g)
       insert into warehouse.layer_consumption (id, company_id, layer_id, document_id, date_operation, quantity, value)
         select gen_random_uuid(), $1, l.id, card, d, 1, 1 from g, l`,
      [s.creds.companyId, w.id, itemId, n, pr, prefix, vy, partner.id],
    );
    await db.query(
      `insert into warehouse.stock_balance (id, company_id, warehouse_id, item_id, lot_key, quantity, value, last_date)
       values (gen_random_uuid(), $1, $2, $3, '00000000-0000-0000-0000-000000000000', $4::int, $4::int, date '2020-01-02' + ($4::int / 100))`,
      [s.creds.companyId, w.id, itemId, n],
    );
  };
  await ledger(big, CARDS, 'BIG');
  await ledger(few, 10, 'FEW');
  await db.query('analyze');

  const deps = { kit: s.kit, kickOutbox: () => {} };
  const receipt = (itemId: string, date: string, costPrice: string, quantity: number) => async () => {
    const t = performance.now();
    await createReceiptCard(deps, s.directCtx(), {
      ordnerId: pr,
      warehouseId: w.id,
      dateOperation: date,
      rows: [{ itemId, quantity: String(quantity), costPrice }],
    } as any);
    return performance.now() - t;
  };
  const rounds = async (n: number, make: (round: number) => () => Promise<number>) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(await make(i)());
    return times.sort((a, b) => a - b);
  };
  // Today first (no later movement), then back-dated: each round a day earlier and cheaper, with enough
  // pieces for every later card, so every round revalues every later card again.
  const today = await rounds(ROUNDS.cheap, () => receipt(big, s.today, '1', CARDS));
  const backFew = await rounds(ROUNDS.cheap, (i) => receipt(few, `2019-12-${31 - i}`, `0.${9 - i}`, 10));
  const backBig = await rounds(ROUNDS.repost, (i) => receipt(big, `2019-12-${31 - i}`, `0.${5 - i}`, CARDS));
  const [check] = (
    await db.query(
      `select count(*)::int as cards, sum(total_cost)::text as total from warehouse.issue_card where warehouse_id = $1 and record_number like 'BIG%'`,
      [w.id],
    )
  ).rows;
  await db.end();

  out.push(
    `### Repost: a back-dated receipt of 10 pieces before ${CARDS.toLocaleString('en')} later issue cards (FIFO, accounted)`,
  );
  out.push('');
  out.push('| receipt | later issue cards of its item revalued | median ms | min ms | max ms |');
  out.push('|---|---|---|---|---|');
  const row = (label: string, n: string, t: number[]) =>
    out.push(
      `| ${label} | ${n} | ${pct(t, 50).toFixed(0)} | ${t[0].toFixed(0)} | ${t[t.length - 1].toFixed(0)} |`,
    );
  row('dated today (baseline: no repost)', '0', today);
  row('back-dated, item with 10 later issues (same warehouse)', '10', backFew);
  row(
    `back-dated, item with ${CARDS.toLocaleString('en')} later issues`,
    CARDS.toLocaleString('en'),
    backBig,
  );
  out.push('');
  out.push(
    `Ratio back-dated (${CARDS.toLocaleString('en')}) / today: **${(pct(backBig, 50) / pct(today, 50)).toFixed(0)}×**; per revalued card: **${((pct(backBig, 50) - pct(today, 50)) / CARDS).toFixed(3)} ms**. After the last round the ${check.cards} cards total ${check.total} (each card's piece now comes from the last round's layer at 0.3).`,
  );
  console.log(out.join('\n'));
} finally {
  await s.stop();
}
