/**
 * Where the local stack keeps what the operations commands need (issue #36): the data folder of
 * `pnpm start` (`LOCAL_DIR`, default `.local`), its superuser database URL (`data/urls.json`), the backup
 * folder (`BACKUP_DIR`, default `.local/backup`) and the status files the commands leave for the metrics
 * and the log (`.local/status/*.json`).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..', '..');
export const localDir = () => resolve(process.env.LOCAL_DIR ?? join(root, '.local'));
export const dataDir = () => join(localDir(), 'data');
export const statusDir = () => join(localDir(), 'status');
/** Put this on another disk: it is what survives the loss of the data directory. */
export const backupDir = () => resolve(process.env.BACKUP_DIR ?? join(localDir(), 'backup'));

/** The superuser URL of the local stack's PostgreSQL (written by `pnpm start`), or null. */
export function localDatabaseUrl(): string | null {
  const f = join(dataDir(), 'urls.json');
  if (!existsSync(f)) return null;
  return (JSON.parse(readFileSync(f, 'utf8')) as { databaseUrl?: string }).databaseUrl ?? null;
}

/** Writes status `name` (`check`, `backup`, `verify`, `receiver`) whole, for the metrics and the log. */
export function writeStatus(name: string, value: unknown): void {
  mkdirSync(statusDir(), { recursive: true });
  const f = join(statusDir(), `${name}.json`);
  writeFileSync(`${f}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${f}.tmp`, f);
}

/** Status `name`, or null. */
export function readStatus<T>(name: string): T | null {
  const f = join(statusDir(), `${name}.json`);
  try {
    return JSON.parse(readFileSync(f, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Whether process `pid` runs (on this machine; one of another user's counts: EPERM). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
