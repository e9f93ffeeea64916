/**
 * What a purchase invoice's create decides about VAT before it is written (issue #37; DESIGN §6b): each
 * row's input code, the EUR amounts at the tax point's exchange rate (§26), the input VAT lines
 * (vat/input-vat.ts), the tax point, receipt and deduction period (§51), and the correction reference.
 */
import type { InputVatLine, PurchaseInvoice, PurchaseInvoiceInput } from '@bm/contracts';
import { ErrorCode, unprocessable } from '@bm/errors';
import { type DecLike, dec, round2 } from '@bm/money';

/** An amount with exactly 2 decimals (EUR). */
const m2 = (v: DecLike): string => dec(v).toFixed(2);

import type { EntityManager } from '@bm/service-kit';
import {
  deductionPeriodOf,
  inputCodes,
  inputVatLines,
  SELF_ASSESSED_KINDS,
  selectInputCode,
  selfAssessedKindOf,
  standardSelfAssessedCode,
  toEur,
  type VatCodeDef,
  VatRefusal,
} from '../vat/index.js';

/** The VAT facts of a purchase invoice, as stored. */
export interface PurchaseVatFacts {
  taxPoint: string;
  dateReceived: string;
  deductionPeriod: string;
  /** Per row: its code (null: none), the row's EUR amount and deductible share. */
  rows: { code: VatCodeDef | null; localSum: string; deductiblePercent: string }[];
  inputVat: InputVatLine[];
}

/**
 * Decides the VAT facts of `input`, whose rows' amounts are `sums` (invoice currency) and `localSums` (EUR,
 * null where the currency differs and none was given). `received`: the VAT breakdown an e-invoice states
 * (its domestic VAT is kept as stated; a rate without an input code claims nothing rather than refusing
 * a document already received).
 * @throws 422 VatCodeNotValid (a missing localSum without exchangeRate the create refused before)
 */
export async function decidePurchaseVat(
  em: EntityManager,
  home: string,
  input: PurchaseInvoiceInput,
  sums: string[],
  localSums: (string | null)[],
  received?: PurchaseInvoice['vatSummary'],
): Promise<PurchaseVatFacts> {
  const taxPoint = input.dateDelivery ?? input.dateCreated;
  const dateReceived = input.dateReceived ?? input.dateAccounting ?? input.dateCreated;
  const codes = await inputCodes(em);
  const rowsIn = input.rows ?? [];
  const rows = rowsIn.map((r, i) => {
    // The create refused a missing localSum without exchangeRate already.
    const localSum = localSums[i] ?? (input.exchangeRate ? toEur(sums[i], input.exchangeRate) : null);
    let code: VatCodeDef | null;
    try {
      code = selectInputCode(codes, home, taxPoint, r, `rows.${i}.`);
    } catch (e) {
      if (!(received && e instanceof VatRefusal)) throw refusal(e);
      code = null;
    }
    const deductiblePercent = r.deductiblePercent ?? input.deductiblePercent ?? '100';
    return { code, localSum: localSum ?? '0', deductiblePercent };
  });
  let inputVat = inputVatLines(rows);
  if (received && (!input.currency1 || input.currency1 === 'EUR')) inputVat = asStated(inputVat, received);
  return {
    taxPoint,
    dateReceived,
    deductionPeriod: deductionPeriodOf(taxPoint, dateReceived),
    rows,
    inputVat,
  };
}

/** A VatRefusal as the 422 it is (DESIGN §6 "VAT code"). */
function refusal(e: unknown): unknown {
  if (!(e instanceof VatRefusal)) return e;
  return unprocessable(ErrorCode.VatCodeNotValid, e.message, {
    errors: [{ path: e.field, message: e.message }, ...e.also.map((path) => ({ path, message: e.message }))],
  });
}

/** A received invoice's domestic VAT as its breakdown states it (BG-23), per rate of category S. */
function asStated(lines: InputVatLine[], stated: PurchaseInvoice['vatSummary']): InputVatLine[] {
  return lines.map((l) => {
    const same = lines.filter((x) => !x.selfAssessed && dec(x.rate).eq(dec(l.rate)));
    const s = stated.find((v) => v.category === 'S' && dec(v.rate).eq(dec(l.rate)));
    if (l.selfAssessed || same.length !== 1 || !s) return l;
    const vat = dec(s.vat);
    return { ...l, vat: m2(vat), deducted: m2(round2(vat.times(dec(l.deductiblePercent)).div(100))) };
  });
}

/** The rate a row's stated VAT is at: its `vatRate`, else that of a code the supplier charges (not self-assessed). */
export const statedRate = (vatRate: string | null | undefined, code: VatCodeDef | null): string | null =>
  vatRate ?? (code && !SELF_ASSESSED_KINDS.has(code.kind) ? code.rate : null);

/**
 * The rows of a received e-invoice with their self-assessment (issue #37): a row of category AE or K gets
 * the input code of its kind at the home standard rate (vat/input-vat.ts `selfAssessedKindOf`) and no
 * `vatRate` of its own (the supplier charged none); other rows are left as mapped.
 */
export async function selfAssessReceived<R extends { vatRate: string | null }>(
  em: EntityManager,
  home: string,
  sellerCountry: string | null,
  taxPoint: string,
  rows: R[],
  categories: string[],
): Promise<(R & { vatCode?: string })[]> {
  const kinds = categories.map((c) => selfAssessedKindOf(c, sellerCountry, home));
  if (!kinds.some(Boolean)) return rows;
  const codes = await inputCodes(em);
  return rows.map((r, i) => {
    const code = kinds[i] && standardSelfAssessedCode(codes, home, kinds[i]!, taxPoint);
    return code ? { ...r, vatRate: null, vatCode: code.code } : r;
  });
}
