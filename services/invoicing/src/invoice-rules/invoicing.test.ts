import { describe, expect, it } from 'vitest';
import { vatCodeCatalogue } from '../vat/vat-code-catalogue.js';
import { selectParagraph } from '../vat/vat-paragraph.js';
import { countryOfTaxation, selectVatCode, type VatCodeDef, VatRefusal } from '../vat/vat-selection.js';
import {
  addDays,
  calculate,
  createMode,
  purchaseRowSum,
  updatePrices,
  variableSymbolOf,
} from './invoice-calculation.js';

const codes: VatCodeDef[] = vatCodeCatalogue('SK').map((c, _i) => ({
  ...c,
  id: `id-${c.code}`,
  paragraphs: c.paragraphs.map((p, j) => ({ id: `p-${c.code}-${j}`, code: p.code, isDefault: p.isDefault })),
}));
const profile = { country: 'SK', vatNumber: 'SK2020123456', ossRegistered: true };
const pick = (parties: any, choice: any = {}) => {
  const p = { taxPoint: '2025-03-01', ...parties };
  return selectVatCode(codes, countryOfTaxation(profile, p), p, choice, '').code;
};
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof VatRefusal) return `${e.code} ${e.field}: ${e.message}`;
    throw e;
  }
  return 'accepted';
};

describe('country of taxation (DESIGN §6)', () => {
  it.each([
    [{ partnerCountry: 'CZ' }, 'CZ', true],
    [{ partnerCountry: 'CZ', partnerNumber3: 'CZ12345678' }, 'SK', false],
    [{ partnerCountry: 'SK' }, 'SK', false],
    [{ partnerCountry: 'US' }, 'SK', false],
    [{}, 'SK', false],
    [{ vatNumber: 'CZ12345678', partnerCountry: 'SK' }, 'SK', true],
  ])('%j → %s (OSS %s)', (parties, country, oss) => {
    const t = countryOfTaxation(profile, { taxPoint: '2025-01-01', ...parties });
    expect([t.country, t.oss]).toEqual([country, oss]);
  });

  it('is never OSS for a company not registered for OSS', () => {
    expect(
      countryOfTaxation(
        { ...profile, ossRegistered: false },
        { taxPoint: '2025-01-01', partnerCountry: 'CZ' },
      ),
    ).toMatchObject({ country: 'SK', oss: false });
  });
});

