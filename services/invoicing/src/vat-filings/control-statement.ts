/**
 * The control statement (kontrolný výkaz DPH, form KVDPH_2025; §78a of Act 222/2004) built from classified
 * entries (classify.ts): the lines of A.1 … D.2 as the instructions define them, in EUR with 2 decimals, rates
 * as whole percent. Pure. Field names in English; the XML attribute each one becomes is in its comment.
 */
import { type DecLike, dec, sum } from '@bm/money';

/** An amount with exactly 2 decimals (EUR). */
const m2 = (v: DecLike): string => dec(v).toFixed(2);

import type { Entry } from './classify.js';

/**
 * The goods attributes §69(12) letters need in A.2 and C.1 (the instructions to KVDPH_2025): grain and
 * technical crops (f) and metals (g) the commodity code TK (first four digits of the customs tariff); mobile
 * phones (h) and integrated circuits (i) the kind TD (`MT`, `IO`); these four the quantity Mn and unit MJ.
 * The other letters (construction work, scrap, …) carry the base alone.
 */
export const REVERSE_CHARGE_GOODS: Record<string, { tk: boolean; td: string | null }> = {
  f: { tk: true, td: null },
  g: { tk: true, td: null },
  h: { tk: false, td: 'MT' },
  i: { tk: false, td: 'IO' },
};

/** A line of A.1 … C.2 (attributes: Odb/Dod, F/FO, FP, Den, Z/ZR, D/DR, S, O/OR, TK, TD, Mn, MJ). */
export interface StatementLine {
  /** Odb (A.1, A.2, C.1) or Dod (B.1, B.2, B.3.2, C.2): the partner's IČ DPH. */
  partnerVatNumber?: string | null;
  /** F (FO in C.1/C.2): the document's number, whitespace removed. */
  documentNumber?: string;
  /** FP (C.1/C.2): the corrected invoice's number. */
  originalNumber?: string | null;
  /** Den: the tax point. */
  taxPoint?: string;
  /** Z (ZR in C): base. */
  base: string;
  /** D (DR in C): VAT. */
  vat?: string;
  /** S: rate in whole percent. */
  rate?: string;
  /** O (OR in C.2): VAT deducted. */
  deducted?: string;
  commodityCode?: string | null;
  goodsKind?: string | null;
  quantity?: string | null;
  unit?: string | null;
  documentIds: string[];
}

/** D.1 (cash-register totals) and D.2 (supplies without an invoice) as the user gives them, per rate. */
export interface ManualFigures {
  d1?: {
    turnover: string;
    base23: string;
    vat23: string;
    base19: string;
    vat19: string;
    base5: string;
    vat5: string;
  };
  d2?: { base23: string; vat23: string; base19: string; vat19: string; base5: string; vat5: string };
}

/** D.1/D.2 as the form has them: Z/D at the standard rate, ZZn/DZn at the reduced ones together. */
export interface DSummary {
  turnover?: string;
  base: string;
  vat: string;
  baseReduced: string;
  vatReduced: string;
}

export interface ControlStatementBody {
  A1: StatementLine[];
  A2: StatementLine[];
  B1: StatementLine[];
  B2: StatementLine[];
  B31: StatementLine | null;
  B32: StatementLine[];
  C1: StatementLine[];
  C2: StatementLine[];
  D1: DSummary | null;
  D2: DSummary | null;
}

const whole = (rate: string) => dec(rate).toFixed(0);
const f2 = (v: string) => m2(dec(v));
/** The document number as the form takes it: `\S{1,32}`. */
export const formNumber = (n: string) => n.replace(/\s+/g, '').slice(0, 32);

/** Groups entries by `key`, keeping first-seen order, summing base, VAT and deduction. */
function grouped(entries: Entry[], key: (e: Entry) => string): Entry[][] {
  const m = new Map<string, Entry[]>();
  for (const e of entries) m.set(key(e), [...(m.get(key(e)) ?? []), e]);
  return [...m.values()];
}
const total = (es: Entry[], f: 'base' | 'vat' | 'deducted') => m2(sum(es.map((e) => e[f])));
const ids = (es: Entry[]) => [...new Set(es.map((e) => e.documentId))];

