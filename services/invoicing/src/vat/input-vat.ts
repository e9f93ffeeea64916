/**
 * Input VAT of a purchase invoice (issue #37; DESIGN §6b). Pure: no ORM, no transport.
 *
 * - The row's code (type `I`): `vatID`, else `vatCode`, else the domestic deductible code of `vatRate` valid
 *   on the tax point (0 %: the exempt input code); none of the three: no VAT claimed on the row.
 * - Self-assessed kinds (§69(2), §69(3), §69(12), §11 of Act 222/2004): the supplier's invoice carries no VAT;
 *   the buyer computes it at the code's rate and owes and deducts it in the same period.
 * - Per code and deductible share: base = Σ row amounts in EUR (`localSum`), VAT = round(base × rate / 100)
 *   (half away from zero, as sales VAT, DESIGN §6), deducted = round(VAT × share / 100) (§49, §50).
 * - The deduction falls in the period of the later of the tax point and the receipt (§51(1)).
 */
import type { InputVatLine } from '@bm/contracts';
import { type DecLike, dec, round2, sum } from '@bm/money';

/** An amount with exactly 2 decimals (EUR). */
const m2 = (v: DecLike): string => dec(v).toFixed(2);

import { type VatCodeDef, VatRefusal } from './vat-selection.js';

/** The input kinds whose VAT the buyer computes and owes (issue #37). */
export const SELF_ASSESSED_KINDS: ReadonlySet<string> = new Set([
  'domesticReverseCharge',
  'intraCommunityAcquisition',
  'foreignServices',
  'installation',
]);

/** How a purchase row names its VAT. */
export interface InputVatChoice {
  vatID?: string | null;
  vatCode?: string | null;
  vatRate?: string | null;
}

const validOn = (c: VatCodeDef, day: string) => c.validFrom <= day && (!c.validTo || day <= c.validTo);

function named(c: VatCodeDef | undefined, field: string, taxPoint: string, what: string): VatCodeDef {
  if (!c) throw new VatRefusal('VatCodeNotValid', field, `no VAT code ${what}`);
  if (c.type !== 'I')
    throw new VatRefusal(
      'VatCodeNotValid',
      field,
      `VAT code ${c.code} is of type ${c.type} (output); a purchase invoice row needs type I`,
    );
  if (!validOn(c, taxPoint))
    throw new VatRefusal(
      'VatCodeNotValid',
      field,
      `VAT code ${c.code} is valid ${c.validFrom} – ${c.validTo ?? '…'}, not on the tax point ${taxPoint}`,
    );
  return c;
}

/**
 * The input code of a row (`prefix` names the fields, e.g. `rows.2.`), or null when it claims no VAT.
 * @throws VatRefusal VatCodeNotValid: unknown, of type O, not valid on the tax point, or disagreeing with `vatRate`
 */
export function selectInputCode(
  codes: readonly VatCodeDef[],
  home: string,
  taxPoint: string,
  choice: InputVatChoice,
  prefix: string,
): VatCodeDef | null {
  let c: VatCodeDef | null = null;
  let by = '';
  if (choice.vatID) {
    by = 'vatID';
    c = named(
      codes.find((x) => x.id === choice.vatID),
      `${prefix}vatID`,
      taxPoint,
      'with this id',
    );
  } else if (choice.vatCode) {
    by = 'vatCode';
    c = named(
      codes.find((x) => x.code === choice.vatCode),
      `${prefix}vatCode`,
      taxPoint,
      choice.vatCode,
    );
  }
  const rate = choice.vatRate != null ? dec(choice.vatRate) : null;
  if (c) {
    if (rate && !rate.eq(dec(c.rate)))
      throw new VatRefusal(
        'VatCodeNotValid',
        `${prefix}${by}`,
        `${by} is VAT code ${c.code} at ${dec(c.rate).toFixed()} %, but vatRate says ${rate.toFixed()} %`,
        [`${prefix}vatRate`],
      );
    return c;
  }
  if (!rate) return null;
  const kinds = rate.isZero() ? ['exempt', 'zero'] : ['standard', 'reduced'];
  const found = codes.find(
    (x) =>
      x.type === 'I' &&
      x.country === home &&
      kinds.includes(x.kind) &&
      dec(x.rate).eq(rate) &&
      validOn(x, taxPoint),
  );
  if (!found)
    throw new VatRefusal(
      'VatCodeNotValid',
      `${prefix}vatRate`,
      `no deductible input VAT code with rate ${rate.toFixed()} % for ${home} on ${taxPoint}`,
    );
  return found;
}

