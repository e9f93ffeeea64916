/** Files that hold secrets (issue #9, #12): readable by their owner only. */
import { chmodSync, writeFileSync } from 'node:fs';

/** Writes a secret file readable by its owner only (mode 0600, also when it existed before). */
export function writeSecret(file: string, content: string): void {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600);
}
