/**
 * The control statement and the VAT return of one month, worked by hand (issue #37): every section's lines,
 * the XML attributes, the return's rows and their agreement with the statement, a late purchase invoice as
 * a supplementary statement, and the quarter.
 */
import { dec, sum } from '@bm/money';
import { describe, expect, it } from 'vitest';
import { inputVatLines, toEur } from '../vat/input-vat.js';
import type { VatCodeDef } from '../vat/vat-selection.js';
import { classify, type PurchaseDoc, type SalesDoc } from './classify.js';
import { controlStatement, type ManualFigures } from './control-statement.js';
import { parseFilingPeriod } from './period.js';
import { fullFiling, supplementary } from './supplementary.js';
import { RETURN_ROWS, supplementaryRows, vatReturn } from './vat-return.js';
import { easterSunday, isWorkingDay, nextWorkingDay } from './working-days.js';
import { controlStatementXml, streetParts, vatReturnXml } from './xml.js';

const code = (id: string, kind: VatCodeDef['kind'], rate: string): VatCodeDef => ({
  id,
  code: id,
  type: 'I',
  country: 'SK',
  rate,
  validFrom: '2025-01-01',
  validTo: null,
  kind,
  paragraphs: [],
});
const I23 = code('I-SK23', 'standard', '23');
const I19 = code('I-SK19', 'reduced', '19');
const IC23 = code('I-SK23-IC', 'intraCommunityAcquisition', '23');
const RC23 = code('I-SK23-RC', 'domesticReverseCharge', '23');
const SV23 = code('I-SK23-SV', 'foreignServices', '23');
const row = (c: VatCodeDef, localSum: string, deductiblePercent = '100') => ({
  code: c,
  localSum,
  deductiblePercent,
});

let n = 0;
const sale = (s: Partial<SalesDoc>): SalesDoc => ({
  id: `00000000-0000-0000-0000-0000000000${String(++n).padStart(2, '0')}`,
  number: `OF${n}`,
  taxPoint: '2027-01-10',
  buyerVatNumber: 'SK2020000001',
  creditNote: false,
  correctedNumber: null,
  lines: [],
  reverseCharge: [],
  ...s,
});
const purchase = (p: Partial<PurchaseDoc> & { rows: ReturnType<typeof row>[] }): PurchaseDoc => {
  const inputVat = inputVatLines(p.rows);
  const base = sum(p.rows.map((r) => r.localSum));
  return {
    id: `00000000-0000-0000-0000-0000000001${String(++n).padStart(2, '0')}`,
    number: `DF ${n}`,
    taxPoint: '2027-01-15',
    supplierVatNumber: 'SK2020000009',
    simplified: false,
    creditNote: base.isNegative(),
    correctedNumber: null,
    total: base.plus(sum(inputVat.filter((l) => !l.selfAssessed).map((l) => l.vat))).toFixed(2),
    inputVat,
    ...p,
  };
};

const sales = [
  sale({
    number: 'OF1',
    lines: [
      { kind: 'standard', rate: '23', base: '1000.00', vat: '230.00' },
      { kind: 'reduced', rate: '19', base: '200.00', vat: '38.00' },
      { kind: 'reduced', rate: '5', base: '100.00', vat: '5.00' },
    ],
  }),
  sale({
    number: 'OF2',
    lines: [{ kind: 'domesticReverseCharge', rate: '0', base: '3000.00', vat: '0.00' }],
    reverseCharge: [
      { letter: 'g', commodityCode: '72081000', quantity: '250.0000', unit: 'kg', base: '3000.00' },
    ],
  }),
  sale({
    number: 'OF3',
    buyerVatNumber: 'DE123456789',
    lines: [{ kind: 'intraCommunity', rate: '0', base: '5000.00', vat: '0.00' }],
  }),
  sale({
    number: 'OF3S',
    buyerVatNumber: 'DE123456789',
    lines: [{ kind: 'intraCommunityServices', rate: '0', base: '700.00', vat: '0.00' }],
  }),
  sale({
    number: 'OF4',
    buyerVatNumber: null,
    lines: [{ kind: 'export', rate: '0', base: '800.00', vat: '0.00' }],
  }),
  sale({
    number: 'OF5',
    buyerVatNumber: null,
    lines: [{ kind: 'oss', rate: '21', base: '100.00', vat: '21.00' }],
  }),
  sale({
    number: 'OF6',
    creditNote: true,
    correctedNumber: 'OF1',
    lines: [{ kind: 'standard', rate: '23', base: '-100.00', vat: '-23.00' }],
  }),
  sale({
    number: 'OF7',
    buyerVatNumber: null,
    lines: [{ kind: 'standard', rate: '23', base: '50.00', vat: '11.50' }],
  }),
];
const purchases = [
  purchase({ number: 'F-400', rows: [row(I23, '400.00')] }),
  purchase({ number: 'F-100', rows: [row(I19, '100.00', '50')] }),
  purchase({ number: 'AT-1', supplierVatNumber: 'ATU12345675', rows: [row(IC23, '2000.00')] }),
  purchase({ number: 'RC-1', rows: [row(RC23, '1000.00')] }),
  purchase({ number: 'US-1', supplierVatNumber: null, rows: [row(SV23, '300.00')] }),
  purchase({ number: 'BLOK-1', simplified: true, supplierVatNumber: null, rows: [row(I23, '100.00')] }),
  purchase({ number: 'BLOK-2', simplified: true, rows: [row(I23, '3000.00')] }),
  purchase({ number: 'DOB-1', correctedNumber: 'F-400', rows: [row(I23, '-40.00')] }),
];
const manual: ManualFigures = {
  d1: { turnover: '1230', base23: '1000', vat23: '230', base19: '0', vat19: '0', base5: '0', vat5: '0' },
  d2: { base23: '0', vat23: '0', base19: '100', vat19: '19', base5: '0', vat5: '0' },
};

