import { describe, expect, it } from 'vitest';
import { acceptsExplicitly, chooseFormat } from './negotiate.js';

describe('chooseFormat (DESIGN §2 "Response format")', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['application/json;q=0.5, application/xml', 'xml'],
    ['application/xml;q=0.2, application/json;q=0.9', 'json'],
    ['text/html, */*;q=0.1', 'json'],
    ['application/*', 'json'],
    ['text/html', null],
    ['application/pdf', null],
    ['application/json;q=0', null],
  ])('Accept %s → %s', (accept, expected) => {
    expect(chooseFormat(accept)).toBe(expected);
  });

  it('tells an explicit media type from a wildcard', () => {
    expect(acceptsExplicitly('application/pdf, */*', 'application/pdf')).toBe(true);
    expect(acceptsExplicitly('*/*', 'application/pdf')).toBe(false);
  });
});
