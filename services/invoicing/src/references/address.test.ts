import { describe, expect, it } from 'vitest';
import { composeAddress } from './address.js';

describe('composeAddress', () => {
  it.each([
    [['Námestie SNP 5', '97401', 'Banská Bystrica'], 'Námestie SNP 5, 97401 Banská Bystrica'],
    [['Hlavná 1', null, 'Košice'], 'Hlavná 1, Košice'],
    [[null, '81101', 'Bratislava'], '81101 Bratislava'],
    [['Dlhá 2', ' ', null], 'Dlhá 2'],
    [[null, null, null], null],
  ] as const)('%j → %s', (parts, expected) => {
    expect(composeAddress(...parts)).toBe(expected);
  });
});
