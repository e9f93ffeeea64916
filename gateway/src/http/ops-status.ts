/**
 * The state of the local stack's backups as the gateway shows it (issue #36): `pnpm start` and the
 * operations commands leave it in `OPS_STATUS_DIR` (`.local/status/*.json`); the readiness body carries it
 * (`backup`) without changing the status code (writes carry on in the degraded mode), and `GET /metrics`
 * has it as gauges:
 *
 * - `bm_wal_receiver_up` 1 while Barman's WAL receiver streams;
 * - `bm_backup_rpo_zero` 1 while commits wait for it (RPO 0), 0 when degraded or off;
 * - `bm_backup_last_base_backup_timestamp_seconds`, `bm_backup_last_verify_ok`,
 *   `bm_backup_last_verify_timestamp_seconds`;
 * - `bm_consistency_findings` and `bm_consistency_last_check_timestamp_seconds` of the last `pnpm check`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scrapeGauge } from '@bm/telemetry';

export interface BackupState {
  /** `synchronous` (RPO 0), `degraded` (the receiver is down: RPO > 0), `starting`, `off`. */
  mode: string;
  reason: string | null;
  lastBaseBackupAt: string | null;
  lastVerifyOk: boolean | null;
  lastVerifyAt: string | null;
}

const read = (dir: string, name: string): any => {
  try {
    return JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
  } catch {
    return null;
  }
};

/** The backup state in `dir`, or null when there is none (the stack was not started by `pnpm start`). */
export function backupState(dir: string | undefined): BackupState | null {
  if (!dir) return null;
  const receiver = read(dir, 'receiver');
  if (!receiver) return null;
  const backup = read(dir, 'backup');
  const verify = read(dir, 'verify');
  return {
    mode: receiver.mode,
    reason: receiver.reason ?? null,
    lastBaseBackupAt: backup?.ok ? (backup.backup?.endTime ?? backup.at) : null,
    lastVerifyOk: verify ? !!verify.ok : null,
    lastVerifyAt: verify?.at ?? null,
  };
}

const seconds = (iso: string | null | undefined) => (iso ? Date.parse(iso) / 1000 : undefined);

/** Registers the gauges reading `dir`; returns their removal. */
export function opsStatusGauges(dir: string | undefined): () => void {
  if (!dir) return () => {};
  const one = (name: string, help: string, value: () => number | undefined) =>
    scrapeGauge({
      name,
      help,
      read: async () => {
        const v = value();
        return v === undefined ? [] : [{ value: v }];
      },
    });
  const removers = [
    one('bm_wal_receiver_up', "1 while Barman's WAL receiver streams the WAL to the backup folder", () =>
      read(dir, 'receiver') ? (read(dir, 'receiver').up ? 1 : 0) : undefined,
    ),
    one(
      'bm_backup_rpo_zero',
      "1 while no acknowledged commit can be lost (RPO 0: commits wait for the WAL receiver, or for a cluster's synchronous standby); 0 degraded or off",
      () =>
        read(dir, 'receiver')
          ? ['synchronous', 'streaming'].includes(read(dir, 'receiver').mode)
            ? 1
            : 0
          : undefined,
    ),
    one('bm_backup_last_base_backup_timestamp_seconds', 'When the last base backup ended (Unix time)', () =>
      seconds(backupState(dir)?.lastBaseBackupAt),
    ),
    one(
      'bm_backup_last_verify_ok',
      '1 when the last verification restored, started and checked the newest backup cleanly',
      () => {
        const v = read(dir, 'verify');
        return v ? (v.ok ? 1 : 0) : undefined;
      },
    ),
    one('bm_backup_last_verify_timestamp_seconds', 'When the last backup verification ran (Unix time)', () =>
      seconds(read(dir, 'verify')?.at),
    ),
    one(
      'bm_consistency_findings',
      'Findings of the last consistency check (pnpm check, or a verification)',
      () => {
        const c = read(dir, 'check');
        return c ? c.findings.length : undefined;
      },
    ),
    one(
      'bm_consistency_last_check_timestamp_seconds',
      'When the last consistency check ran (Unix time)',
      () => seconds(read(dir, 'check')?.at),
    ),
  ];
  return () => {
    for (const r of removers) r();
  };
}
