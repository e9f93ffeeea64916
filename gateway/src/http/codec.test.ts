import { describe, expect, it } from 'vitest';
import { JsonNumber, parseJsonLossless, parseXmlBody, plainJson, singular, toXml } from './codec.js';

describe('parseJsonLossless', () => {
  it('keeps numbers as their exact source text, marked as numbers', () => {
    const parsed = parseJsonLossless('{"a":0.1,"b":[12345678901234.5678,-3e2],"c":"0.1","d":true}') as any;
    expect(parsed.a).toBeInstanceOf(JsonNumber);
    expect(parsed.c).toBe('0.1');
    expect(JSON.stringify(parsed)).toBe('{"a":0.1,"b":[12345678901234.5678,-3e2],"c":"0.1","d":true}');
    expect(plainJson(parsed)).toEqual({
      a: '0.1',
      b: ['12345678901234.5678', '-3e2'],
      c: '0.1',
      d: true,
    });
  });
});

describe('XML', () => {
  it('writes arrays as a wrapper with singular children and escapes text', () => {
    const xml = toXml('IssueCard', {
      recordNumber: 'VY1',
      rows: [{ name: 'A & B' }, { name: 'Ž' }],
      tags: ['x'],
      periodId: null,
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><IssueCard><recordNumber>VY1</recordNumber><rows><row><name>A &amp; B</name></row><row><name>Ž</name></row></rows><tags><tag>x</tag></tags><periodId/></IssueCard>',
    );
  });

  it('reads the root element content and refuses malformed documents', () => {
    expect(
      parseXmlBody('<?xml version="1.0"?><Unit><code>ks</code><name>kus &amp; more</name></Unit>'),
    ).toEqual({ code: 'ks', name: 'kus & more' });
    expect(() => parseXmlBody('<Unit><code>ks</Unit>')).toThrow();
    expect(() => parseXmlBody('<a/><b/>')).toThrow();
  });

  it.each([
    ['rows', 'row'],
    ['accountingEntries', 'accountingEntry'],
    ['items', 'item'],
    ['shortfalls', 'shortfall'],
    ['vatSummary', 'vatRate'],
  ])('singular(%s) = %s', (plural, one) => expect(singular(plural)).toBe(one));
});
