import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, keyBytes } from './secrets.js';

describe('secrets at rest (issue #35)', () => {
  const key = randomBytes(32);
  const company = '6f1c1d7e-0000-4000-8000-000000000001';

  it('round-trips, never contains the secret, and differs each time', () => {
    const a = encryptSecret(key, company, 'tajné-heslo-123');
    const b = encryptSecret(key, company, 'tajné-heslo-123');
    expect(a).not.toBe(b);
    expect(a).not.toContain('tajné');
    expect(a.startsWith('v1:')).toBe(true);
    expect(decryptSecret(key, company, a)).toBe('tajné-heslo-123');
  });

  it('refuses another key, another company, or a changed text', () => {
    const a = encryptSecret(key, company, 's3cret');
    expect(() => decryptSecret(randomBytes(32), company, a)).toThrow();
    expect(() => decryptSecret(key, '6f1c1d7e-0000-4000-8000-000000000002', a)).toThrow();
    const parts = a.split(':');
    parts[3] = Buffer.from('x').toString('base64');
    expect(() => decryptSecret(key, company, parts.join(':'))).toThrow();
  });

  it('reads a key as base64 or hex, 32 bytes only', () => {
    expect(keyBytes(key.toString('base64'))?.equals(key)).toBe(true);
    expect(keyBytes(key.toString('hex'))?.equals(key)).toBe(true);
    expect(keyBytes(randomBytes(16).toString('base64'))).toBeNull();
  });
});
