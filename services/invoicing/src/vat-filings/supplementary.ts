/**
 * What a filing of the control statement carries (issues #37, #44; `kv_dph_2025.xsd`, KodOpravyType, and
 * the Financial Administration's FAQ on D.1/D.2). A regular (R) or corrective (O) filing is the whole
 * statement without correction codes. A supplementary one (D) carries only the change against everything
 * filed before, each line with its correction code `KOpr`: a line that was not filed, as it is now, with 2;
 * a line filed with other figures, the filed line as it was with 1 and the new one with 2; a filed line
 * that no longer exists, as it was, with 1. The summed parts (B.3.1, D.1, D.2) likewise: at most two rows,
 * the filed one with 1 and the new one with 2. Pure.
 */
import type { ControlStatementBody, DSummary, StatementLine } from './control-statement.js';

/** `KOpr`: 1 removes a line filed before, 2 adds one (only in a supplementary statement). */
export type CorrectionCode = '1' | '2';

/** The sections of one filing: the summed parts as lists (a supplementary filing may have two rows). */
export type FilingBody = Omit<ControlStatementBody, 'B31' | 'D1' | 'D2'> & {
  B31: (StatementLine & { correction?: CorrectionCode })[];
  D1: (DSummary & { correction?: CorrectionCode })[];
  D2: (DSummary & { correction?: CorrectionCode })[];
};

const LISTED = ['A1', 'A2', 'B1', 'B2', 'B32', 'C1', 'C2'] as const;
const AMOUNTS = ['base', 'vat', 'deducted', 'quantity'] as const;

const keyOf = (l: StatementLine) =>
  [l.partnerVatNumber, l.documentNumber, l.originalNumber, l.rate, l.commodityCode, l.goodsKind, l.unit].join(
    '|',
  );
const same = (a: StatementLine, b: StatementLine) =>
  AMOUNTS.every((k) => (a[k] ?? null) === (b[k] ?? null)) && a.taxPoint === b.taxPoint;
const coded = <T extends object>(l: T, correction: CorrectionCode) => ({ ...l, correction });

function listDiff(now: StatementLine[], filed: StatementLine[]): StatementLine[] {
  const before = new Map(filed.map((l) => [keyOf(l), l]));
  const after = new Map(now.map((l) => [keyOf(l), l]));
  const out: StatementLine[] = [];
  for (const l of now) {
    const f = before.get(keyOf(l));
    if (!f) out.push(coded(l, '2'));
    else if (!same(l, f)) out.push(coded(f, '1'), coded(l, '2'));
  }
  for (const f of filed) if (!after.has(keyOf(f))) out.push(coded(f, '1'));
  return out;
}

/** Whether two summed rows hold the same figures (their document ids aside). */
function sameSum(a: object | null, b: object | null): boolean {
  const strip = (o: object | null) =>
    JSON.stringify(
      Object.entries(o ?? {})
        .filter(([k]) => k !== 'documentIds')
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return strip(a) === strip(b);
}

function sumDiff<T extends object>(now: T | null, filed: T | null): (T & { correction: CorrectionCode })[] {
  if (sameSum(now, filed)) return [];
  return [...(filed ? [coded(filed, '1')] : []), ...(now ? [coded(now, '2')] : [])];
}

/** The whole statement as one filing (R or O): the summed parts as lists, no correction codes. */
export function fullFiling(now: ControlStatementBody): FilingBody {
  return {
    ...now,
    B31: now.B31 ? [now.B31] : [],
    D1: now.D1 ? [now.D1] : [],
    D2: now.D2 ? [now.D2] : [],
  };
}

/** The supplementary statement (D): `now` against `filed` (the statement as every earlier filing left it). */
export function supplementary(now: ControlStatementBody, filed: ControlStatementBody): FilingBody {
  const out = {} as FilingBody;
  for (const s of LISTED) out[s] = listDiff(now[s], filed[s] ?? []);
  out.B31 = sumDiff(now.B31, filed.B31);
  out.D1 = sumDiff(now.D1, filed.D1);
  out.D2 = sumDiff(now.D2, filed.D2);
  return out;
}

/** Whether the statement differs from what was filed (the period is then "changed"). */
export const differs = (now: ControlStatementBody, filed: ControlStatementBody): boolean => {
  const d = supplementary(now, filed);
  return [...LISTED, 'B31', 'D1', 'D2'].some((s) => d[s as keyof FilingBody].length > 0);
};
