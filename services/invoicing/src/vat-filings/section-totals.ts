/**
 * The control statement's section totals (issues #37, #44): what an accountant reconciles against the VAT
 * return — per section the base and the VAT (and the VAT deducted where the section has it), EUR with 2
 * decimals. D.1 and D.2 add their standard and reduced parts. Pure.
 */
import { type DecLike, dec, sum } from '@bm/money';
import type { ControlStatementBody, DSummary, StatementLine } from './control-statement.js';

/** One section's totals. */
export interface SectionTotal {
  base: string;
  vat: string;
  deducted?: string;
}

const m2 = (v: DecLike): string => dec(v).toFixed(2);

function lines(ls: StatementLine[], withDeducted: boolean): SectionTotal {
  return {
    base: m2(sum(ls.map((l) => l.base))),
    vat: m2(sum(ls.map((l) => l.vat ?? '0'))),
    ...(withDeducted ? { deducted: m2(sum(ls.map((l) => l.deducted ?? '0'))) } : {}),
  };
}

const summed = (s: DSummary | null): SectionTotal => ({
  base: m2(sum([s?.base ?? '0', s?.baseReduced ?? '0'])),
  vat: m2(sum([s?.vat ?? '0', s?.vatReduced ?? '0'])),
});

/** The totals of every section of `body`. */
export function sectionTotals(body: ControlStatementBody): Record<string, SectionTotal> {
  return {
    A1: lines(body.A1, false),
    A2: lines(body.A2, false),
    B1: lines(body.B1, true),
    B2: lines(body.B2, true),
    B31: lines(body.B31 ? [body.B31] : [], true),
    B32: lines(body.B32, true),
    C1: lines(body.C1, false),
    C2: lines(body.C2, true),
    D1: summed(body.D1),
    D2: summed(body.D2),
  };
}
