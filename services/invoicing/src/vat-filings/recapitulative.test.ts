/**
 * The recapitulative statement (issue #44, §80 of Act 222/2004), worked by hand: lines per customer and
 * kind with their codes, a credit note in its own period, the changes an O and a D carry, and the XML's
 * pages of twelve records.
 */
import { describe, expect, it } from 'vitest';
import { parseFilingPeriod } from './period.js';
import { nameLines, recapXml } from './recap-xml.js';
import { type IcSupply, recapChanges, recapFiled, recapLines, recapTotals } from './recapitulative.js';

let n = 0;
const supply = (buyer: string | null, kind: IcSupply['kind'], base: string): IcSupply => ({
  documentId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  number: `OF${n}`,
  buyerVatNumber: buyer,
  kind,
  base,
});

describe('recapitulative statement', () => {
  it('sums per customer and kind, codes none, 1 and 2, ordered by country and number', () => {
    const problems: any[] = [];
    const lines = recapLines(
      [
        supply('DE123456789', 'goods', '5000.00'),
        supply('DE123456789', 'goods', '1200.50'),
        supply('DE123456789', 'services', '800.00'),
        supply('AT U12345675'.replace(' ', ''), 'triangular', '3000.00'),
        supply('de 123 456 789', 'goods', '-200.50'),
        supply(null, 'goods', '10.00'),
      ],
      problems,
    );
    expect(lines.map(({ documentIds: _d, ...l }) => l)).toEqual([
      { country: 'AT', vatNumber: 'U12345675', kind: 'triangular', code: '1', value: '3000.00' },
      { country: 'DE', vatNumber: '123456789', kind: 'goods', code: '', value: '6000.00' },
      { country: 'DE', vatNumber: '123456789', kind: 'services', code: '2', value: '800.00' },
    ]);
    expect(problems.map((p) => p.field)).toEqual(['partnerNumber3']);
    expect(recapTotals(lines)).toEqual({
      goods: '6000.00',
      triangular: '3000.00',
      services: '800.00',
      total: '9800.00',
    });
  });

  it('a credit note in a later period is that period’s negative line', () => {
    const lines = recapLines([supply('DE123456789', 'goods', '-500.00')], []);
    expect(lines.map((l) => [l.country, l.value, l.code])).toEqual([['DE', '-500.00', '']]);
  });

  it('O carries the lines filed with other figures (0 for one gone), D the lines never filed', () => {
    const filed = recapLines(
      [supply('DE123456789', 'goods', '5000.00'), supply('FR12345678901', 'services', '100.00')],
      [],
    );
    const now = recapLines(
      [supply('DE123456789', 'goods', '4500.00'), supply('CZ12345678', 'goods', '700.00')],
      [],
    );
    const { corrections, additions } = recapChanges(now, filed);
    expect(corrections.map((l) => [l.country, l.kind, l.value])).toEqual([
      ['DE', 'goods', '4500.00'],
      ['FR', 'services', '0.00'],
    ]);
    expect(additions.map((l) => [l.country, l.kind, l.value])).toEqual([['CZ', 'goods', '700.00']]);
    const afterO = recapFiled(filed, corrections);
    expect(afterO.map((l) => [l.country, l.value])).toEqual([['DE', '4500.00']]);
    expect(recapChanges(now, afterO)).toEqual({ corrections: [], additions });
  });

  it('writes pages of twelve records and the name on four lines', () => {
    const lines = recapLines(
      Array.from({ length: 13 }, (_, i) => supply(`DE1234567${String(i).padStart(2, '0')}`, 'goods', '1.00')),
      [],
    );
    const xml = recapXml(
      lines,
      '13.00',
      parseFilingPeriod('2027-01', 'month') as any,
      'R',
      {
        vatNumber: 'SK2020123456',
        taxNumber: '2020123456',
        name: 'Veľmi dlhý obchodný názov spoločnosti s ručením obmedzeným, organizačná zložka Bratislava',
        country: 'SK',
        city: 'Bratislava',
        postalCode: '811 01',
        street: 'Hlavná 1',
        streetNumber: null,
        phone: null,
        email: null,
        taxOffice: 'Daňový úrad Bratislava',
        authorizedPerson: { name: 'Jana Výkazová', phone: null, email: null },
      },
      '2027-02-10',
    );
    expect(xml.match(/<strana>/g)).toHaveLength(2);
    expect(xml.match(/<zaznam>/g)).toHaveLength(24);
    expect(xml.match(/<zaznamCast2>/g)).toHaveLength(24);
    expect(xml).toContain('<dic>2020123456</dic>');
    expect(xml).toMatch(/<riadny>1<\/riadny>\s*<opravny\/>\s*<dodatocny\/>/);
    expect(xml).toContain('<celkovaHodnota>13.00</celkovaHodnota>');
    expect(nameLines('A s.r.o.')).toEqual(['A s.r.o.', '', '', '']);
    expect(nameLines('x '.repeat(100)).length).toBe(4);
  });
});
