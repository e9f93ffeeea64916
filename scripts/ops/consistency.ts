/**
 * Consistency checks of the books (issue #36; DESIGN §6c), on the live database or a restored copy, read
 * only: one connection as a role that reads every schema. Each finding names the document.
 *
 * - `archive`: every archived e-invoice, issued (`invoicing.e_invoice_document`) and received
 *   (`invoicing.received_e_invoice`), still hashes to its stored SHA-256: the ten-year archive is intact.
 * - `numbering`: record numbers are gapless per ordner and counter year (DESIGN §5 "Record numbers"): every
 *   number 1 … the counter's last value, formatted with the ordner's format, belongs to a document (a
 *   number taken by hand is one of them, since the counter skips it).
 * - `stock`: each (warehouse, item, lot) balance equals the sum of its movements (quantity and value), and
 *   under FIFO with stock on hand the sum of its valuation layers' remainders (DESIGN §5 "Repost").
 * - `entries`: a sales invoice's entries add up to its total (0 once cancelled), a purchase invoice's to its
 *   local sum plus the input VAT posted, an issue card's of an accounted warehouse to its total cost.
 * - `outbox`: every event is published or pending; one pending for more than `stuckAfterMinutes` is named.
 */
import pg from 'pg';
import { formatRecordNumber } from '../../shared/service-kit/src/record-number.js';

export type CheckName = 'archive' | 'numbering' | 'stock' | 'entries' | 'outbox';

export interface Finding {
  check: CheckName;
  companyId: string;
  /** The document: its kind, id and number where it has one (`sales invoice 6f1c… OF202600007`). */
  document: string;
  message: string;
}

export interface CheckResult {
  at: string;
  findings: Finding[];
  /** What was looked at per check (documents, counters, balances, …). */
  checked: Record<CheckName, number>;
}

/** An ordner's counter and the record numbers its documents carry. */
export interface CounterOf {
  companyId: string;
  ordnerId: string;
  ordnerCode: string;
  numberFormat: string;
  /** The counter year (0: a year-less format's single counter). */
  year: number;
  lastValue: number;
}

/**
 * The numbers 1 … `c.lastValue` of counter `c` that no document carries, as `ordner.numberFormat` writes
 * them. Pure.
 */
export function numberingGaps(c: CounterOf, used: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  for (let k = 1; k <= c.lastValue; k++) {
    const n = formatRecordNumber(c.numberFormat, c.year, k);
    if (!used.has(n)) missing.push(n);
  }
  return missing;
}

type Row = Record<string, any>;

async function archive(db: pg.Client, out: Finding[]): Promise<number> {
  const { rows } = await db.query<Row>(`
    select case when d.direction = 'issued' then 'issued e-invoice of sales invoice'
                else 'received e-invoice of purchase invoice' end as kind,
           d.company_id, d.document_id as id, d.sha256,
           encode(sha256(coalesce(d.bytes, r.bytes)), 'hex') as actual
      from invoicing.e_invoice_document d
      -- Issue #43: a received document's bytes are kept once, in its inbox record.
      left join invoicing.received_e_invoice r on r.id = d.received_id
    union all
    select 'received e-invoice', company_id, id, sha256, encode(sha256(bytes), 'hex')
      from invoicing.received_e_invoice`);
  for (const r of rows)
    if (r.sha256 !== r.actual)
      out.push({
        check: 'archive',
        companyId: r.company_id,
        document: `${r.kind} ${r.id}`,
        message: `its bytes hash to ${r.actual}, not to the stored SHA-256 ${r.sha256}: the archived document was changed`,
      });
  return rows.length;
}

const NUMBERED = [
  { schema: 'warehouse', table: 'issue_card', kind: 'issue card', date: 'date_operation' },
  { schema: 'warehouse', table: 'receipt_card', kind: 'receipt card', date: 'date_operation' },
  { schema: 'invoicing', table: 'sales_invoice', kind: 'sales invoice', date: 'date_created' },
  { schema: 'invoicing', table: 'purchase_invoice', kind: 'purchase invoice', date: 'date_created' },
];