describe('VAT code selection (DESIGN §6)', () => {
  it('defaults to the standard rate in force on the tax point', () => {
    expect(pick({ taxPoint: '2025-01-01' })).toBe('SK23');
    expect(pick({ taxPoint: '2024-12-31' })).toBe('SK20');
    expect(pick({ taxPoint: '2025-01-01', partnerCountry: 'CZ' })).toBe('OSS-CZ21');
    expect(pick({ taxPoint: '2025-01-01', partnerCountry: 'DE' })).toBe('OSS-DE19');
    expect(pick({ taxPoint: '2025-01-01', partnerCountry: 'AT' })).toBe('OSS-AT20');
  });

  it('selects by rate: reduced, intra-Community, export, exempt, OSS reduced', () => {
    expect(pick({}, { vatRate: '5' })).toBe('SK5');
    expect(pick({ taxPoint: '2024-06-01' }, { vatRate: '10' })).toBe('SK10');
    expect(pick({ partnerCountry: 'DE', partnerNumber3: 'DE123456789' }, { vatRate: '0' })).toBe('SK0-IC');
    expect(pick({ partnerCountry: 'US' }, { vatRate: '0' })).toBe('SK0-EX');
    expect(pick({ partnerCountry: 'SK' }, { vatRate: '0' })).toBe('SK0-OS');
    expect(pick({ partnerCountry: 'CZ' }, { vatRate: '12' })).toBe('OSS-CZ12');
  });

  it('takes vatCode case-sensitively and vatID as given, both only of type O', () => {
    expect(pick({}, { vatCode: 'SK23' })).toBe('SK23');
    expect(refusal(() => pick({}, { vatCode: 'sk23' }))).toBe(
      'VatCodeNotValid vatCode: no VAT code sk23; codes are case-sensitive (did you mean SK23?)',
    );
    expect(refusal(() => pick({}, { vatID: 'id-I-SK23' }))).toMatch(/type I/);
    expect(pick({}, { vatID: 'id-SK19' })).toBe('SK19');
  });

  it('refuses codes of another date, country or OSS without partnerCountry, saying why', () => {
    expect(refusal(() => pick({ taxPoint: '2025-02-01' }, { vatCode: 'SK20' }))).toBe(
      'VatCodeNotValid vatCode: VAT code SK20 is valid 2011-01-01 – 2024-12-31, not on the tax point 2025-02-01',
    );
    expect(refusal(() => pick({}, { vatCode: 'OSS-CZ21' }))).toMatch(
      /OSS code of CZ: partnerCountry must be set/,
    );
    expect(refusal(() => pick({ partnerCountry: 'CZ' }, { vatCode: 'SK23' }))).toMatch(
      /country of taxation is CZ \(OSS/,
    );
    expect(refusal(() => pick({}, { vatRate: '7' }))).toBe(
      'VatCodeNotValid vatRate: no standard/reduced VAT code with rate 7 % for SK on 2025-03-01',
    );
  });

  it('lets a row fall back to the invoice code and checks paragraphs', () => {
    const p = { taxPoint: '2025-03-01' };
    const t = countryOfTaxation(profile, p);
    const inv = selectVatCode(codes, t, p, {}, '');
    expect(selectVatCode(codes, t, p, {}, 'rows.0.', inv).code).toBe('SK23');
    const ic = codes.find((c) => c.code === 'SK0-IC')!;
    expect(selectParagraph(ic, null, 'vatParagraphID')).toBe('p-SK0-IC-0');
    expect(selectParagraph(ic, 'p-SK0-IC-1', 'vatParagraphID')).toBe('p-SK0-IC-1');
    expect(refusal(() => selectParagraph(ic, 'p-SK23-0', 'rows.1.vatParagraphID'))).toMatch(
      /^VatParagraphNotValid rows.1.vatParagraphID/,
    );
  });
});

describe('invoice calculation (DESIGN §6)', () => {
  const row = (
    quantity: string,
    price: string | null,
    priceBrutto: string | null,
    rate = '23',
    vatId = 'a',
  ) => ({ quantity, price, priceBrutto, vatId, vatCode: vatId, rate });

  it('tells record mode from creation mode', () => {
    expect(createMode([{ price: '1', priceBrutto: '1.23', vatRate: '23' }])).toBe('record');
    expect(createMode([{ price: '1', priceBrutto: '1.23' }])).toBe('creation');
    expect(createMode([{ price: '1', vatCode: 'SK23' }])).toBe('creation');
  });

  it('computes net rows: VAT on the sum of bases per code', () => {
    const c = calculate('creation', [row('3', '3.33', null), row('1', '0.01', null)]);
    expect(c.rows.map((r) => [r.sumBase, r.sumVat, r.priceBrutto])).toEqual([
      ['9.99', '2.3', '4.0959'],
      ['0.01', '0', '0.0123'],
    ]);
    expect(c.vatSummary).toEqual([{ vatID: 'a', vatCode: 'a', rate: '23', base: '10', vat: '2.3' }]);
    expect([c.sumBase, c.sumVat, c.sumTotal]).toEqual(['10', '2.3', '12.3']);
  });

  it('computes gross rows by the coefficient method', () => {
    const c = calculate('creation', [row('2', null, '12.3'), row('1', null, '1.99')]);
    // Σ gross 26.59; VAT = round(26.59 × 23 / 123) = 4.97; base 21.62
    expect(c.vatSummary[0]).toMatchObject({ base: '21.62', vat: '4.97' });
    expect(c.rows[0]).toMatchObject({ price: '10', priceBrutto: '12.3', sumTotal: '24.6' });
    expect(c.sumTotal).toBe('26.59');
  });

  it('applies bonusPercent to every row without rounding in between', () => {
    const c = calculate('creation', [row('3', '3.335', null)], '10');
    // 3 × 3.335 × 0.9 = 9.0045 → 9.00
    expect(c.rows[0].sumBase).toBe('9');
    expect(c.vatSummary[0]).toMatchObject({ base: '9', vat: '2.07' });
  });

  it('keeps mixed rates apart and record mode numbers unchanged', () => {
    const c = calculate('creation', [
      row('1', '100', null, '23', 'SK23'),
      row('2', '10', null, '5', 'SK5'),
      row('1', '50', null, '23', 'SK23'),
    ]);
    expect(c.vatSummary.map((s) => [s.vatCode, s.base, s.vat])).toEqual([
      ['SK23', '150', '34.5'],
      ['SK5', '20', '1'],
    ]);
    const r = calculate('record', [row('3', '3.33', '4.1', '23')]);
    expect(r.rows[0]).toEqual({
      price: '3.33',
      priceBrutto: '4.1',
      sumBase: '9.99',
      sumVat: '2.31',
      sumTotal: '12.3',
    });
    expect([r.sumBase, r.sumVat, r.sumTotal]).toEqual(['9.99', '2.31', '12.3']);
  });

  it('computes purchase sums, variable symbols and due dates', () => {
    expect(purchaseRowSum('3', '10.5', '0.5', '10')).toBe('27');
    expect(purchaseRowSum('2', '1.005')).toBe('2.01');
    expect(variableSymbolOf('OF202500042')).toBe('202500042');
    expect(variableSymbolOf('OF-2025-12345678')).toBe('2512345678');
    expect(variableSymbolOf('ABC')).toBeNull();
    expect(addDays('2025-02-20', 14)).toBe('2025-03-06');
  });
});

describe('prices of an update (DESIGN §3, §6)', () => {
  const gross = { price: '8.122', priceBrutto: '9.99', grossEntered: true };
  const net = { price: '10', priceBrutto: '12.3', grossEntered: false };
  const back = (p: { price: string; priceBrutto: string }) => ({ ...p, vatCode: 'SK23' });

  it('keeps a creation-mode invoice in creation mode and a gross row on its gross price', () => {
    const u = updatePrices('creation', [back(gross), back(net)], [gross, net]);
    expect(u.mode).toBe('creation');
    expect(u.rows.map((r) => [r.price, r.priceBrutto])).toEqual([
      [null, '9.99'],
      ['10', '12.3'],
    ]);
  });

  it('lets a changed net price win, and treats rows without a stored row as on create', () => {
    const u = updatePrices('creation', [{ ...back(gross), price: '8' }, back(gross)], [gross, undefined]);
    expect(u.rows.map((r) => [r.price, r.priceBrutto])).toEqual([
      ['8', '9.99'],
      ['8.122', '9.99'],
    ]);
  });

  it('decides the mode of a record-mode invoice from the rows sent', () => {
    expect(updatePrices('record', [back(net)], [undefined]).mode).toBe('record');
    expect(updatePrices('record', [{ price: '10' }], [undefined]).mode).toBe('creation');
  });
});
