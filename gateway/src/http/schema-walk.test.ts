import { Amount, DateOnly, Decimal4, z } from '@bm/contracts';
import type { FieldError } from '@bm/errors';
import { describe, expect, it } from 'vitest';
import { renderJson } from './render-json.js';
import { businessDate, canonicalDecimal, normalizeInput, renderOutput } from './schema-walk.js';

const Row = z.object({
  itemId: z.string(),
  quantity: Decimal4().optional(),
  lotNumberID: z.string().optional(),
});
const Card = z.object({
  dateOperation: DateOnly().optional(),
  bonusPercent: Decimal4().nullable().optional(),
  comment: z.string().nullable().optional(),
  rows: z.array(Row),
  tags: z.array(z.string()).optional(),
});
const CardOut = Card.extend({
  id: z.string(),
  total: Amount(),
  rows: z.array(Row.extend({ costPrice: Decimal4() })),
});

const norm = (value: unknown, xml = false) => {
  const errors: FieldError[] = [];
  const out = normalizeInput(
    Card as any,
    CardOut as any,
    value,
    { xml, timeZone: 'Europe/Bratislava', ignore: ['PeriodYear'] },
    errors,
  );
  return { out, errors };
};

describe('normalizeInput (DESIGN §2)', () => {
  it('maps names case-insensitively, at every depth', () => {
    expect(norm({ ROWS: [{ ItemId: 'i', LOTNUMBERID: 'l', quantity: '2' }] }).out).toEqual({
      rows: [{ itemId: 'i', lotNumberID: 'l', quantity: '2' }],
    });
  });

  it('drops read-only reply fields and listed extras, and reports unknown fields with paths', () => {
    const { out, errors } = norm({
      id: 'x',
      total: '1',
      periodyear: '2025',
      rows: [{ itemId: 'i', costPrice: '1', size: 'L' }],
      colour: 1,
    });
    expect(out).toEqual({ rows: [{ itemId: 'i' }] });
    expect(errors).toEqual([
      { path: 'rows.0.size', message: 'unknown field' },
      { path: 'colour', message: 'unknown field' },
    ]);
  });

  it('refuses the NUL character in any string, naming the field', () => {
    const { errors } = norm({ comment: 'a\u0000b', rows: [{ itemId: 'i' }], tags: ['ok', '\u0000'] });
    expect(errors).toEqual([
      { path: 'comment', message: 'must not contain the NUL character' },
      { path: 'tags.1', message: 'must not contain the NUL character' },
    ]);
  });

  it('reads an empty XML element of a nullable field as null, of other fields as it is', () => {
    expect(norm({ bonusPercent: '', comment: '', dateOperation: '', rows: '' }, true).out).toEqual({
      bonusPercent: null,
      comment: null,
      dateOperation: '',
      rows: [],
    });
    expect(norm({ bonusPercent: '', comment: '', rows: [] }).out).toEqual({
      bonusPercent: '',
      comment: '',
      rows: [],
    });
  });

  it('unwraps XML array wrappers, single or repeated children', () => {
    expect(norm({ rows: { row: { itemId: 'a' } }, tags: { tag: ['x', 'y'] } }, true).out).toEqual({
      rows: [{ itemId: 'a' }],
      tags: ['x', 'y'],
    });
    expect(norm({ rows: '' }, true).out).toEqual({ rows: [] });
  });

  it('turns an ISO date-time into the calendar date in the company time zone', () => {
    expect(norm({ dateOperation: '2025-03-01T23:30:00Z', rows: [] }).out).toEqual({
      dateOperation: '2025-03-02',
      rows: [],
    });
    expect(businessDate('2025-03-01T10:00:00', 'Europe/Bratislava')).toBe('2025-03-01');
    expect(businessDate('2025-06-30T22:30:00.000Z', 'Europe/Bratislava')).toBe('2025-07-01');
    expect(businessDate('2025-06-30', 'Europe/Bratislava')).toBe('2025-06-30');
  });
});

describe('renderOutput', () => {
  it('writes decimal fields as exact JSON numbers in canonical form', () => {
    const out = renderOutput(
      CardOut as any,
      { id: 'x', total: '10.50', rows: [{ itemId: 'i', costPrice: '0.1000' }] },
      'json',
    );
    expect(JSON.stringify(out)).toBe('{"id":"x","total":10.5,"rows":[{"itemId":"i","costPrice":0.1}]}');
  });

  it('writes the decimal values of a record as numbers (the VAT return rows, issue #37)', () => {
    const Rows = z.object({ rows: z.record(z.string(), Amount()) });
    const value = { rows: { r01: '300.00', r33: '-294.80' } };
    const expected = '{"rows":{"r01":300,"r33":-294.8}}';
    expect(JSON.stringify(renderOutput(Rows as any, value, 'json'))).toBe(expected);
    expect(renderJson(Rows as any, value)).toBe(expected);
  });

  it.each([
    ['1.50', '1.5'],
    ['2.000', '2'],
    ['-0.00', '0'],
    ['120', '120'],
    ['-3.140', '-3.14'],
    ['100', '100'],
    ['-0', '0'],
    ['0.0', '0'],
    ['10.010', '10.01'],
    ['-100.00', '-100'],
    ['00', '0'],
    ['007.50', '7.5'],
    ['-00.5', '-0.5'],
    ['0.5', '0.5'],
    ['-0.0', '0'],
  ])('canonicalDecimal(%s) = %s', (a, b) => expect(canonicalDecimal(a)).toBe(b));
});
