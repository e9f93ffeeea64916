import { describe, expect, it } from 'vitest';
import { numberingGaps } from './consistency.js';

const counter = (numberFormat: string, year: number, lastValue: number) => ({
  companyId: 'c',
  ordnerId: 'o',
  ordnerCode: 'VY',
  numberFormat,
  year,
  lastValue,
});

describe('record numbers gapless per ordner and year (issue #36)', () => {
  it('names the numbers up to the counter that no document carries', () => {
    const used = new Set(['VY202600001', 'VY202600002', 'VY202600004', 'X-HAND']);
    expect(numberingGaps(counter('VY{yyyy}{seq:5}', 2026, 5), used)).toEqual(['VY202600003', 'VY202600005']);
  });
  it('a year-less format has one counter (year 0); nothing missing is clean', () => {
    const used = new Set(['OF1', 'OF2', 'OF3']);
    expect(numberingGaps(counter('OF{seq}', 0, 3), used)).toEqual([]);
    expect(numberingGaps(counter('OF{seq}', 0, 0), new Set())).toEqual([]);
  });
});