async function numbering(db: pg.Client, out: Finding[]): Promise<number> {
  let counters = 0;
  for (const schema of ['warehouse', 'invoicing']) {
    const { rows: cs } = await db.query<Row>(
      `select c.company_id, c.ordner_id, c.year, c.last_value, o.code, o.number_format, o.document_type
         from ${schema}.ordner_counter c join ${schema}.ordner o on o.id = c.ordner_id`,
    );
    const docs = NUMBERED.filter((d) => d.schema === schema);
    const { rows: numbers } = await db.query<Row>(
      docs.map((d) => `select ordner_id, record_number from ${d.schema}.${d.table}`).join(' union all '),
    );
    const byOrdner = new Map<string, Set<string>>();
    for (const n of numbers) {
      const set = byOrdner.get(n.ordner_id) ?? new Set<string>();
      set.add(n.record_number);
      byOrdner.set(n.ordner_id, set);
    }
    for (const c of cs) {
      counters++;
      const gaps = numberingGaps(
        {
          companyId: c.company_id,
          ordnerId: c.ordner_id,
          ordnerCode: c.code,
          numberFormat: c.number_format,
          year: Number(c.year),
          lastValue: Number(c.last_value),
        },
        byOrdner.get(c.ordner_id) ?? new Set(),
      );
      if (gaps.length)
        out.push({
          check: 'numbering',
          companyId: c.company_id,
          document: `ordner ${c.code} (${c.document_type}) ${c.year || 'all years'}`,
          message: `${gaps.length} number(s) up to the counter's ${c.last_value} belong to no document: ${gaps.slice(0, 10).join(', ')}${gaps.length > 10 ? ', …' : ''}`,
        });
    }
  }
  return counters;
}

async function stock(db: pg.Client, out: Finding[]): Promise<number> {
  const { rows } = await db.query<Row>(`
    with m as (select company_id, warehouse_id, item_id, lot_key, sum(quantity) q, sum(value) v
                 from warehouse.stock_movement group by 1, 2, 3, 4),
         l as (select company_id, warehouse_id, item_id, lot_key, sum(remaining_quantity) q, sum(remaining_value) v
                 from warehouse.valuation_layer group by 1, 2, 3, 4)
    select b.company_id, b.warehouse_id, w.code as warehouse, b.item_id, i.code as item, b.lot_key,
           b.quantity::text, b.value::text, w.valuation_method,
           coalesce(m.q, 0)::text as mq, coalesce(m.v, 0)::text as mv,
           coalesce(l.q, 0)::text as lq, coalesce(l.v, 0)::text as lv,
           (b.quantity <> coalesce(m.q, 0) or b.value <> coalesce(m.v, 0)) as ledger_off,
           (w.valuation_method = 'FIFO' and b.quantity >= 0
             and (b.quantity <> coalesce(l.q, 0) or b.value <> coalesce(l.v, 0))) as layers_off
      from warehouse.stock_balance b
      join warehouse.warehouse w on w.id = b.warehouse_id
      left join warehouse.item i on i.id = b.item_id
      left join m on m.company_id = b.company_id and m.warehouse_id = b.warehouse_id and m.item_id = b.item_id and m.lot_key = b.lot_key
      left join l on l.company_id = b.company_id and l.warehouse_id = b.warehouse_id and l.item_id = b.item_id and l.lot_key = b.lot_key`);
  for (const r of rows) {
    const where = `warehouse ${r.warehouse} item ${r.item ?? r.item_id}${r.lot_key !== '00000000-0000-0000-0000-000000000000' ? ` lot ${r.lot_key}` : ''}`;
    if (r.ledger_off)
      out.push({
        check: 'stock',
        companyId: r.company_id,
        document: where,
        message: `stock ${r.quantity} worth ${r.value}, but its movements add up to ${r.mq} worth ${r.mv}`,
      });
    if (r.layers_off)
      out.push({
        check: 'stock',
        companyId: r.company_id,
        document: where,
        message: `FIFO stock ${r.quantity} worth ${r.value}, but its valuation layers hold ${r.lq} worth ${r.lv}`,
      });
  }
  const { rows: orphans } = await db.query<Row>(`
    select m.company_id, m.warehouse_id, m.item_id, sum(m.quantity)::text q
      from warehouse.stock_movement m
      left join warehouse.stock_balance b on b.company_id = m.company_id and b.warehouse_id = m.warehouse_id
                                          and b.item_id = m.item_id and b.lot_key = m.lot_key
     where b.id is null group by 1, 2, 3`);
  for (const o of orphans)
    out.push({
      check: 'stock',
      companyId: o.company_id,
      document: `warehouse ${o.warehouse_id} item ${o.item_id}`,
      message: `movements of ${o.q} without a stock balance`,
    });
  return rows.length;
}

