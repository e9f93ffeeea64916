/**
 * The VAT return (daňové priznanie k DPH, form in force from 2025 with the rates 23 %, 19 % and 5 %) from
 * the same classified entries as the control statement, so the two agree by construction and a test proves
 * it (issue #37). Rows as the form numbers them (docs/decisions.md "VAT filings" cites the layout):
 * r01/r02 domestic supplies at 19 %, r01a/r02a at 5 %, r03/r04 at 23 % (base/VAT); r05/r06, r05a/r06a,
 * r07/r08 intra-community acquisitions at 19 %, 5 %, 23 %; r09/r10, r09a/r10a, r09b/r10b other supplies whose
 * VAT the buyer owes (§69(2), (3), (12)); r13 every exempt supply (§28–§43, §46, §47), of which r14
 * intra-community supplies (§43) and r15 exports (§47); r17
 * VAT in total; r18, r18a, r19 VAT deducted at 19 %, 5 %, 23 %, of which r20, r20a, r21 under §51(1)(a)
 * (a domestic supplier's invoice: B.2 and B.3 of the control statement; issue #44); r24/r25 corrections of base and VAT of
 * supplies (§25: C.1); r28 correction of deducted VAT (§53: C.2, positive when a deduction shrinks); r32 own
 * tax liability, r33 excess deduction (§79), r35 to pay. Pure.
 */
import { type Dec, type DecLike, dec, sum } from '@bm/money';

/** An amount with exactly 2 decimals (EUR). */
const m2 = (v: DecLike): string => dec(v).toFixed(2);

import type { Entry } from './classify.js';
import type { ManualFigures } from './control-statement.js';

/**
 * The rows of DPHv25 (`dph2025.xsd`, vzor MF/007833/2025-731, periods from 2025-07) in the form's order
 * (the XML's `telo`; `splneniePodmienok` stands between r32 and r33). r11c–r11e/r12c–r12e and r23a–r23c
 * are VAT on imports whose payment is postponed (§84a), which these books do not record: always empty.
 */
export const RETURN_ROWS = [
  'r01',
  'r01a',
  'r02',
  'r02a',
  'r03',
  'r04',
  'r05',
  'r05a',
  'r06',
  'r06a',
  'r07',
  'r08',
  'r09',
  'r09a',
  'r09b',
  'r10',
  'r10a',
  'r10b',
  'r11',
  'r11a',
  'r11b',
  'r11c',
  'r11d',
  'r11e',
  'r12',
  'r12a',
  'r12b',
  'r12c',
  'r12d',
  'r12e',
  'r13',
  'r14',
  'r15',
  'r16',
  'r17',
  'r18',
  'r18a',
  'r19',
  'r20',
  'r20a',
  'r21',
  'r22',
  'r22a',
  'r23',
  'r23a',
  'r23b',
  'r23c',
  'r24',
  'r25',
  'r26',
  'r27',
  'r28',
  'r29',
  'r30',
  'r31',
  'r32',
  'r33',
  'r34',
  'r35',
  'r36',
  'r37',
] as const;

/** The rate's rows of a block: [base, VAT] at 19 %, 5 %, 23 %. */
const BLOCKS: Record<string, Record<string, [string, string]>> = {
  domestic: { '19': ['r01', 'r02'], '5': ['r01a', 'r02a'], '23': ['r03', 'r04'] },
  icAcquisition: { '19': ['r05', 'r06'], '5': ['r05a', 'r06a'], '23': ['r07', 'r08'] },
  selfAssessed: { '19': ['r09', 'r10'], '5': ['r09a', 'r10a'], '23': ['r09b', 'r10b'] },
};
/** The supplies r13 totals (exempt from VAT, §28–§43, §46, §47); r14 and r15 are its "of which" rows. */
const EXEMPT = new Set(['icSupply', 'export', 'exempt']);
const DEDUCTED: Record<string, string> = { '19': 'r18', '5': 'r18a', '23': 'r19' };
/** Of which deducted under §51(1)(a): VAT a domestic supplier charged on its invoice (B.2, B.3). */
const DEDUCTED_DOMESTIC: Record<string, string> = { '19': 'r20', '5': 'r20a', '23': 'r21' };
const VAT_ROWS = ['r02', 'r02a', 'r04', 'r06', 'r06a', 'r08', 'r10', 'r10a', 'r10b', 'r12', 'r12a', 'r12b'];

