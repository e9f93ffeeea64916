/**
 * VAT code selection for sales invoices (INTERFACE §2.4 vatID/vatCode/vatRate/vatParagraphID;
 * DESIGN §6 "Country of taxation", "VAT code of the invoice"). Pure: no ORM, no NATS.
 *
 * Chain, for the invoice and then for each row (a row falls back to the invoice's code):
 * `vatID` (type O) → `vatCode` (type O, case-sensitive, of the country of taxation) → `vatRate` (the code
 * of that rate for the country of taxation, kind chosen by `vatNumber` and `partnerNumber3`) → default
 * (the standard rate of the country of taxation; OSS; or reverse charge to a business of another member
 * state). Every code must be valid on the tax point and fit the parties; fields that name the code more
 * than one way must agree. Each refusal is a {@link VatRefusal} that says why.
 */
import type { VatKind } from '@bm/contracts';
import { type Dec, dec } from '@bm/money';
import { EU_MEMBER_STATES } from './eu-vat-rates.js';
import type { VatCodeDef } from './vat-code.js';
import { outputCodesAt } from './vat-code-index.js';

/** The kind of a VAT code (DESIGN §6), as the contracts define it. */
export type { VatKind } from '@bm/contracts';

export type { VatCodeDef, VatParagraph } from './vat-code.js';

/** The seller's tax profile (DESIGN §6 "Company tax profile"). */
export interface TaxProfile {
  country: string;
  vatNumber: string | null;
  ossRegistered: boolean;
}

/** The invoice-level facts that decide the country of taxation. */
export interface TaxParties {
  /** Creditor's VAT number given on the invoice (else the company's). */
  vatNumber?: string | null;
  partnerCountry?: string | null;
  partnerNumber3?: string | null;
  /** `dateDelivery`, else `dateCreated`. */
  taxPoint: string;
}

export interface VatChoice {
  vatID?: string | null;
  vatCode?: string | null;
  vatRate?: string | null;
  vatParagraphID?: string | null;
}

/**
 * Why a VAT choice was refused; `field` names the input field (`vatCode`, `rows.2.vatRate`, …) and `also`
 * the other fields involved (the disagreeing ones of a conflict).
 */
export class VatRefusal extends Error {
  constructor(
    readonly code: 'VatCodeNotValid' | 'VatParagraphNotValid',
    readonly field: string,
    message: string,
    readonly also: string[] = [],
  ) {
    super(message);
  }
}

const EU = new Set<string>(EU_MEMBER_STATES);
/** Country of a VAT number prefix (Greek numbers use EL, Northern Ireland XI). */
export const countryOfVatNumber = (vatNumber: string | null | undefined): string | null => {
  const p = vatNumber?.trim().slice(0, 2).toUpperCase();
  if (!p || !/^[A-Z]{2}$/.test(p)) return null;
  return p === 'EL' ? 'GR' : p;
};

export interface Taxation {
  /** The country whose VAT applies. */
  country: string;
  /** The creditor's VAT-administering country. */
  creditorCountry: string;
  oss: boolean;
}

/**
 * Country of taxation (DESIGN §6): OSS when the company is OSS-registered, the partner is a consumer
 * (no `partnerNumber3`) and `partnerCountry` is another EU member state; otherwise the creditor's country
 * (prefix of `vatNumber`, else of the company's VAT number, else the company's country).
 */
export function countryOfTaxation(profile: TaxProfile, parties: TaxParties): Taxation {
  const creditorCountry =
    countryOfVatNumber(parties.vatNumber) ?? countryOfVatNumber(profile.vatNumber) ?? profile.country;
  const partnerCountry = parties.partnerCountry?.toUpperCase();
  const oss =
    profile.ossRegistered &&
    !parties.partnerNumber3?.trim() &&
    !!partnerCountry &&
    EU.has(partnerCountry) &&
    partnerCountry !== creditorCountry;
  return { country: oss ? partnerCountry! : creditorCountry, creditorCountry, oss };
}

const validOn = (c: VatCodeDef, day: string) => c.validFrom <= day && (!c.validTo || day <= c.validTo);
const validity = (c: VatCodeDef) => `${c.validFrom} – ${c.validTo ?? '…'}`;

