/**
 * Documents a storno has made final (issue #38): a reversed card and a receipt's reversal keep their
 * values; a back-dated document that would change them is refused. Pure.
 */
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';

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
