/**
 * Documents a storno has made final (issue #38): a reversed card and a receipt's reversal keep their
 * values; a back-dated document that would change them is refused. Pure.
 */
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { round2, sum } from '@bm/money';
import type { DocResult, LedgerDoc } from './ledger-types.js';

/**
 * 409 InvalidState: a back-dated document would change what a reversal took out, or revalue a reversed
 * card (`what` names it): both are final once reversed.
 */
export const reversalRevalued = (what: string) =>
  new AppError(
    ErrorKind.conflict,
    ErrorCode.InvalidState,
    `the back-dated document would revalue ${what}, which a storno has made final`,
  );

/**
 * The first later receipt reversal (of `later`, as stored) whose value taken out a replay (`replayed`)
 * changed, by id; null when none did. Values in EUR, 2 decimals.
 */
export function changedWithdrawal(
  later: readonly LedgerDoc[],
  replayed: readonly DocResult[],
): string | null {
  for (const before of later) {
    if (before.kind !== 'withdrawal') continue;
    const after = replayed.find((d) => d.docId === before.docId);
    if (after?.kind !== 'withdrawal') continue;
    for (const l of before.lines) {
      const was = l.storedAmount ?? round2(l.quantity.mul(l.costPrice));
      const now = sum((after.lines.find((x) => x.line === l.line)?.pieces ?? []).map((p) => p.amount));
      if (!now.eq(was)) return before.docId;
    }
  }
  return null;
}