/** The kind a `vatRate` means for these parties: 0 % to an EU business is intra-Community, etc. */
function kindsForRate(rate: Dec, t: Taxation, parties: TaxParties): VatKind[] {
  if (t.oss) return ['oss'];
  if (rate.isZero()) {
    const partnerVatCountry = countryOfVatNumber(parties.partnerNumber3);
    const partnerCountry = parties.partnerCountry?.toUpperCase() ?? partnerVatCountry;
    if (partnerVatCountry && EU.has(partnerVatCountry) && partnerVatCountry !== t.creditorCountry)
      return ['intraCommunity'];
    if (partnerCountry && !EU.has(partnerCountry) && partnerCountry !== t.creditorCountry) return ['export'];
    return ['exempt', 'zero'];
  }
  return ['standard', 'reduced'];
}

/** The partner facts that decide which kinds of code fit (DESIGN §6 "A named code must also fit the parties"). */
function partnerFacts(t: Taxation, parties: TaxParties) {
  const vatCountry = countryOfVatNumber(parties.partnerNumber3);
  const country = parties.partnerCountry?.toUpperCase() ?? vatCountry;
  return {
    /** A business registered for VAT in another member state. */
    euBusiness: !!vatCountry && EU.has(vatCountry) && vatCountry !== t.creditorCountry,
    outsideEu: !!country && !EU.has(country),
  };
}

/**
 * Why a code of `kind` does not fit the parties, or null when it does (DESIGN §6): intra-community only
 * to a buyer with a VAT number of another member state; OSS only to a consumer in another member state
 * of an OSS-registered company; export only to a partner outside the EU; domestic kinds only when the
 * country of taxation is the company's.
 */
export function kindMismatch(kind: VatKind, t: Taxation, parties: TaxParties): string | null {
  const p = partnerFacts(t, parties);
  switch (kind) {
    case 'intraCommunity':
      return p.euBusiness
        ? null
        : 'an intra-community supply needs a buyer with a VAT number of another member state (partnerNumber3)';
    case 'oss':
      return t.oss
        ? null
        : 'an OSS code needs an OSS-registered company selling to a consumer (no partnerNumber3) in another member state (partnerCountry)';
    case 'export':
      return p.outsideEu ? null : 'an export code needs a partner outside the EU (partnerCountry)';
    case 'domesticReverseCharge':
      return !t.oss && countryOfVatNumber(parties.partnerNumber3) === t.creditorCountry
        ? null
        : `a domestic reverse charge (§69(12)) needs a buyer registered for VAT in ${t.creditorCountry} (partnerNumber3)`;
    default:
      return t.oss ? `a domestic code does not apply: the supply is taxed in ${t.country} under OSS` : null;
  }
}

/** Checks the rules of a named code: type, country, validity on the tax point, and that it fits the parties. */
function checkCode(c: VatCodeDef, t: Taxation, parties: TaxParties, field: string): VatCodeDef {
  if (c.type !== 'O')
    throw new VatRefusal(
      'VatCodeNotValid',
      field,
      `VAT code ${c.code} is of type ${c.type} (input); a sales invoice needs type O`,
    );
  if (c.kind === 'oss' && !parties.partnerCountry) {
    throw new VatRefusal(
      'VatCodeNotValid',
      field,
      `VAT code ${c.code} is an OSS code of ${c.country}: partnerCountry must be set`,
    );
  }
  if (c.country !== t.country) {
    throw new VatRefusal(
      'VatCodeNotValid',
      field,
      `VAT code ${c.code} is for ${c.country}, but the country of taxation is ${t.country}${t.oss ? ' (OSS: consumer in another member state)' : ''}`,
    );
  }
  const mismatch = kindMismatch(c.kind, t, parties);
  if (mismatch) throw new VatRefusal('VatCodeNotValid', field, `VAT code ${c.code} (${c.kind}): ${mismatch}`);
  if (!validOn(c, parties.taxPoint)) {
    throw new VatRefusal(
      'VatCodeNotValid',
      field,
      `VAT code ${c.code} is valid ${validity(c)}, not on the tax point ${parties.taxPoint}`,
    );
  }
  return c;
}

