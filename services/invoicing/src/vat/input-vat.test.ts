/**
 * Self-assessment of received e-invoices (issue #37): which kind a VAT category calls for, and the code at
 * the home standard rate valid on the tax point.
 */
import { describe, expect, it } from 'vitest';
import { selfAssessedKindOf, standardSelfAssessedCode } from './input-vat.js';
import type { VatCodeDef } from './vat-selection.js';

const code = (
  c: string,
  kind: string,
  rate: string,
  validFrom: string,
  validTo: string | null,
): VatCodeDef => ({
  id: c,
  code: c,
  type: 'I',
  country: 'SK',
  rate,
  validFrom,
  validTo,
  kind: kind as VatCodeDef['kind'],
  paragraphs: [],
});

describe('self-assessment of a received e-invoice', () => {
  it('AE from home is domestic reverse charge, from abroad a foreign service; K an acquisition', () => {
    expect(selfAssessedKindOf('AE', 'SK', 'SK')).toBe('domesticReverseCharge');
    expect(selfAssessedKindOf('AE', null, 'SK')).toBe('domesticReverseCharge');
    expect(selfAssessedKindOf('AE', 'CZ', 'SK')).toBe('foreignServices');
    expect(selfAssessedKindOf('K', 'DE', 'SK')).toBe('intraCommunityAcquisition');
    for (const c of ['S', 'Z', 'E', 'G', 'O']) expect(selfAssessedKindOf(c, 'CZ', 'SK')).toBeNull();
  });

  it('takes the highest rate of the kind valid on the tax point', () => {
    const codes = [
      code('I-SK20-RC', 'domesticReverseCharge', '20', '2011-01-01', '2024-12-31'),
      code('I-SK23-RC', 'domesticReverseCharge', '23', '2025-01-01', null),
      code('I-SK19-RC', 'domesticReverseCharge', '19', '2025-01-01', null),
      code('I-SK23-IC', 'intraCommunityAcquisition', '23', '2025-01-01', null),
    ];
    expect(standardSelfAssessedCode(codes, 'SK', 'domesticReverseCharge', '2027-01-10')?.code).toBe(
      'I-SK23-RC',
    );
    expect(standardSelfAssessedCode(codes, 'SK', 'domesticReverseCharge', '2024-06-30')?.code).toBe(
      'I-SK20-RC',
    );
    expect(standardSelfAssessedCode(codes, 'SK', 'foreignServices', '2027-01-10')).toBeNull();
    expect(standardSelfAssessedCode(codes, 'CZ', 'domesticReverseCharge', '2027-01-10')).toBeNull();
  });
});
