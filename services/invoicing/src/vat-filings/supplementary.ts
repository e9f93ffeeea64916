/**
 * What a supplementary control statement (kind D) carries (issue #37; instructions to KVDPH_2025): only the
 * change against everything filed before: a line that was not filed, as it is now; a line filed with other
 * figures, the filed one with opposite signs and the new one; a filed line that no longer exists, with
 * opposite signs; the summed parts (B.3.1, D.1, D.2) as the difference. Pure.
 */
import { type DecLike, dec } from '@bm/money';

/** An amount with exactly 2 decimals (EUR). */
const m2 = (v: DecLike): string => dec(v).toFixed(2);

import type { ControlStatementBody, DSummary, StatementLine } from './control-statement.js';

const LISTED = ['A1', 'A2', 'B1', 'B2', 'B32', 'C1', 'C2'] as const;
const AMOUNTS = ['base', 'vat', 'deducted', 'quantity'] as const;

const keyOf = (l: StatementLine) =>
  [l.partnerVatNumber, l.documentNumber, l.originalNumber, l.rate, l.commodityCode, l.goodsKind, l.unit].join(
    '|',
  );
const same = (a: StatementLine, b: StatementLine) =>
  AMOUNTS.every((k) => (a[k] ?? null) === (b[k] ?? null)) && a.taxPoint === b.taxPoint;
const negated = (l: StatementLine): StatementLine => {
  const out = { ...l };
  for (const k of AMOUNTS) if (out[k] != null) out[k] = m2(dec(out[k]!).neg());
  return out;
};

function listDiff(now: StatementLine[], filed: StatementLine[]): StatementLine[] {
  const before = new Map(filed.map((l) => [keyOf(l), l]));
  const after = new Map(now.map((l) => [keyOf(l), l]));
  const out: StatementLine[] = [];
  for (const l of now) {
    const f = before.get(keyOf(l));
    if (!f) out.push(l);
    else if (!same(l, f)) out.push(negated(f), l);
  }
  for (const f of filed) if (!after.has(keyOf(f))) out.push(negated(f));
  return out;
}

function sumDiff<T extends DSummary | StatementLine>(now: T | null, filed: T | null): T | null {
  if (!now && !filed) return null;
  const keys = new Set(
    [...Object.keys(now ?? {}), ...Object.keys(filed ?? {})].filter((k) => k !== 'documentIds'),
  );
  const out: Record<string, unknown> = now && 'documentIds' in now ? { documentIds: now.documentIds } : {};
  let changed = false;
  for (const k of keys) {
    const d = dec((now as any)?.[k] ?? 0).minus(dec((filed as any)?.[k] ?? 0));
    if (!d.isZero()) changed = true;
    out[k] = m2(d);
  }
  return changed ? (out as T) : null;
}

/** The supplementary statement: `now` against `filed` (the statement as every earlier filing left it). */
export function supplementary(now: ControlStatementBody, filed: ControlStatementBody): ControlStatementBody {
  const out = {} as ControlStatementBody;
  for (const s of LISTED) out[s] = listDiff(now[s], filed[s]);
  out.B31 = sumDiff(now.B31, filed.B31);
  out.D1 = sumDiff(now.D1, filed.D1);
  out.D2 = sumDiff(now.D2, filed.D2);
  return out;
}

/** Whether the statement differs from what was filed (the period is then "changed"). */
export const differs = (now: ControlStatementBody, filed: ControlStatementBody): boolean => {
  const d = supplementary(now, filed);
  return LISTED.some((s) => d[s].length > 0) || !!d.B31 || !!d.D1 || !!d.D2;
};
