/**
 * Peppol endpoint ids of parties without an explicit `peppolId` (issue #21; docs/decisions.md
 * "Peppol endpoint ids"). Pure.
 *
 * Sources: Peppol participant identifier scheme code list v9.5 (EAS); the Slovak Peppol Authority makes
 * `0245` (Slovak DIČ) the identifier of every Slovak participant; the EAS VAT-number schemes `99xx` are
 * keyed by country (9929 CZ, 9930 DE, …; 0211 IT, 0198 DK). Identifiers of the 99xx schemes carry the
 * VAT number with its country prefix.
 */
import type { Endpoint } from './model.js';

/** EAS scheme of the VAT number of each country (ISO alpha-2; Greece's VAT numbers start with EL). */
export const EAS_VAT_SCHEME: Readonly<Record<string, string>> = {
  AD: '9922',
  AL: '9923',
  AT: '9914',
  BA: '9924',
  BE: '9925',
  BG: '9926',
  CH: '9927',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  DK: '0198',
  EE: '9931',
  ES: '9920',
  FR: '9957',
  GB: '9932',
  GR: '9933',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  IT: '0211',
  LI: '9936',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MC: '9940',
  ME: '9941',
  MK: '9942',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  RS: '9948',
  SI: '9949',
  SK: '9950',
  SM: '9951',
  TR: '9952',
  VA: '9953',
};

/** The Slovak DIČ scheme (Slovak Peppol Authority). */
export const SK_DIC_SCHEME = '0245';

/** Parses `scheme:identifier` (already validated by the contract); null for null. */
export function parseEndpoint(peppolId: string | null | undefined): Endpoint | null {
  if (!peppolId) return null;
  const i = peppolId.indexOf(':');
  return i > 0 ? { scheme: peppolId.slice(0, i), id: peppolId.slice(i + 1) } : null;
}

export const formatEndpoint = (e: Endpoint | null): string | null => (e ? `${e.scheme}:${e.id}` : null);

/** The data of a party the default depends on. */
export interface EndpointParty {
  peppolId?: string | null;
  country?: string | null;
  /** DIČ. */
  taxNumber?: string | null;
  /** IČ DPH / VAT number with its country prefix. */
  vatNumber?: string | null;
}

/**
 * The Slovak DIČ of a party: `taxNumber`, else the IČ DPH without its `SK` prefix (a Slovak IČ DPH is
 * `SK` + DIČ). Null when neither is known.
 */
export function slovakDic(p: EndpointParty): string | null {
  const tax = p.taxNumber?.replace(/\s+/g, '');
  if (tax) return tax;
  const vat = p.vatNumber?.replace(/\s+/g, '').toUpperCase();
  return vat?.startsWith('SK') ? vat.slice(2) : null;
}

/**
 * The endpoint of a party: its `peppolId`; else for a Slovak party `0245:<DIČ>`; else for a party with a
 * VAT number the EAS VAT scheme of the number's country with the whole number (`9929:CZ12345678`);
 * else null (a consumer without a VAT number has no Peppol endpoint).
 */
export function endpointOf(p: EndpointParty): Endpoint | null {
  const own = parseEndpoint(p.peppolId);
  if (own) return own;
  if ((p.country ?? '').toUpperCase() === 'SK') {
    const dic = slovakDic(p);
    if (dic) return { scheme: SK_DIC_SCHEME, id: dic };
  }
  const vat = p.vatNumber?.replace(/\s+/g, '').toUpperCase();
  if (vat && /^[A-Z]{2}/.test(vat)) {
    const prefix = vat.slice(0, 2);
    if (prefix === 'SK') return { scheme: SK_DIC_SCHEME, id: vat.slice(2) };
    const scheme = EAS_VAT_SCHEME[prefix === 'EL' ? 'GR' : prefix];
    if (scheme) return { scheme, id: vat };
  }
  return null;
}
