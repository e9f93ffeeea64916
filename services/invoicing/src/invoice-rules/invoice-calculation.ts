/**
 * Sales-invoice arithmetic (INTERFACE §4.3 create modes; DESIGN §6 "Create modes"). Pure.
 *
 * Units: quantities and unit prices 4 decimals, amounts 2 decimals (company currency), rates in percent;
 * rounding half away from zero.
 */
import { type Dec, dec, fmt, round2, round4 } from '@bm/money';

export type CreateMode = 'record' | 'creation';

export interface RowPrices {
  price?: string | null;
  priceBrutto?: string | null;
  vatID?: string | null;
  vatCode?: string | null;
  vatRate?: string | null;
}

/**
 * *Record of an invoice* when every row carries a VAT (`vatID`, `vatCode` or `vatRate`) and both `price`
 * and `priceBrutto`; otherwise *creation*.
 */
export function createMode(rows: readonly RowPrices[]): CreateMode {
  const complete = rows.every(
    (r) =>
      (r.vatID || r.vatCode || (r.vatRate !== undefined && r.vatRate !== null)) &&
      r.price != null &&
      r.priceBrutto != null,
  );
  return rows.length && complete ? 'record' : 'creation';
}

/** A stored row as far as an update needs it: its prices and which one the user entered. */
export interface StoredRowPrices {
  price: string;
  priceBrutto: string;
  grossEntered: boolean;
}

/**
 * Mode and unit prices of an update (DESIGN §3: a PUT may carry back what GET returned). An invoice made
 * in creation mode stays in creation mode, so `bonusPercent` and the VAT per code still apply; a row sent
 * back with the gross price it was entered with, and a net price unchanged or absent, keeps its gross
 * basis (otherwise the derived net price would win and move the gross price and the VAT by rounding).
 * A changed price wins as on create. `stored[i]` is the stored row the i-th row names by `id`, if any.
 */
export function updatePrices<R extends RowPrices>(
  storedMode: CreateMode,
  rows: readonly R[],
  stored: readonly (StoredRowPrices | undefined)[],
): { mode: CreateMode; rows: R[] } {
  const mode = storedMode === 'creation' ? 'creation' : createMode(rows);
  if (mode === 'record') return { mode, rows: [...rows] };
  const same = (a: string | null | undefined, b: string) => a != null && dec(a).eq(dec(b));
  return {
    mode,
    rows: rows.map((r, i) => {
      const s = stored[i];
      const keepGross =
        s?.grossEntered && same(r.priceBrutto, s.priceBrutto) && (r.price == null || same(r.price, s.price));
      return keepGross ? { ...r, price: null } : r;
    }),
  };
}

export interface CalcRow {
  quantity: string;
  price?: string | null;
  priceBrutto?: string | null;
  /** The row's VAT code (id and code) and rate, as selected. */
  vatId: string;
  vatCode: string;
  rate: string;
}

export interface CalcRowResult {
  price: string;
  priceBrutto: string;
  sumBase: string;
  sumVat: string;
  sumTotal: string;
}

export interface VatSummaryLine {
  vatID: string;
  vatCode: string;
  rate: string;
  base: string;
  vat: string;
}

export interface Calculation {
  rows: CalcRowResult[];
  vatSummary: VatSummaryLine[];
  sumBase: string;
  sumVat: string;
  sumTotal: string;
}

const hundred = dec(100);

/**
 * Computes rows, the VAT summary per code and the totals.
 * - record: nothing is recomputed: row base = round(q × price), total = round(q × priceBrutto), VAT the
 *   difference; the summary adds the rows.
 * - creation: the missing unit price is derived (net wins when both are sent); `bonusPercent` discounts
 *   every row without rounding in between; VAT per code: net rows round(Σ bases × rate / 100), gross
 *   rows round(Σ gross × rate / (100 + rate)) with base = gross − VAT.
 */