async function entries(db: pg.Client, out: Finding[]): Promise<number> {
  const { rows } = await db.query<Row>(`
    with e as (select document_id, sum(amount) s from invoicing.accounting_entry group by 1),
         we as (select document_id, sum(amount) s from warehouse.accounting_entry group by 1)
    select 'sales invoice' kind, i.company_id, i.id, i.record_number,
           (case when i.cancelled then 0 else i.sum_total end)::text expected, coalesce(e.s, 0)::text posted
      from invoicing.sales_invoice i
      join invoicing.company_profile p on p.company_id = i.company_id and p.currency = i.currency
      left join e on e.document_id = i.id
     where coalesce(e.s, 0) <> (case when i.cancelled then 0 else i.sum_total end)
    union all
    select 'purchase invoice', i.company_id, i.id, i.record_number,
           (i.local_sum + case when i.currency1 = p.currency then i.sum_vat else 0 end)::text, coalesce(e.s, 0)::text
      from invoicing.purchase_invoice i
      join invoicing.company_profile p on p.company_id = i.company_id
      left join e on e.document_id = i.id
     where coalesce(e.s, 0) <> i.local_sum + case when i.currency1 = p.currency then i.sum_vat else 0 end
    union all
    select 'issue card', c.company_id, c.id, c.record_number,
           (case when w.accounted then c.total_cost else 0 end)::text, coalesce(we.s, 0)::text
      from warehouse.issue_card c
      join warehouse.warehouse w on w.id = c.warehouse_id
      left join we on we.document_id = c.id
     where coalesce(we.s, 0) <> case when w.accounted then c.total_cost else 0 end`);
  for (const r of rows)
    out.push({
      check: 'entries',
      companyId: r.company_id,
      document: `${r.kind} ${r.id} ${r.record_number}`,
      message: `its accounting entries add up to ${r.posted}, not to ${r.expected}`,
    });
  const { rows: n } = await db.query<Row>(`
    select (select count(*) from invoicing.sales_invoice) + (select count(*) from invoicing.purchase_invoice)
         + (select count(*) from warehouse.issue_card) as n`);
  return Number(n[0].n);
}

async function outbox(db: pg.Client, out: Finding[], stuckAfterMinutes: number): Promise<number> {
  let total = 0;
  for (const schema of ['warehouse', 'invoicing']) {
    const { rows } = await db.query<Row>(
      `select count(*)::int n,
              count(*) filter (where published_at is null)::int pending
         from ${schema}.outbox`,
    );
    total += rows[0].n;
    const { rows: stuck } = await db.query<Row>(
      `select id, company_id, subject, created_at, attempts from ${schema}.outbox
        where published_at is null and created_at < now() - make_interval(mins => $1) order by created_at limit 50`,
      [stuckAfterMinutes],
    );
    for (const s of stuck)
      out.push({
        check: 'outbox',
        companyId: s.company_id,
        document: `${schema} event ${s.id} ${s.subject}`,
        message: `pending since ${new Date(s.created_at).toISOString()} (${s.attempts} failed attempts): not published`,
      });
  }
  return total;
}

/** Runs every check on `databaseUrl` (read only). */
export async function runChecks(
  databaseUrl: string,
  opts: { stuckAfterMinutes?: number } = {},
): Promise<CheckResult> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('begin transaction isolation level repeatable read read only');
    const findings: Finding[] = [];
    const checked = {
      archive: await archive(db, findings),
      numbering: await numbering(db, findings),
      stock: await stock(db, findings),
      entries: await entries(db, findings),
      outbox: await outbox(db, findings, opts.stuckAfterMinutes ?? 10),
    };
    await db.query('commit');
    return { at: new Date().toISOString(), findings, checked };
  } finally {
    await db.end();
  }
}