describe('a month of documents of every kind (issue #37)', () => {
  const problems: never[] = [];
  const entries = classify(sales, purchases, problems);
  const s = controlStatement(entries, manual);
  const ids = (l: { documentIds: string[] }) => l.documentIds.length;

  it('lists each section as the instructions define it', () => {
    expect(problems).toEqual([]);
    expect(s.A1.map(({ documentIds, ...l }) => l)).toEqual([
      {
        partnerVatNumber: 'SK2020000001',
        documentNumber: 'OF1',
        taxPoint: '2027-01-10',
        base: '1000.00',
        vat: '230.00',
        rate: '23',
      },
      {
        partnerVatNumber: 'SK2020000001',
        documentNumber: 'OF1',
        taxPoint: '2027-01-10',
        base: '200.00',
        vat: '38.00',
        rate: '19',
      },
      {
        partnerVatNumber: 'SK2020000001',
        documentNumber: 'OF1',
        taxPoint: '2027-01-10',
        base: '100.00',
        vat: '5.00',
        rate: '5',
      },
    ]);
    expect(s.A2).toMatchObject([
      {
        documentNumber: 'OF2',
        base: '3000.00',
        commodityCode: '7208',
        goodsKind: null,
        quantity: '250.00',
        unit: 'kg',
      },
    ]);
    expect(
      s.B1.map((l) => [l.documentNumber, l.partnerVatNumber, l.base, l.vat, l.rate, l.deducted]),
    ).toEqual([
      ['AT-1', 'ATU12345675', '2000.00', '460.00', '23', '460.00'],
      ['RC-1', 'SK2020000009', '1000.00', '230.00', '23', '230.00'],
      ['US-1', null, '300.00', '69.00', '23', '69.00'],
    ]);
    expect(s.B2.map((l) => [l.documentNumber, l.base, l.vat, l.rate, l.deducted])).toEqual([
      ['F-400', '400.00', '92.00', '23', '92.00'],
      ['F-100', '100.00', '19.00', '19', '9.50'],
    ]);
    expect(s.B31).toMatchObject({ base: '100.00', vat: '23.00', deducted: '23.00' });
    expect(s.B32).toMatchObject([
      { partnerVatNumber: 'SK2020000009', base: '3000.00', vat: '690.00', deducted: '690.00' },
    ]);
    expect(s.C1).toMatchObject([
      { documentNumber: 'OF6', originalNumber: 'OF1', base: '-100.00', vat: '-23.00', rate: '23' },
    ]);
    expect(s.C2).toMatchObject([
      { documentNumber: 'DOB-1', originalNumber: 'F-400', base: '-40.00', vat: '-9.20', deducted: '-9.20' },
    ]);
    expect(s.D1).toEqual({
      turnover: '1230.00',
      base: '1000.00',
      vat: '230.00',
      baseReduced: '0.00',
      vatReduced: '0.00',
    });
    expect(s.D2).toEqual({ base: '50.00', vat: '11.50', baseReduced: '100.00', vatReduced: '19.00' });
    expect([...s.A1, ...s.B1, ...s.B2].every((l) => ids(l) === 1)).toBe(true);
  });

  it('leaves intra-community supplies and services, exports and OSS sales out of the statement', () => {
    const numbers = JSON.stringify(s);
    for (const n of ['OF3', 'OF3S', 'OF4', 'OF5']) expect(numbers).not.toContain(`"${n}"`);
  });

  it('gives the return rows worked by hand, and they agree with the statement', () => {
    const r = vatReturn(entries, manual);
    expect(r).toEqual({
      r01: '300.00',
      r01a: '100.00',
      r02: '57.00',
      r02a: '5.00',
      r03: '2050.00',
      r04: '471.50',
      r07: '2000.00',
      r08: '460.00',
      r09b: '1300.00',
      r10b: '299.00',
      r13: '5800.00',
      r14: '5000.00',
      r15: '800.00',
      r17: '1292.50',
      r18: '9.50',
      r19: '1564.00',
      // Issue #44: of which §51(1)(a), a domestic supplier's invoice (B.2, B.3): 9.50 at 19 % (F-100);
      // 92.00 (F-400) + 23.00 (B.3.1) + 690.00 (B.3.2) = 805.00 at 23 %; the self-assessed B.1 (759.00) not.
      r20: '9.50',
      r21: '805.00',
      r24: '-100.00',
      r25: '-23.00',
      r28: '9.20',
      r33: '294.80',
    });
    const all = (ls: { vat?: string; deducted?: string }[], f: 'vat' | 'deducted') =>
      sum(ls.map((l) => l[f] ?? '0'));
    const output = all([...s.A1, ...s.B1, ...s.C1], 'vat')
      .plus(dec(s.D1!.vat))
      .plus(s.D1!.vatReduced)
      .plus(s.D2!.vat)
      .plus(s.D2!.vatReduced);
    expect(output.toFixed(2)).toBe(dec(r.r17).plus(r.r25).toFixed(2));
    const deducted = all([...s.B1, ...s.B2, s.B31!, ...s.B32, ...s.C2], 'deducted');
    expect(deducted.toFixed(2)).toBe(sum([r.r18, r.r19]).minus(r.r28).toFixed(2));
    const domestic = all([...s.B2, s.B31!, ...s.B32], 'deducted');
    expect(domestic.toFixed(2)).toBe(sum([r.r20, r.r21]).toFixed(2));
  });

  it('writes the KVDPH_2025 XML with the official names', () => {
    const xml = controlStatementXml(fullFiling(s), parseFilingPeriod('2027-01', 'month') as any, 'R', {
      vatNumber: 'SK2020000000',
      taxNumber: '2020000000',
      name: 'Demo s.r.o.',
      country: 'SK',
      city: 'Bratislava',
      postalCode: '811 01',
      street: 'Hlavná 1',
      streetNumber: null,
      phone: null,
      email: 'a@b.sk',
      taxOffice: 'Daňový úrad Bratislava',
      authorizedPerson: null,
    });
    expect(xml).toContain('<KVDPH_2025 xmlns="https://ekr.financnasprava.sk/Formulare/XSD/kv_dph_2025.xsd">');
    expect(xml).toContain('<IcDphPlatitela>SK2020000000</IcDphPlatitela>');
    expect(xml).toContain('<Druh>R</Druh>');
    expect(xml).toMatch(/<Obdobie>\s*<Rok>2027<\/Rok>\s*<Mesiac>1<\/Mesiac>\s*<\/Obdobie>/);
    expect(xml).toContain('<A1 Odb="SK2020000001" F="OF1" Den="2027-01-10" Z="1000.00" D="230.00" S="23"/>');
    expect(xml).toContain(
      '<A2 Odb="SK2020000001" F="OF2" Den="2027-01-10" Z="3000.00" TK="7208" Mn="250.00" MJ="kg"/>',
    );
    expect(xml).toContain(
      '<B2 Dod="SK2020000009" F="F-100" Den="2027-01-15" Z="100.00" D="19.00" S="19" O="9.50"/>',
    );
    expect(xml).toContain('<B31 Z="100.00" D="23.00" O="23.00"/>');
    expect(xml).toContain('<C1 Odb="SK2020000001" FO="OF6" FP="OF1" ZR="-100.00" DR="-23.00" S="23"/>');
    expect(xml).toContain(
      '<C2 Dod="SK2020000009" FO="DOB-1" FP="F-400" ZR="-40.00" DR="-9.20" S="23" OR="-9.20"/>',
    );
    expect(xml).toContain('<D1 SumaObratov="1230.00" Z="1000.00" D="230.00" ZZn="0.00" DZn="0.00"/>');
    expect(xml).toContain('<PSC>81101</PSC>');
    // Issue #44: the street and its number apart; no correction code outside a supplementary filing.
    expect(xml).toMatch(/<Ulica>Hlavná<\/Ulica>\s*<Cislo>1<\/Cislo>/);
    expect(xml).not.toContain('KOpr');
  });

  it('carries only a late purchase invoice in the supplementary statement', () => {
    const late = purchase({ number: 'LATE-7', rows: [row(I23, '10.00')] });
    const after = controlStatement(classify(sales, [...purchases, late], []), manual);
    const d = supplementary(after, s);
    expect(d.B2.map((l: any) => [l.documentNumber, l.base, l.vat, l.deducted, l.correction])).toEqual([
      ['LATE-7', '10.00', '2.30', '2.30', '2'],
    ]);
    for (const k of ['A1', 'A2', 'B1', 'B32', 'C1', 'C2'] as const) expect(d[k]).toEqual([]);
    expect([d.B31, d.D1, d.D2]).toEqual([[], [], []]);
  });

  it('names documents a section cannot carry', () => {
    const problems: any[] = [];
    classify(
      [
        sale({
          number: 'OF9',
          creditNote: true,
          lines: [{ kind: 'standard', rate: '23', base: '-1.00', vat: '-0.23' }],
        }),
      ],
      [purchase({ number: 'X', supplierVatNumber: null, rows: [row(I23, '5.00')] })],
      problems,
    );
    expect(problems.map((p) => [p.number, p.field])).toEqual([
      ['OF9', 'correctedInvoiceId'],
      ['X', 'partnerId'],
    ]);
  });
});

