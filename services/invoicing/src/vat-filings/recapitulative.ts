/**
 * The recapitulative statement (súhrnný výkaz, §80 of Act 222/2004; form SVDPHv20, `svdph20.xsd`; issue
 * #44), from the same sales as the VAT return: per customer IČ DPH and kind of supply, the values of the
 * period (EUR, 2 decimals). Pure.
 *
 * - Kinds and their code (`kod`): an intra-community supply of goods exempt under §43(1) — no code; the
 *   supply of goods by the first buyer (the middle party) of a triangular trade (§45) — `1`; a service
 *   whose place of supply is the customer's member state under §15(1) — `2`. (These are the codes the
 *   public SVDPHv20 implementations write; docs/decisions.md says where the instructions could not be read.)
 * - A credit note corrects the period it falls in, as the return does: its negative value is summed into
 *   that period's line of the same customer and kind (a line may be negative; a line summing to zero is
 *   left out).
 * - Filings (§80(1), (6)): `R` the whole statement; afterwards `O` (opravný) carries the lines filed with
 *   figures that no longer hold, with the right figures (0 for a line no longer in the books), and `D`
 *   (dodatočný) the lines never filed. What was filed is the filings' sum, each new filing measured
 *   against it.
 */
import { type DecLike, dec, sum } from '@bm/money';
import type { Problem } from './classify.js';

/** The kind of a supply in the recapitulative statement. */
export type SupplyKind = 'goods' | 'triangular' | 'services';

/** The SVDPHv20 `kod` of each kind. */
export const SUPPLY_CODE: Record<SupplyKind, string> = { goods: '', triangular: '1', services: '2' };

/** One invoice's supplies of one kind to a customer in another member state (EUR). */
export interface IcSupply {
  documentId: string;
  number: string;
  /** The customer's IČ DPH with its country prefix (`DE123456789`, `EL…` for Greece). */
  buyerVatNumber: string | null;
  kind: SupplyKind;
  base: string;
}

/** A line of the statement: one customer, one kind. */
export interface RecapLine {
  /** `kodStatu`: the IČ DPH's prefix. */
  country: string;
  /** `idCislo`: the IČ DPH without its prefix. */
  vatNumber: string;
  kind: SupplyKind;
  /** `kod`: none, `1` or `2`. */
  code: string;
  /** `hodnota`: EUR, 2 decimals. */
  value: string;
  documentIds: string[];
}

const m2 = (v: DecLike): string => dec(v).toFixed(2);
const keyOf = (l: Pick<RecapLine, 'country' | 'vatNumber' | 'kind'>) =>
  `${l.country}|${l.vatNumber}|${l.kind}`;
const ORDER: SupplyKind[] = ['goods', 'triangular', 'services'];

/** The statement's lines from the period's supplies; a supply without the customer's IČ DPH is a problem. */
export function recapLines(supplies: IcSupply[], problems: Problem[]): RecapLine[] {
  const lines = new Map<string, RecapLine>();
  for (const s of supplies) {
    const vat = (s.buyerVatNumber ?? '').replace(/[\s.-]/g, '').toUpperCase();
    const m = /^([A-Z]{2})([0-9A-Z+*]{2,12})$/.exec(vat);
    if (!m) {
      problems.push({
        documentId: s.documentId,
        number: s.number,
        field: 'partnerNumber3',
        message:
          'a supply in the recapitulative statement needs the customer’s IČ DPH of another member state',
      });
      continue;
    }
    const line = { country: m[1], vatNumber: m[2], kind: s.kind };
    const before = lines.get(keyOf(line));
    lines.set(keyOf(line), {
      ...line,
      code: SUPPLY_CODE[s.kind],
      value: m2(dec(before?.value ?? 0).plus(s.base)),
      documentIds: [...new Set([...(before?.documentIds ?? []), s.documentId])],
    });
  }
  return [...lines.values()]
    .filter((l) => !dec(l.value).isZero())
    .sort(
      (a, b) =>
        a.country.localeCompare(b.country) ||
        a.vatNumber.localeCompare(b.vatNumber) ||
        ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind),
    );
}

/** The values per kind and in all (EUR). */
export function recapTotals(lines: RecapLine[]): Record<SupplyKind | 'total', string> {
  const of = (k: SupplyKind) => m2(sum(lines.filter((l) => l.kind === k).map((l) => l.value)));
  return {
    goods: of('goods'),
    triangular: of('triangular'),
    services: of('services'),
    total: m2(sum(lines.map((l) => l.value))),
  };
}

/**
 * What changed against the lines filed so far: `corrections` (filed with other figures, or no longer in
 * the books: value 0.00) for an `O`, `additions` (never filed) for a `D`.
 */
export function recapChanges(now: RecapLine[], filed: RecapLine[]) {
  const was = new Map(filed.map((l) => [keyOf(l), l]));
  const is = new Map(now.map((l) => [keyOf(l), l]));
  const corrections: RecapLine[] = [];
  const additions: RecapLine[] = [];
  for (const l of now) {
    const f = was.get(keyOf(l));
    if (!f) additions.push(l);
    else if (!dec(f.value).eq(l.value)) corrections.push(l);
  }
  for (const f of filed) if (!is.has(keyOf(f))) corrections.push({ ...f, value: '0.00', documentIds: [] });
  return { corrections, additions };
}

/** The lines filed so far after filing `lines` on top of `filed` (a line filed again replaces the old). */
export function recapFiled(filed: RecapLine[], lines: RecapLine[]): RecapLine[] {
  const out = new Map(filed.map((l) => [keyOf(l), l]));
  for (const l of lines) out.set(keyOf(l), l);
  return [...out.values()].filter((l) => !dec(l.value).isZero());
}
