import { describe, expect, it } from 'vitest';
import { dec, fmt, round2, round4, sum } from '../src/index.js';

describe('money (DESIGN §2 "Numbers": half away from zero)', () => {
  it.each([
    ['2.345', '2.35'],
    ['-2.345', '-2.35'],
    ['2.344999', '2.34'],
    ['0.005', '0.01'],
    ['-0.005', '-0.01'],
  ])('round2(%s) = %s', (v, r) => expect(fmt(round2(v))).toBe(r));

  it('rounds unit costs to 4 decimals', () => {
    expect(fmt(round4(dec('100').div(3)))).toBe('33.3333');
    expect(fmt(round4('2.00005'))).toBe('2.0001');
  });

  it('adds without binary error', () => {
    expect(fmt(sum(['0.1', '0.2']))).toBe('0.3');
  });

  it('refuses binary fractions as input', () => {
    expect(() => dec(0.1)).toThrow(/pass a string/);
    expect(fmt(dec(3))).toBe('3');
  });
});
