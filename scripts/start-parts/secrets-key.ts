/**
 * The key that encrypts each company's access-point secrets at rest (issue #35): `SECRETS_KEY` or
 * `SECRETS_KEY_FILE` when given, else one generated once for the local default and kept in `.local`
 * (beside the data it protects; docs/operations.md says to keep a copy apart from the backups).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The environment the access-point connector gets for its key (nothing when one was given). */
export function localSecretsKey(local: string): { SECRETS_KEY_FILE?: string } {
  if (process.env.SECRETS_KEY || process.env.SECRETS_KEY_FILE) return {};
  const file = join(local, 'secrets-key');
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  return { SECRETS_KEY_FILE: file };
}
