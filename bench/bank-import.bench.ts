/**
 * Issue #45 benchmarks, in one run, side by side:
 *  (1) a camt.053 statement of 10,000 entries imported and paired against 20,000 open sales invoices
 *      (70 % exact by VS, 15 % partial, 10 % without a symbol from a known account with many invoices, so
 *      unpaired with candidates, 5 % fees), through the gateway, as one request; beside it the same rule's
 *      100-entry statement, per entry, so the cost per entry is compared in the same run;
 *  (2) the cost of one import flat in the number of stored statements: a 100-entry statement with 100
 *      statements stored, and again with 10,000 stored (the filler rows inserted by SQL), the ratio.
 * Usage: pnpm bench bank-import   (INVOICES, ENTRIES)
 */
import { dec } from '@bm/money';
import { ormOptions } from '../services/invoicing/src/schema/orm-options.js';
import { camt053, type TestEntry } from '../test/support/camt.js';
import { startBenchStack } from './support.js';

const INVOICES = Number(process.env.INVOICES ?? 20_000);
const ENTRIES = Number(process.env.ENTRIES ?? 10_000);
const IBAN = 'SK3112000000198742637541';
const KNOWN = 'SK8975000000000012345671';
const s = await startBenchStack({ ormOptions });
const out: string[] = [];
const sql = (q: string, params: unknown[] = []) =>
  (s.kit.orm as any).em.fork().getConnection().execute(q, params);
