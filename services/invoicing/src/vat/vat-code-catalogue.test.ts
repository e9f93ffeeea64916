import { describe, expect, it } from 'vitest';
import { rateRuns, vatCodeCatalogue } from './vat-code-catalogue.js';

describe('VAT code catalogue (DESIGN §6, EU rate table)', () => {
  const sk = vatCodeCatalogue('SK');
  const byCode = new Map(sk.map((c) => [c.code, c]));

  it('has Slovakia 20 % until 2024-12-31 and 23 % from 2025-01-01', () => {
    expect(byCode.get('SK20')).toMatchObject({
      rate: '20',
      kind: 'standard',
      validFrom: '2011-01-01',
      validTo: '2024-12-31',
      type: 'O',
    });
    expect(byCode.get('SK23')).toMatchObject({
      rate: '23',
      kind: 'standard',
      validFrom: '2025-01-01',
      validTo: null,
    });
    expect(byCode.get('SK5')).toMatchObject({ rate: '5', kind: 'reduced', validFrom: '2025-01-01' });
    expect(byCode.get('SK10')).toMatchObject({
      rate: '10',
      kind: 'reduced',
      validFrom: '1970-01-01',
      validTo: '2024-12-31',
    });
  });

  it('splits a rate that comes back after a gap into two codes', () => {
    expect(byCode.get('SK19')).toMatchObject({ kind: 'reduced', validFrom: '2025-01-01', validTo: null });
    expect(byCode.get('SK19-2010')).toMatchObject({
      kind: 'standard',
      validFrom: '1970-01-01',
      validTo: '2010-12-31',
    });
  });

  it('merges a rate that stays in force across periods (CZ 21 %)', () => {
    const cz21 = rateRuns('CZ').filter((r) => r.rate === '21');
    expect(cz21).toEqual([{ rate: '21', kind: 'standard', from: '1970-01-01', to: null }]);
  });

  it('has input codes, zero-rated codes and OSS codes of the other member states', () => {
    expect(byCode.get('I-SK23')).toMatchObject({ type: 'I', rate: '23' });
    expect(byCode.get('SK0-IC')).toMatchObject({ kind: 'intraCommunity', rate: '0' });
    expect(byCode.get('SK0-IC')!.paragraphs.filter((p) => p.isDefault)).toHaveLength(1);
    expect(byCode.get('OSS-CZ21')).toMatchObject({ country: 'CZ', kind: 'oss', rate: '21' });
    expect(byCode.get('OSS-DE19')).toMatchObject({ country: 'DE', rate: '19', validFrom: '2021-01-01' });
    expect(byCode.get('OSS-DE16')).toMatchObject({ validFrom: '2020-07-01', validTo: '2020-12-31' });
    expect(byCode.get('OSS-AT20')).toMatchObject({ country: 'AT', rate: '20' });
    expect(sk.some((c) => c.country === 'GB')).toBe(false);
    expect(sk.some((c) => c.code === 'OSS-SK23')).toBe(false);
  });

  it('gives every code a unique code', () => {
    expect(new Set(sk.map((c) => c.code)).size).toBe(sk.length);
  });
});
