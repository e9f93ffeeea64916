/**
 * VAT numbers of partners (DESIGN §6: "`partnerNumber3` is a VAT number: without a member-state prefix it
 * takes `partnerCountry`'s; a malformed one is 400 ValidationFailed"). The format is checked with jsvat, a
 * well-kept checker of the EU (and a few other) VAT number formats. Pure.
 *
 * Only the format is checked (jsvat `isValidFormat`), not the check digit: test and sample numbers in the
 * wild often fail the checksum, and whether a number is registered can only be asked of VIES, online.
 */
import { checkVAT, countries } from 'jsvat';
import { EU_MEMBER_STATES } from './eu-vat-rates.js';

/** The VAT-number prefix of a country: ISO 3166 alpha-2, except Greece (EL). */
export const vatPrefixOf = (country: string) =>
  country.toUpperCase() === 'GR' ? 'EL' : country.toUpperCase();

/** Country codes jsvat knows, as VAT prefixes (`EL` for Greece). */
const SUPPORTED = new Set(countries.map((c) => vatPrefixOf(c.codes[0])));
/** Prefixes that make a number "prefixed": the EU's (EL, XI) and those jsvat knows (GB, CH, NO, …). */
const PREFIXES = new Set([...EU_MEMBER_STATES.map(vatPrefixOf), 'XI', ...SUPPORTED]);

export type VatNumberCheck = { ok: true; value: string | null } | { ok: false; message: string };

/**
 * Normalises a partner's VAT number: spaces, dots and dashes removed, upper case, and the prefix of
 * `country` put in front when it has none. A number of a country jsvat knows must have that country's
 * format; others (or without any country to go by) are kept as given.
 */
export function normalizeVatNumber(
  raw: string | null | undefined,
  country: string | null | undefined,
): VatNumberCheck {
  const v = (raw ?? '').replace(/[\s.\-/]/g, '').toUpperCase();
  if (!v) return { ok: true, value: null };
  const prefixed = /^[A-Z]{2}/.test(v) && PREFIXES.has(v.slice(0, 2));
  const value = prefixed || !country ? v : `${vatPrefixOf(country)}${v}`;
  const prefix = value.slice(0, 2);
  if (!SUPPORTED.has(prefix)) return { ok: true, value };
  const known = countries.filter((c) => vatPrefixOf(c.codes[0]) === prefix);
  if (!checkVAT(value, known).isValidFormat)
    return { ok: false, message: `not a well-formed ${prefix} VAT number` };
  return { ok: true, value };
}
