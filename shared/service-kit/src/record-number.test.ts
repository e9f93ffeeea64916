import { describe, expect, it } from 'vitest';
import { formatRecordNumber, restartsYearly } from './record-number.js';

describe('record numbers', () => {
  it.each([
    ['VY{yyyy}{seq:5}', 2025, 7, 'VY202500007'],
    ['OF{yy}-{seq:3}', 2026, 12, 'OF26-012'],
    ['{seq}', 2026, 123456, '123456'],
    ['R{seq:2}', 2026, 123, 'R123'],
  ])('%s, %i, %i → %s', (f, y, s, r) => expect(formatRecordNumber(f, y, s)).toBe(r));

  it('restarts every year only when the format shows the year', () => {
    expect(['VY{yyyy}{seq:5}', 'OF{yy}-{seq:3}', 'OF{seq:6}', '{seq}'].map(restartsYearly)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
