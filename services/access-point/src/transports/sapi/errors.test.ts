/**
 * Whose problem a SAPI-SK answer is (issue #43): the spec's status mapping where a body carries no
 * category, the body's category and `retryable` where it does, 409 always retried, an answer that is not
 * SAPI-SK's never the document's fault, and the rate-limit headers.
 */
import { describe, expect, it } from 'vitest';
import { errorOfAnswer, isDocumentsFault, rateLimitPauseUntil, retryAfterMs } from './errors.js';
import { CredentialHolds } from './holds.js';

const sapiBody = (o: Record<string, unknown>) => ({ error: { code: 'SAPI-X', message: 'm', ...o } });

describe('errorOfAnswer', () => {
  it.each([
    [400, 'VALIDATION', false],
    [404, 'VALIDATION', false],
    [422, 'VALIDATION', false],
    [401, 'AUTH', false],
    [403, 'AUTH', false],
    [423, 'AUTH', false],
    [409, 'PROCESSING', true],
    [429, 'TEMPORARY', true],
    [502, 'TEMPORARY', true],
    [503, 'TEMPORARY', true],
    [504, 'TEMPORARY', true],
    [500, 'PROCESSING', true],
  ])('a SAPI-SK body without a category, status %i → %s (retryable %s)', (status, category, retryable) => {
    const e = errorOfAnswer(status, '', sapiBody({}), null);
    expect([e.category, e.retryable, e.fromProvider]).toEqual([category, retryable, true]);
  });

  it('the body’s category and retryable win over the status; 409 is retried whatever the body says', () => {
    const e = errorOfAnswer(400, '', sapiBody({ category: 'TEMPORARY', retryable: true }), null);
    expect([e.category, e.retryable]).toEqual(['TEMPORARY', true]);
    const p = errorOfAnswer(500, '', sapiBody({ category: 'PERMANENT', retryable: false }), null);
    expect([p.category, p.retryable]).toEqual(['PERMANENT', false]);
    const c = errorOfAnswer(409, '', sapiBody({ category: 'PROCESSING', retryable: false }), null);
    expect(c.retryable).toBe(true);
  });

  it('only VALIDATION or PERMANENT in the provider’s own body is the document’s fault', () => {
    expect(isDocumentsFault(errorOfAnswer(422, '', sapiBody({ category: 'VALIDATION' }), null))).toBe(true);
    expect(isDocumentsFault(errorOfAnswer(400, '', sapiBody({ category: 'PERMANENT' }), null))).toBe(true);
    expect(isDocumentsFault(errorOfAnswer(401, '', sapiBody({ category: 'AUTH' }), null))).toBe(false);
    expect(isDocumentsFault(errorOfAnswer(423, '', sapiBody({}), null))).toBe(false);
    expect(isDocumentsFault(errorOfAnswer(409, '', sapiBody({}), null))).toBe(false);
    expect(isDocumentsFault(errorOfAnswer(500, '', sapiBody({ retryable: false }), null))).toBe(false);
  });

  it.each([
    [404, '<html>Not Found</html>'],
    [400, null],
    [422, { message: 'no code, no category' }],
    [502, '<html>Bad Gateway</html>'],
  ])('an answer without a SAPI-SK error body (status %i) is never the document’s fault', (status, body) => {
    const e = errorOfAnswer(status, 'Status', body, null);
    expect([e.category, e.retryable, e.fromProvider]).toEqual(['UNRECOGNISED', true, false]);
    expect(isDocumentsFault(e)).toBe(false);
  });

  it('401, 403 and 423 without a body still say the credentials were refused', () => {
    for (const s of [401, 403, 423]) expect(errorOfAnswer(s, '', null, null).category).toBe('AUTH');
  });

  it('carries Retry-After in seconds or as an HTTP date', () => {
    expect(errorOfAnswer(423, '', sapiBody({}), '600').retryAfterMs).toBe(600_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 10:00:30 GMT', Date.parse('2026-11-28T10:00:00Z'))).toBe(30_000);
  });
});

describe('rateLimitPauseUntil', () => {
  const now = Date.parse('2026-11-28T10:00:00Z');
  it('pauses only when nothing remains, until the reset (seconds from now, or a Unix time)', () => {
    expect(rateLimitPauseUntil('5', '30', now)).toBeNull();
    expect(rateLimitPauseUntil(null, '30', now)).toBeNull();
    expect(rateLimitPauseUntil('0', '30', now)).toBe(now + 30_000);
    expect(rateLimitPauseUntil('0', String(now / 1000 + 45), now)).toBe(now + 45_000);
    expect(rateLimitPauseUntil('0', null, now)).toBe(now + 1000);
  });
});

describe('CredentialHolds', () => {
  const refusal = errorOfAnswer(401, '', sapiBody({ category: 'AUTH', code: 'SAPI-AUTH-001' }), null);

  it('backs off exponentially to the maximum, once per window, and ends at the first success', () => {
    const h = new CredentialHolds({ baseMs: 1000, maxMs: 5000 });
    const recovered: string[] = [];
    h.onRecovered((k) => recovered.push(k));
    let t = 0;
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      h.refused('k', refusal, t);
      // A second refusal inside the window (a concurrent call) does not grow the hold.
      h.refused('k', refusal, t + 1);
      const until = Date.parse(h.view('k', t)!.nextTryAt);
      waits.push(until - t);
      expect(() => h.check('k', until - 1)).toThrow(/SAPI-AUTH-001|credentials refused/);
      expect(() => h.check('k', until)).not.toThrow();
      t = until;
    }
    expect(waits).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(h.view('k', t)!.failures).toBe(5);
    h.succeeded('k');
    expect(recovered).toEqual(['k']);
    expect(h.view('k', t)).toBeNull();
    h.succeeded('k');
    expect(recovered).toEqual(['k']);
  });

  it('a held call fails at once, marked held; a 423’s Retry-After lengthens the hold', () => {
    const h = new CredentialHolds({ baseMs: 1000, maxMs: 900_000 });
    const locked = errorOfAnswer(423, '', sapiBody({}), '600');
    h.refused('k', locked, 0);
    try {
      h.check('k', 1000);
      expect.unreachable();
    } catch (e: any) {
      expect([e.held, e.category, e.retryAfterMs]).toEqual([true, 'AUTH', 599_000]);
    }
    h.tryNow('k', 2000);
    expect(() => h.check('k', 2000)).not.toThrow();
  });

  it('a spent rate limit holds calls until its reset, as a retryable TEMPORARY', () => {
    const h = new CredentialHolds();
    h.pause('k', 5000);
    try {
      h.check('k', 1000);
      expect.unreachable();
    } catch (e: any) {
      expect([e.category, e.retryable, e.retryAfterMs, e.held]).toEqual(['TEMPORARY', true, 4000, true]);
    }
    expect(() => h.check('k', 5000)).not.toThrow();
  });
});