function perRate(entries: Entry[], partnerless = false): StatementLine[] {
  return grouped(entries, (e) => `${e.documentId}|${dec(e.rate).toFixed()}`).map((es) => ({
    ...(partnerless ? {} : { partnerVatNumber: es[0].partner }),
    documentNumber: formNumber(es[0].number),
    ...(es[0].corrected !== null ? { originalNumber: formNumber(es[0].corrected ?? '') } : {}),
    taxPoint: es[0].taxPoint,
    base: total(es, 'base'),
    vat: total(es, 'vat'),
    rate: whole(es[0].rate),
    deducted: total(es, 'deducted'),
    documentIds: ids(es),
  }));
}

function goodsLines(entries: Entry[]): StatementLine[] {
  return grouped(
    entries,
    (e) => `${e.documentId}|${e.goods?.letter}|${e.goods?.commodityCode}|${e.goods?.unit}`,
  ).map((es) => {
    const g = es[0].goods!;
    const rule = g.letter ? REVERSE_CHARGE_GOODS[g.letter] : undefined;
    return {
      partnerVatNumber: es[0].partner,
      documentNumber: formNumber(es[0].number),
      ...(es[0].corrected !== null ? { originalNumber: formNumber(es[0].corrected ?? '') } : {}),
      taxPoint: es[0].taxPoint,
      base: total(es, 'base'),
      ...(es[0].section === 'C1' ? { vat: '0.00' } : {}),
      commodityCode: rule?.tk ? (g.commodityCode?.slice(0, 4) ?? null) : null,
      goodsKind: rule?.td ?? null,
      quantity: rule ? m2(sum(es.map((e) => e.goods!.quantity))) : null,
      unit: rule ? g.unit : null,
      documentIds: ids(es),
    };
  });
}

function dSummary(entries: Entry[], manual: ManualFigures['d2'], turnover?: string): DSummary | null {
  const at = (r: string, f: 'base' | 'vat') => entries.filter((e) => dec(e.rate).eq(r)).map((e) => e[f]);
  const m = manual ?? { base23: '0', vat23: '0', base19: '0', vat19: '0', base5: '0', vat5: '0' };
  if (!entries.length && !manual && turnover === undefined) return null;
  return {
    ...(turnover !== undefined ? { turnover: f2(turnover) } : {}),
    base: m2(sum([...at('23', 'base'), m.base23])),
    vat: m2(sum([...at('23', 'vat'), m.vat23])),
    baseReduced: m2(sum([...at('19', 'base'), ...at('5', 'base'), m.base19, m.base5])),
    vatReduced: m2(sum([...at('19', 'vat'), ...at('5', 'vat'), m.vat19, m.vat5])),
  };
}

/** The statement's sections from the period's entries and the user's D.1/D.2 figures. */
export function controlStatement(entries: Entry[], manual: ManualFigures): ControlStatementBody {
  const of = (s: Entry['section']) => entries.filter((e) => e.section === s);
  const drop = (ls: StatementLine[], ...keys: (keyof StatementLine)[]) =>
    ls.map(
      (l) =>
        Object.fromEntries(Object.entries(l).filter(([k]) => !keys.includes(k as never))) as StatementLine,
    );
  const b31 = of('B31');
  const c1 = of('C1');
  return {
    A1: drop(perRate(of('A1')), 'deducted', 'originalNumber'),
    A2: goodsLines(of('A2')),
    B1: perRate(of('B1')),
    B2: perRate(of('B2')),
    B31: b31.length
      ? {
          base: total(b31, 'base'),
          vat: total(b31, 'vat'),
          deducted: total(b31, 'deducted'),
          documentIds: ids(b31),
        }
      : null,
    B32: grouped(of('B32'), (e) => e.partner ?? '').map((es) => ({
      partnerVatNumber: es[0].partner,
      base: total(es, 'base'),
      vat: total(es, 'vat'),
      deducted: total(es, 'deducted'),
      documentIds: ids(es),
    })),
    C1: [
      ...drop(perRate(c1.filter((e) => !e.goods)), 'deducted', 'taxPoint'),
      ...drop(goodsLines(c1.filter((e) => e.goods)), 'taxPoint'),
    ],
    C2: drop(perRate(of('C2')), 'taxPoint'),
    D1: manual.d1 ? dSummary([], manual.d1, manual.d1.turnover) : null,
    D2: dSummary(of('D2'), manual.d2),
  };
}