export function calculate(
  mode: CreateMode,
  rows: readonly CalcRow[],
  bonusPercent?: string | null,
): Calculation {
  const keep = dec(1).minus(dec(bonusPercent ?? '0').div(hundred));
  type Acc = VatSummaryLine & { netBases: Dec; grossTotals: Dec; base_: Dec; vat_: Dec };
  const summary = new Map<string, Acc>();
  const acc = (r: CalcRow): Acc => {
    let a = summary.get(r.vatId);
    if (!a) {
      a = {
        vatID: r.vatId,
        vatCode: r.vatCode,
        rate: r.rate,
        base: '0',
        vat: '0',
        netBases: dec(0),
        grossTotals: dec(0),
        base_: dec(0),
        vat_: dec(0),
      };
      summary.set(r.vatId, a);
    }
    return a;
  };
  const out: CalcRowResult[] = rows.map((r) => {
    const q = dec(r.quantity);
    const rate = dec(r.rate);
    const a = acc(r);
    if (mode === 'record') {
      const base = round2(q.mul(dec(r.price!)));
      const total = round2(q.mul(dec(r.priceBrutto!)));
      a.base_ = a.base_.plus(base);
      a.vat_ = a.vat_.plus(total.minus(base));
      return {
        price: fmt(r.price!),
        priceBrutto: fmt(r.priceBrutto!),
        sumBase: fmt(base),
        sumVat: fmt(total.minus(base)),
        sumTotal: fmt(total),
      };
    }
    if (r.price != null) {
      const price = dec(r.price);
      const base = round2(q.mul(price).mul(keep));
      const vat = round2(base.mul(rate).div(hundred));
      a.netBases = a.netBases.plus(base);
      return {
        price: fmt(price),
        priceBrutto: fmt(round4(price.mul(hundred.plus(rate)).div(hundred))),
        sumBase: fmt(base),
        sumVat: fmt(vat),
        sumTotal: fmt(base.plus(vat)),
      };
    }
    const brutto = dec(r.priceBrutto!);
    const gross = round2(q.mul(brutto).mul(keep));
    const vat = round2(gross.mul(rate).div(hundred.plus(rate)));
    a.grossTotals = a.grossTotals.plus(gross);
    return {
      price: fmt(round4(brutto.mul(hundred).div(hundred.plus(rate)))),
      priceBrutto: fmt(brutto),
      sumBase: fmt(gross.minus(vat)),
      sumVat: fmt(vat),
      sumTotal: fmt(gross),
    };
  });
  let sumBase = dec(0);
  let sumVat = dec(0);
  const vatSummary: VatSummaryLine[] = [...summary.values()].map((a) => {
    const rate = dec(a.rate);
    let base = a.base_;
    let vat = a.vat_;
    if (mode === 'creation') {
      const netVat = round2(a.netBases.mul(rate).div(hundred));
      const grossVat = round2(a.grossTotals.mul(rate).div(hundred.plus(rate)));
      base = a.netBases.plus(a.grossTotals.minus(grossVat));
      vat = netVat.plus(grossVat);
    }
    sumBase = sumBase.plus(base);
    sumVat = sumVat.plus(vat);
    return { vatID: a.vatID, vatCode: a.vatCode, rate: a.rate, base: fmt(base), vat: fmt(vat) };
  });
  return {
    rows: out,
    vatSummary,
    sumBase: fmt(sumBase),
    sumVat: fmt(sumVat),
    sumTotal: fmt(sumBase.plus(sumVat)),
  };
}

/** Purchase-invoice row sum (DESIGN §6): round(itemsAmount × (price − bonus) × (1 − bonusPercent / 100)). */
export function purchaseRowSum(
  itemsAmount: string,
  price: string,
  bonus?: string | null,
  bonusPercent?: string | null,
): string {
  return fmt(
    round2(
      dec(itemsAmount)
        .mul(dec(price).minus(dec(bonus ?? '0')))
        .mul(dec(1).minus(dec(bonusPercent ?? '0').div(hundred))),
    ),
  );
}

/**
 * Input VAT of rows entered by hand (issue #21): per rate of the rows that carry one,
 * round(Σ row sums × rate / 100), category `S` (`Z` at 0 %).
 */
export function purchaseVatSummary(
  rows: { sum: string; vatRate?: string | null }[],
): { category: string; rate: string; base: string; vat: string }[] {
  const byRate = new Map<string, Dec>();
  for (const r of rows) {
    if (r.vatRate == null) continue;
    const k = fmt(r.vatRate);
    byRate.set(k, (byRate.get(k) ?? dec(0)).plus(dec(r.sum)));
  }
  return [...byRate].map(([rate, base]) => ({
    category: dec(rate).isZero() ? 'Z' : 'S',
    rate,
    base: fmt(base),
    vat: fmt(round2(base.mul(dec(rate)).div(100))),
  }));
}

/** `symbolVariable` default (DESIGN §6): the digits of the record number, at most 10 (Slovak payment symbols). */
export const variableSymbolOf = (recordNumber: string): string | null => {
  const digits = recordNumber.replace(/\D/g, '');
  return digits ? digits.slice(-10) : null;
};

/** `dateValidTo` default: `dateCreated` plus the partner's due days. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