try {
  await s.call('POST', '/1.6/bank-accounts', { code: 'TB', name: 'Tatra banka', iban: IBAN });
  const wh = (await s.call('GET', '/1.6/warehouses')).items[0];
  const partner = await s.call('POST', '/1.6/partners', {
    code: 'B1',
    name: 'Odberateľ',
    country: 'SK',
    iban: KNOWN,
  });
  const template = await s.call('POST', '/1.6/sales/invoices', {
    ordnerCode: 'OF',
    warehouseId: wh.id,
    partnerId: partner.id,
    dateCreated: s.today,
    rows: [{ name: 'Služba', quantity: 1, priceBrutto: '100.00', vatCode: 'SK23' }],
  });
  // 20,000 open invoices: the template copied with its own id, number and VS 5000000001…
  await sql(
    `insert into "invoicing"."sales_invoice"
     select (jsonb_populate_record(null::"invoicing"."sales_invoice", to_jsonb(t) || jsonb_build_object(
              'id', gen_random_uuid(), 'record_number', 'BX' || lpad(g::text, 8, '0'), 'symbol_variable', (5000000000 + g)::text))).*
       from "invoicing"."sales_invoice" t, generate_series(1, ?) g where t.id = ?`,
    [INVOICES, template.id],
  );
  await sql('analyze "invoicing"."sales_invoice"');

  let ref = 0;
  /** `n` entries by the mix above, paying invoices from `first` on (each once). */
  const entries = (n: number, first: number): TestEntry[] =>
    Array.from({ length: n }, (_, i) => {
      const k = i % 20;
      const vs = 5000000000 + first + i;
      ref++;
      const base = { cd: 'CRDT' as const, date: s.today, ref: `B${ref}` };
      if (k < 14) return { ...base, amount: '100.00', e2e: `/VS${vs}/SS/KS0308` };
      if (k < 17) return { ...base, amount: '40.00', ustrd: `VS${vs}` };
      if (k < 19) return { ...base, amount: '100.00', iban: KNOWN, name: 'Odberateľ' };
      return {
        ...base,
        cd: 'DBIT' as const,
        amount: '0.50',
        code: ['ACMT', 'MDOP', 'CHRG'] as [string, string, string],
      };
    });
  let nth = 0;
  const statement = (list: TestEntry[]) =>
    camt053({
      version: '02',
      id: `ST${++nth}`,
      seq: String(nth),
      iban: IBAN,
      from: s.today,
      to: s.today,
      opening: '0.00',
      closing: '0.00',
      entries: list,
    });
  const importOne = async (xml: string) => {
    const t0 = performance.now();
    const r = await fetch(`${s.baseUrl}/1.6/bank/statements`, {
      method: 'POST',
      headers: { ...s.headers, 'Content-Type': 'application/xml' },
      body: xml,
    });
    const ms = performance.now() - t0;
    if (r.status !== 201) throw new Error(`import: ${r.status} ${await r.text()}`);
    const st = (await r.json()) as any;
    return { ms, st };
  };

  // (1) 100 entries, then 10,000 entries, against the open invoices.
  const small = await importOne(statement(entries(100, 1)));
  const bigXml = statement(entries(ENTRIES, 101));
  const big = await importOne(bigXml);
  const count = (st: any, status: string) => st.entries.filter((e: any) => e.status === status).length;
  out.push(
    `(1) ${ENTRIES} entries (${(bigXml.length / 1e6).toFixed(1)} MB) against ${INVOICES + 1} open invoices: ${(big.ms / 1000).toFixed(2)} s ` +
      `(${count(big.st, 'paired')} paired, ${count(big.st, 'unpaired')} unpaired, ${count(big.st, 'posted')} posted); ` +
      `${(big.ms / ENTRIES).toFixed(3)} ms an entry against ${(small.ms / 100).toFixed(3)} ms an entry of a 100-entry statement in the same run`,
  );

  // (2) import cost flat in the number of stored statements: 100 stored, then 10,000.
  const filler = async (upTo: number) => {
    const have = Number((await sql(`select count(*)::int as n from "invoicing"."bank_statement"`))[0].n);
    const n = upTo - have;
    if (n <= 0) return;
    await sql(
      `with a as (select id, company_id from "invoicing"."bank_account" limit 1),
            st as (insert into "invoicing"."bank_statement" (id, company_id, bank_account_id, number, statement_id, message_id, format,
                     period_from, period_to, currency, opening_balance, closing_balance, warnings, entry_count, new_entries, sha256, bytes, created_at)
                   select gen_random_uuid(), a.company_id, a.id, 'F' || g, 'F' || g, 'F' || g, 'camt.053.001.02',
                          date '2020-01-01' + (g % 1500), date '2020-01-01' + (g % 1500), 'EUR', 0, 0, '[]', 10, 10,
                          md5(g::text || random()::text) || md5(g::text), '\\x00'::bytea, now()
                     from a, generate_series(1, ?) g returning id, company_id, bank_account_id, period_to)
       insert into "invoicing"."bank_entry" (id, company_id, bank_account_id, statement_id, entry_key, direction, amount, currency,
              booking_date, reversal, status, candidates, created_at, account_servicer_ref)
       select gen_random_uuid(), st.company_id, st.bank_account_id, st.id, 'E:ref:F' || st.id || '-' || k, 'credit', 10, 'EUR',
              st.period_to, false, 'ignored', '[]', now(), 'F' || left(st.id::text, 8) || k
         from st, generate_series(1, 10) k`,
      [n],
    );
    await sql('analyze "invoicing"."bank_statement"; analyze "invoicing"."bank_entry"');
  };
  const timed = async (runs: number) => {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) ms.push((await importOne(statement(entries(100, 20_000 + ref)))).ms);
    return ms.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
  };
  await filler(100);
  const at100 = await timed(7);
  await filler(10_000);
  const at10k = await timed(7);
  out.push(
    `(2) a 100-entry import, median of 7: ${at100.toFixed(1)} ms with 100 statements stored, ${at10k.toFixed(1)} ms with 10,000 (${(at10k / at100).toFixed(2)}×)`,
  );
  const paid = (
    await sql(`select count(*)::int as n from "invoicing"."payment" where entry_id is not null`)
  )[0].n;
  out.push(`pairings stored: ${paid}; open invoices left unpaid: ${dec(INVOICES).minus(paid).toFixed(0)}`);
} finally {
  console.log(out.join('\n'));
  await s.stop();
}