/**
 * The return's rows (EUR, 2 decimals; rows without an amount absent). Throws nothing: a rate outside the
 * form's three lands nowhere, which the agreement test would show.
 */
export function vatReturn(entries: Entry[], manual: ManualFigures): Record<string, string> {
  const acc = new Map<string, Dec>();
  const add = (row: string, v: string | Dec) => acc.set(row, (acc.get(row) ?? dec(0)).plus(dec(v)));
  for (const e of entries) {
    const rate = dec(e.rate).toFixed();
    if (e.section === 'none') {
      if (EXEMPT.has(e.kind)) add('r13', e.base);
      if (e.kind === 'icSupply') add('r14', e.base);
      if (e.kind === 'export') add('r15', e.base);
      continue;
    }
    if (e.section === 'C1') {
      add('r24', e.base);
      add('r25', e.vat);
      continue;
    }
    if (e.section === 'C2') {
      add('r28', dec(e.deducted).neg());
      continue;
    }
    if (e.section === 'A2') continue;
    const block =
      e.section === 'B1' ? BLOCKS[e.kind] : e.section === 'A1' || e.section === 'D2' ? BLOCKS.domestic : null;
    if (block?.[rate]) {
      add(block[rate][0], e.base);
      add(block[rate][1], e.vat);
    }
    if (e.section.startsWith('B') && DEDUCTED[rate]) add(DEDUCTED[rate], e.deducted);
    if ((e.section === 'B2' || e.section === 'B31' || e.section === 'B32') && DEDUCTED_DOMESTIC[rate])
      add(DEDUCTED_DOMESTIC[rate], e.deducted);
  }
  for (const m of [manual.d1, manual.d2]) {
    if (!m) continue;
    add('r03', m.base23);
    add('r04', m.vat23);
    add('r01', m.base19);
    add('r02', m.vat19);
    add('r01a', m.base5);
    add('r02a', m.vat5);
  }
  const v = (r: string) => acc.get(r) ?? dec(0);
  acc.set('r17', sum(VAT_ROWS.map(v)));
  const deducted = sum(['r18', 'r18a', 'r19'].map(v));
  const due = v('r17').minus(deducted).plus(v('r25')).plus(v('r28'));
  if (due.gte(0)) acc.set('r32', due);
  else acc.set('r33', due.neg());
  acc.set('r35', due.gte(0) ? due : dec(0));
  return Object.fromEntries(
    RETURN_ROWS.filter((r) => acc.has(r) && !acc.get(r)!.isZero()).map((r) => [r, m2(acc.get(r)!)]),
  );
}

/**
 * Issue #44: the rows of a supplementary return (dodatočné daňové priznanie, §16 of Act 563/2009): the
 * whole return as the books stand, plus r36 — the difference against the last known own tax liability or
 * excess deduction ((r32 − r33) now − (r32 − r33) last filed; positive: more tax) — and r37 — the difference
 * of the tax to pay ((r35 now − r35 last filed)). docs/decisions.md cites the row labels.
 */
export function supplementaryRows(now: Record<string, string>, filed: Record<string, string>) {
  const v = (rows: Record<string, string>, r: string) => dec(rows[r] ?? 0);
  const net = (rows: Record<string, string>) => v(rows, 'r32').minus(v(rows, 'r33'));
  const r36 = net(now).minus(net(filed));
  const r37 = v(now, 'r35').minus(v(filed, 'r35'));
  return {
    ...now,
    ...(r36.isZero() ? {} : { r36: m2(r36) }),
    ...(r37.isZero() ? {} : { r37: m2(r37) }),
  };
}
