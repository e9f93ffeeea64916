import { describe, expect, it } from 'vitest';
import { normalizeVatNumber } from './vat-number.js';
import { countryOfTaxation, kindMismatch, type TaxParties } from './vat-selection.js';

const sk = { country: 'SK', vatNumber: 'SK2020123456', ossRegistered: true };
const parties = (p: Partial<TaxParties>): TaxParties => ({ taxPoint: '2025-05-01', ...p });
const fits = (kind: Parameters<typeof kindMismatch>[0], p: Partial<TaxParties>) =>
  kindMismatch(kind, countryOfTaxation(sk, parties(p)), parties(p)) === null;

describe('a named code must fit the parties (DESIGN §6)', () => {
  it.each([
    // kind, parties, fits
    ['intraCommunity', { partnerCountry: 'DE', partnerNumber3: 'DE123456789' }, true],
    ['intraCommunity', { partnerCountry: 'SK', partnerNumber3: 'SK2021234567' }, false],
    ['intraCommunity', { partnerCountry: 'DE' }, false],
    ['export', { partnerCountry: 'US' }, true],
    ['export', { partnerCountry: 'DE', partnerNumber3: 'DE123456789' }, false],
    ['export', { partnerCountry: 'SK' }, false],
    ['oss', { partnerCountry: 'DE' }, true],
    ['oss', { partnerCountry: 'DE', partnerNumber3: 'DE123456789' }, false],
    ['standard', { partnerCountry: 'SK' }, true],
    ['standard', { partnerCountry: 'DE' }, false],
    ['reduced', { partnerCountry: 'DE', partnerNumber3: 'DE123456789' }, true],
  ] as const)('%s with %o → %s', (kind, p, expected) => expect(fits(kind, p)).toBe(expected));
});

describe('partner VAT numbers', () => {
  it.each([
    ['DE 123.456.789', 'DE', 'DE123456789'],
    ['123456789', 'DE', 'DE123456789'],
    ['094259216', 'GR', 'EL094259216'],
    ['sk2021234567', null, 'SK2021234567'],
    ['', 'DE', null],
    ['12345', 'US', 'US12345'],
  ])('%s (%s) → %s', (raw, country, value) =>
    expect(normalizeVatNumber(raw, country)).toEqual({ ok: true, value }),
  );

  it('refuses a malformed number of a country it knows', () => {
    expect(normalizeVatNumber('DE12', null)).toEqual({
      ok: false,
      message: 'not a well-formed DE VAT number',
    });
    expect(normalizeVatNumber('12', 'SK')).toEqual({ ok: false, message: 'not a well-formed SK VAT number' });
  });
});