describe('periods and amounts', () => {
  it('parses months and quarters and refuses the other length', () => {
    expect(parseFilingPeriod('2027-Q1', 'quarter')).toMatchObject({
      months: ['2027-01', '2027-02', '2027-03'],
      // Issue #44: 25 April 2027 is a Sunday, so the deadline is Monday the 26th (§27(2) of Act 563/2009).
      deadline: '2027-04-26',
      quarter: 1,
    });
    expect(parseFilingPeriod('2027-12', 'month')).toMatchObject({
      months: ['2027-12'],
      deadline: '2028-01-25',
    });
    expect(parseFilingPeriod('2027-Q1', 'month')).toMatch(/files monthly/);
    expect(parseFilingPeriod('2027-01', 'quarter')).toMatch(/files quarterly/);
    expect(parseFilingPeriod('2027-13', 'month')).toMatch(/expected a month/);
  });
  it('converts CZK at the tax point rate and computes input VAT in EUR', () => {
    expect(toEur('1000.00', '25.125')).toBe('39.80');
    expect(inputVatLines([row(I23, '39.80', '100')])).toMatchObject([
      { base: '39.80', vat: '9.15', deducted: '9.15', selfAssessed: false },
    ]);
  });
});

describe('issue #44: deadlines, the DPHv25 body, supplementary filings', () => {
  it('moves a deadline on a weekend or a day of rest to the next working day', () => {
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
    // 25 Dec 2026 (Friday, Christmas) → Monday 28 Dec (26th a Saturday, 27th a Sunday).
    expect(nextWorkingDay('2026-12-25')).toBe('2026-12-28');
    // 25 Jan 2026 is a Sunday → Monday 26 Jan.
    expect(parseFilingPeriod('2025-12', 'month')).toMatchObject({ deadline: '2026-01-26' });
    // 25 Oct 2025 is a Saturday → Monday 27 Oct.
    expect(parseFilingPeriod('2025-09', 'month')).toMatchObject({ deadline: '2025-10-27' });
    // Easter Monday 2027 (29 March) is not the 25th; Good Friday 2027 is 26 March, the day after a 25th.
    expect(nextWorkingDay('2027-03-26')).toBe('2027-03-30');
    // 8 May is a working day in 2026 only; 17 Nov no longer a day of rest from 2025.
    expect(isWorkingDay('2026-05-08')).toBe(true);
    expect(isWorkingDay('2025-05-08')).toBe(false);
    expect(isWorkingDay('2025-11-17')).toBe(true);
    expect(isWorkingDay('2024-11-18')).toBe(true);
    expect(parseFilingPeriod('2027-10', 'month')).toMatchObject({ deadline: '2027-11-25' });
  });

  it('takes the house number apart from the street', () => {
    expect(streetParts('Hlavná 12', null)).toEqual({ street: 'Hlavná', number: '12' });
    expect(streetParts('Nám. SNP 3/A', null)).toEqual({ street: 'Nám. SNP', number: '3/A' });
    expect(streetParts('Mlynské nivy 1234/56', null)).toEqual({ street: 'Mlynské nivy', number: '1234/56' });
    expect(streetParts('Hlavná', null)).toEqual({ street: 'Hlavná', number: null });
    expect(streetParts('Hlavná 12', '14')).toEqual({ street: 'Hlavná 12', number: '14' });
  });

  it('a supplementary return carries r36 and r37 against the last filing', () => {
    const filed = { r03: '1000.00', r04: '230.00', r17: '230.00', r32: '230.00', r35: '230.00' };
    const now = { r03: '1500.00', r04: '345.00', r17: '345.00', r32: '345.00', r35: '345.00' };
    expect(supplementaryRows(now, filed)).toEqual({ ...now, r36: '115.00', r37: '115.00' });
    const excess = { r19: '500.00', r33: '155.00' };
    expect(supplementaryRows(excess, filed)).toEqual({ ...excess, r36: '-385.00', r37: '-230.00' });
  });

  it('writes every DPHv25 row in the schema’s order, splneniePodmienok between r32 and r33, no r38', () => {
    const xml = vatReturnXml(
      { r03: '1000.00', r04: '230.00' },
      RETURN_ROWS,
      parseFilingPeriod('2027-01', 'month') as any,
      'R',
      {
        vatNumber: 'SK2020000000',
        taxNumber: '2020000000',
        name: 'Demo s.r.o.',
        country: 'SK',
        city: 'Bratislava',
        postalCode: '811 01',
        street: 'Hlavná 1',
        streetNumber: null,
        phone: null,
        email: null,
        taxOffice: 'Daňový úrad Bratislava',
        authorizedPerson: { name: 'Ján Novák', phone: '+421 900 000 000', email: 'jan@demo.sk' },
      },
      '2027-02-10',
    );
    const order = [...xml.matchAll(/<(r\d+[a-e]?|splneniePodmienok)\b/g)].map((m) => m[1]);
    expect(order).toEqual([
      ...RETURN_ROWS.slice(0, RETURN_ROWS.indexOf('r33')),
      'splneniePodmienok',
      ...RETURN_ROWS.slice(RETURN_ROWS.indexOf('r33')),
    ]);
    expect(order).toContain('r11c');
    expect(order).toContain('r23c');
    expect(order).not.toContain('r38');
    expect(xml).toMatch(/<danovyUrad>Daňový úrad Bratislava<\/danovyUrad>\s*<nevzniklaPov>0<\/nevzniklaPov>/);
    expect(xml).toMatch(/<ulica>Hlavná<\/ulica>\s*<cislo>1<\/cislo>/);
    expect(xml).toMatch(/<opravnenaOsoba>\s*<menoPriezvisko>Ján Novák<\/menoPriezvisko>/);
    expect(xml).toContain('<datumVyhlasenia>10.2.2027</datumVyhlasenia>');
  });

  it('a changed D.2 and a removed A.1 line: the filed rows with 1, the new with 2, as filed (no differences)', () => {
    const filed = controlStatement(classify(sales, purchases, []), manual);
    const changedManual = { ...manual, d2: { ...manual.d2!, base23: '100.00', vat23: '23.00' } };
    const now = controlStatement(
      classify(
        sales.filter((x) => x.number !== 'OF1'),
        purchases,
        [],
      ),
      changedManual,
    );
    const d = supplementary(now, filed);
    expect(d.A1.map((l: any) => [l.documentNumber, l.rate, l.base, l.correction])).toEqual([
      ['OF1', '23', '1000.00', '1'],
      ['OF1', '19', '200.00', '1'],
      ['OF1', '5', '100.00', '1'],
    ]);
    expect(d.D2.map((x: any) => [x.base, x.vat, x.correction])).toEqual([
      [filed.D2!.base, filed.D2!.vat, '1'],
      [now.D2!.base, now.D2!.vat, '2'],
    ]);
    expect([filed.D2!.base, now.D2!.base]).toEqual(['50.00', '150.00']);
  });
});