/**
 * When a row or header names its code more than one way, they must agree (DESIGN §6): a client that
 * changed `vatRate` but sent back the old `vatID` gets a 422 naming both, never a silent choice.
 */
function assertAgree(c: VatCodeDef, choice: VatChoice, by: 'vatID' | 'vatCode', prefix: string): VatCodeDef {
  if (by === 'vatID' && choice.vatCode && choice.vatCode !== c.code)
    throw new VatRefusal(
      'VatCodeNotValid',
      `${prefix}vatID`,
      `vatID is VAT code ${c.code}, but vatCode says ${choice.vatCode}`,
      [`${prefix}vatCode`],
    );
  if (choice.vatRate !== undefined && choice.vatRate !== null && !dec(choice.vatRate).eq(dec(c.rate)))
    throw new VatRefusal(
      'VatCodeNotValid',
      `${prefix}${by}`,
      `${by} is VAT code ${c.code} at ${dec(c.rate).toFixed()} %, but vatRate says ${dec(choice.vatRate).toFixed()} %`,
      [`${prefix}vatRate`],
    );
  return c;
}

/**
 * Selects a VAT code. `fallback` is the invoice's code for a row (undefined for the invoice itself, which
 * then falls back to the default code). `prefix` names the fields (`` or `rows.3.`).
 */
export function selectVatCode(
  codes: readonly VatCodeDef[],
  t: Taxation,
  parties: TaxParties,
  choice: VatChoice,
  prefix: string,
  fallback?: VatCodeDef,
): VatCodeDef {
  if (choice.vatID) {
    const c = codes.find((x) => x.id === choice.vatID);
    if (!c) throw new VatRefusal('VatCodeNotValid', `${prefix}vatID`, 'no VAT code with this id');
    return assertAgree(checkCode(c, t, parties, `${prefix}vatID`), choice, 'vatID', prefix);
  }
  if (choice.vatCode) {
    const c = codes.find((x) => x.code === choice.vatCode);
    if (!c) {
      const other = codes.find((x) => x.code.toLowerCase() === choice.vatCode!.toLowerCase());
      throw new VatRefusal(
        'VatCodeNotValid',
        `${prefix}vatCode`,
        other
          ? `no VAT code ${choice.vatCode}; codes are case-sensitive (did you mean ${other.code}?)`
          : `no VAT code ${choice.vatCode}`,
      );
    }
    return assertAgree(checkCode(c, t, parties, `${prefix}vatCode`), choice, 'vatCode', prefix);
  }
  if (choice.vatRate !== undefined && choice.vatRate !== null) {
    const rate = dec(choice.vatRate);
    const kinds = kindsForRate(rate, t, parties);
    const found = outputCodesAt(codes, t.country, rate)
      .filter((c) => validOn(c, parties.taxPoint))
      .sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind))
      .find((c) => kinds.includes(c.kind));
    if (!found) {
      throw new VatRefusal(
        'VatCodeNotValid',
        `${prefix}vatRate`,
        `no ${kinds.join('/')} VAT code with rate ${choice.vatRate} % for ${t.country} on ${parties.taxPoint}`,
      );
    }
    return found;
  }
  if (fallback) return fallback;
  // No VAT field: OSS at the consumer's standard rate; reverse charge (the intra-community code) to a business
  // registered in another member state (docs/decisions.md); else the standard rate of the country of taxation.
  const kind: VatKind = t.oss ? 'oss' : partnerFacts(t, parties).euBusiness ? 'intraCommunity' : 'standard';
  const defaults = codes
    .filter(
      (c) => c.type === 'O' && c.country === t.country && c.kind === kind && validOn(c, parties.taxPoint),
    )
    .sort((a, b) => dec(b.rate).comparedTo(dec(a.rate)));
  if (!defaults.length) {
    throw new VatRefusal(
      'VatCodeNotValid',
      `${prefix}vatCode`,
      `no ${kind} VAT code for ${t.country} on ${parties.taxPoint}`,
    );
  }
  return defaults[0];
}
