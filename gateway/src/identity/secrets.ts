/**
 * Slow hashes for passwords and client secrets (DESIGN §3): scrypt from node:crypto, compared in
 * constant time. Format: `scrypt$N$r$p$<salt b64url>$<hash b64url>`.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

const derive = (secret: string, salt: Buffer, n: number, r: number, p: number) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

/** Hashes a secret with a fresh 16-byte salt. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** True when `secret` matches `stored`; a malformed hash never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(secret, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random secret, verified against when a user or client does not exist (same timing). */
export const DUMMY_HASH = await hashSecret(randomBytes(16).toString('hex'));

/** A random URL-safe secret of `bytes` bytes of entropy. */
export const randomSecret = (bytes = 24): string => randomBytes(bytes).toString('base64url');
