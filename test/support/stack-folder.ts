/**
 * The local folder of a `pnpm start` run by a test (LOCAL_DIR): removed with its PostgreSQL cluster, which
 * lives elsewhere when the `postgres` user cannot enter the folder (`data/pgdata-location`, infra.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Removes `local` and the cluster its stack kept outside it, if any. */
export function removeStackFolder(local: string): void {
  let moved: string | undefined;
  try {
    moved = readFileSync(join(local, 'data', 'pgdata-location'), 'utf8').trim();
  } catch {}
  if (moved) rmSync(moved, { recursive: true, force: true });
  rmSync(local, { recursive: true, force: true });
}
