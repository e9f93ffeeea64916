/** Array literals for `?::type[]` parameters (set-insert.ts): quoting and escaping as PostgreSQL reads them. */
import { describe, expect, it } from 'vitest';
import { pgArray } from './set-insert.js';

describe('pgArray', () => {
  it('quotes every element, escapes backslash and double quote, writes null and undefined as NULL', () => {
    expect(pgArray(['a', 'b"c', 'd\\e', null, undefined, 5, '', 'x,y}{'])).toBe(
      '{"a","b\\"c","d\\\\e",NULL,NULL,"5","","x,y}{"}',
    );
    expect(pgArray([])).toBe('{}');
    expect(pgArray(['\\"'])).toBe('{"\\\\\\""}');
  });
});
