/**
 * Storno of stock cards (issue #38; docs/decisions.md "Storno of stock cards"): which card may be
 * reversed, on which date, and the refusals. Pure.
 *
 * A reversal is a card of the original's type, in its ordner, with its own record number; a card is
 * reversed at most once, and neither a reversed card nor a reversal is reversed or revalued afterwards.
 */
import { AppError, ErrorCode, ErrorKind, validationFailed } from '@bm/errors';

/** A stored card as a storno checks it (dates `YYYY-MM-DD`). */
export interface ReversibleCard {
  recordNumber: string;
  dateOperation: string;
  reversalId: string | null;
  reversalOf: string | null;
}

const invalidState = (detail: string) => new AppError(ErrorKind.conflict, ErrorCode.InvalidState, detail);

/**
 * The reversal's date: `date`, else `today`; never before the card's own dateOperation.
 * @throws 409 InvalidState when the card is reversed already or is itself a reversal;
 *   400 ValidationFailed naming `date` when it lies before the card's date.
 */
export function reversalDate(card: ReversibleCard, date: string | undefined, today: string): string {
  if (card.reversalId) throw invalidState(`card ${card.recordNumber} has been reversed already`);
  if (card.reversalOf) throw invalidState(`card ${card.recordNumber} is a reversal and cannot be reversed`);
  const on = date ?? (today < card.dateOperation ? card.dateOperation : today);
  if (on < card.dateOperation)
    throw validationFailed([
      { path: 'date', message: `must not be before the card's dateOperation ${card.dateOperation}` },
    ]);
  return on;
}

/** 409 InvalidState: a second storno won the race for the same card. */
export const reversedMeanwhile = (recordNumber: string) =>
  invalidState(`card ${recordNumber} has been reversed already`);