/** One row's part in the input VAT: its code (null: none claimed), amount in EUR and deductible share. */
export interface InputVatRow {
  code: VatCodeDef | null;
  /** Row amount in the company currency (EUR), 2 decimals, signed (negative on a credit note). */
  localSum: string;
  /** 0–100. */
  deductiblePercent: string;
}

/**
 * The input VAT lines of an invoice, per code and deductible share, in the order the codes first appear.
 * Rows without a code and codes at 0 % give no line.
 */
export function inputVatLines(rows: readonly InputVatRow[]): InputVatLine[] {
  const groups = new Map<string, { code: VatCodeDef; pct: string; amounts: string[] }>();
  for (const r of rows) {
    if (!r.code || dec(r.code.rate).isZero()) continue;
    const pct = dec(r.deductiblePercent).toFixed(2);
    const key = `${r.code.id}|${pct}`;
    const g = groups.get(key) ?? { code: r.code, pct, amounts: [] };
    g.amounts.push(r.localSum);
    groups.set(key, g);
  }
  return [...groups.values()].map(({ code, pct, amounts }) => {
    const base = sum(amounts);
    const vat = round2(base.times(dec(code.rate)).div(100));
    return {
      vatID: code.id,
      vatCode: code.code,
      kind: code.kind,
      rate: dec(code.rate).toFixed(2),
      selfAssessed: SELF_ASSESSED_KINDS.has(code.kind),
      deductiblePercent: pct,
      base: m2(base),
      vat: m2(vat),
      deducted: m2(round2(vat.times(dec(pct)).div(100))),
    };
  });
}

/** The period (`YYYY-MM`) in which input VAT may be deducted: that of the later of tax point and receipt (§51(1)). */
export const deductionPeriodOf = (taxPoint: string, dateReceived: string): string =>
  (taxPoint > dateReceived ? taxPoint : dateReceived).slice(0, 7);

/** A row amount in EUR from one in another currency at `rate` units per EUR (§26(1)): round(sum / rate, 2). */
export const toEur = (amount: string, rate: string): string => m2(round2(dec(amount).div(dec(rate))));

/**
 * The self-assessed kind a received e-invoice's VAT category calls for (issue #37; EN 16931 UNCL5305): `AE`
 * reverse charge from a supplier in the buyer's country → domestic reverse charge (§69(12)), from abroad →
 * a foreign supplier's service (§69(3)); `K` intra-community supply → the buyer's intra-community
 * acquisition (§11). Any other category: none (the supplier's VAT is claimed as stated).
 */
export function selfAssessedKindOf(
  category: string,
  sellerCountry: string | null,
  home: string,
): 'domesticReverseCharge' | 'foreignServices' | 'intraCommunityAcquisition' | null {
  if (category === 'K') return 'intraCommunityAcquisition';
  if (category !== 'AE') return null;
  return !sellerCountry || sellerCountry === home ? 'domesticReverseCharge' : 'foreignServices';
}

/**
 * The input code of `kind` at the home country's standard rate (the highest of its codes of that kind valid
 * on `taxPoint`), what a received e-invoice without a rate of its own is self-assessed at (the buyer may
 * change the row's code by a PUT); null when the company has none.
 */
export function standardSelfAssessedCode(
  codes: readonly VatCodeDef[],
  home: string,
  kind: string,
  taxPoint: string,
): VatCodeDef | null {
  const fit = codes.filter(
    (c) => c.type === 'I' && c.country === home && c.kind === kind && validOn(c, taxPoint),
  );
  return fit.reduce<VatCodeDef | null>(
    (best, c) => (!best || dec(c.rate).gt(dec(best.rate)) ? c : best),
    null,
  );
}
