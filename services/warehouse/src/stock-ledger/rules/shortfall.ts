/**
 * The refusal of a document that would take stock below zero where that is not allowed (INTERFACE §7
 * OperationCanceledException, DESIGN §2, §5): one shortfall per (item, lot) with the quantity asked for,
 * the quantity available and the date stock runs short. Pure.
 */
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { type Dec, fmt } from '@bm/money';

/** A key whose stock would go below zero: requested and available quantities (4 decimals) on `date`. */
export interface Shortfall {
  itemId: string;
  lotNumberID: string | null;
  requested: Dec;
  available: Dec;
  date: string;
}

/** 422 OperationCanceledException with `shortfalls` (INTERFACE §7, DESIGN §2). */
export function operationCanceled(found: Shortfall[], items: Map<string, { code: string }>): AppError {
  const shortfalls = found.map((s) => ({
    itemId: s.itemId,
    lotNumberID: s.lotNumberID,
    requested: fmt(s.requested),
    available: fmt(s.available),
    date: s.date,
  }));
  const detail = shortfalls
    .map(
      (s) =>
        `item ${items.get(s.itemId)?.code ?? s.itemId}: requested ${s.requested}, available ${s.available} (short on ${s.date})`,
    )
    .join('; ');
  return new AppError(
    ErrorKind.unprocessable,
    ErrorCode.OperationCanceledException,
    `not enough stock: ${detail}`,
    {
      extensions: { shortfalls },
    },
  );
}
