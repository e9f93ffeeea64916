/**
 * An index of a company's VAT codes by country and rate (issue #24 profile: selecting a ten-row invoice's
 * codes compared every code's rate as a decimal for every row, a tenth of the service's CPU per invoice).
 * Pure; the code lists come from the master-data cache and are never changed after they are handed out.
 */
import { type Dec, dec } from '@bm/money';
import type { VatCodeDef } from './vat-code.js';

/** Output codes by country and exact rate, per code list (the master-data cache hands out one list). */
const outputCodesByRate = new WeakMap<readonly VatCodeDef[], Map<string, VatCodeDef[]>>();

/**
 * The output codes (`type` O) of `country` whose rate equals `rate`, in list order. Indexed once per code
 * list, so a ten-row invoice does not compare every code's rate as a decimal for every row (issue #24
 * profile: a tenth of the service's CPU per invoice).
 */
export function outputCodesAt(codes: readonly VatCodeDef[], country: string, rate: Dec): VatCodeDef[] {
  let index = outputCodesByRate.get(codes);
  if (!index) {
    index = new Map();
    for (const c of codes) {
      if (c.type !== 'O') continue;
      const k = `${c.country}|${dec(c.rate).toFixed()}`;
      const list = index.get(k);
      if (list) list.push(c);
      else index.set(k, [c]);
    }
    outputCodesByRate.set(codes, index);
  }
  return index.get(`${country}|${rate.toFixed()}`) ?? [];
}
