/**
 * Secrets at rest (issue #35): a company's SAPI-SK client secret is stored only as AES-256-GCM
 * ciphertext, `v1:<iv>:<tag>:<data>` (base64 parts, a fresh 12-byte IV each time), under the key
 * `SECRETS_KEY` (32 bytes). The company id is the additional authenticated data, so a ciphertext copied
 * to another company's row does not decrypt. node:crypto only.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The 32 key bytes of `text` (base64 or 64 hex digits), or null. */
export function keyBytes(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  const b = Buffer.from(t, 'base64');
  return b.length === 32 ? b : null;
}

/** Encrypts `secret` of company `companyId`. */
export function encryptSecret(key: Buffer, companyId: string, secret: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(companyId));
  const data = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64'), c.getAuthTag().toString('base64'), data.toString('base64')].join(':');
}

/** Decrypts what {@link encryptSecret} made. @throws Error when the key, the company or the text is wrong */
export function decryptSecret(key: Buffer, companyId: string, stored: string): string {
  const [v, iv, tag, data] = stored.split(':');
  if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a stored secret (v1)');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  d.setAAD(Buffer.from(companyId));
  d.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([d.update(Buffer.from(data, 'base64')), d.final()]).toString('utf8');
}
