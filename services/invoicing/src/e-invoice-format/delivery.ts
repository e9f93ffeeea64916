/**
 * The delivery state machine of an issued e-invoice (issue #23). Pure: no transport, no ORM.
 *
 * `issued` → `queued` (the connector took it) → `sent` (the access point took it into the network) →
 * one final status: `delivered` (MLS `AP` or `AB`), `rejected` (MLS `RE`, or the access point refused
 * it) or `failed` (the transport gave up). Reports are idempotent and ordered: within one attempt a
 * status applies only when it is later than the current one, so a late `sent` never overwrites
 * `delivered` and a repeated report changes nothing; the first final status of an attempt stays. A report
 * of another attempt than the current one changes nothing. `resend` after `failed` starts the next
 * attempt with the same bytes.
 */
import { AppError, ErrorCode, ErrorKind, validationFailed } from '@bm/errors';

export type DeliveryStatus = 'issued' | 'queued' | 'sent' | 'delivered' | 'rejected' | 'failed';
export type Mls = 'AP' | 'AB' | 'RE';
export interface Reason {
  code: string;
  message: string;
}

/** Where an issued e-invoice stands. */
export interface DeliveryState {
  status: DeliveryStatus;
  attempt: number;
  transmissionId: string | null;
  mls: Mls | null;
  reasons: Reason[];
  deliveredAt: Date | null;
}

/** One report of the access-point connector. */
export interface StatusReport {
  attempt: number;
  status: Exclude<DeliveryStatus, 'issued'>;
  transmissionId: string;
  mls?: Mls | null;
  reasons?: Reason[];
}

/** Order of the statuses within one attempt; the three final ones share the last rank. */
export const STATUS_RANK: Record<DeliveryStatus, number> = {
  issued: 0,
  queued: 1,
  sent: 2,
  delivered: 3,
  rejected: 3,
  failed: 3,
};

/** The state right after issue: attempt 1, nothing sent yet. */
export const issuedState = (): DeliveryState => ({
  status: 'issued',
  attempt: 1,
  transmissionId: null,
  mls: null,
  reasons: [],
  deliveredAt: null,
});

/**
 * The state after `report` arrived at `at`, or null when it changes nothing (another attempt, or not
 * later than the current status).
 * @throws 400 ValidationFailed when the MLS code contradicts the status (`delivered` needs `AP` or `AB`;
 *   `rejected` allows only `RE`; other statuses carry none)
 */
export function applyReport(current: DeliveryState, report: StatusReport, at: Date): DeliveryState | null {
  const mls = report.mls ?? null;
  if (report.status === 'delivered' && mls !== 'AP' && mls !== 'AB')
    throw validationFailed([{ path: 'mls', message: 'a delivered e-invoice has the MLS code AP or AB' }]);
  if (report.status === 'rejected' && mls !== null && mls !== 'RE')
    throw validationFailed([{ path: 'mls', message: 'a rejected e-invoice has the MLS code RE or none' }]);
  if (report.status !== 'delivered' && report.status !== 'rejected' && mls !== null)
    throw validationFailed([{ path: 'mls', message: `a ${report.status} e-invoice has no MLS code yet` }]);
  if (report.attempt !== current.attempt) return null;
  if (STATUS_RANK[report.status] <= STATUS_RANK[current.status]) return null;
  return {
    status: report.status,
    attempt: current.attempt,
    transmissionId: report.transmissionId,
    mls,
    reasons: report.reasons ?? [],
    deliveredAt: report.status === 'delivered' ? at : null,
  };
}

/**
 * The next attempt after a failed one: the same bytes, status `issued` again.
 * @throws 409 InvalidState unless the current status is `failed`
 */
export function resend(current: DeliveryState): DeliveryState {
  if (current.status !== 'failed')
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      `an e-invoice is sent again only after it failed; it is ${current.status}`,
    );
  return { ...issuedState(), attempt: current.attempt + 1 };
}

/** The reason code of a delivery that failed because the provider refused the company's credentials. */
export const CREDENTIALS_REFUSED = 'AUTH';

/**
 * Issue #43: an attempt that `failed` because the company's credentials were refused goes out again once
 * they work, in the same attempt (the same transmission id and `Idempotency-Key`): status `issued`.
 * Null for any other state (nothing to release).
 */
export function releaseHeld(current: DeliveryState): DeliveryState | null {
  if (current.status !== 'failed' || !current.reasons.some((r) => r.code === CREDENTIALS_REFUSED))
    return null;
  return { ...issuedState(), attempt: current.attempt };
}
