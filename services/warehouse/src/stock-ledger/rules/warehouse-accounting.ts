/**
 * Postings of warehouse documents on an accounted warehouse (DESIGN §5 "Accounted warehouse",
 * "Allowed → … negative-stock settlement"). Pure. Amounts in the company currency, 2 decimals.
 */
import type { AccountingEntry } from '@bm/contracts';
import { type Dec, fmt } from '@bm/money';

/** The accounts a warehouse posts to. */
export interface WarehouseAccounts {
  accounted: boolean;
  stockAccount: string;
  expenseAccount: string;
}

/** Account credited by a receipt: 131 goods in acquisition (Slovak chart); the purchase invoice clears it. */
export const RECEIPT_CREDIT_ACCOUNT = '131';

/** An issue card: debit expense / credit stock for its total cost (none when not accounted or 0). */
export function issueEntries(
  w: WarehouseAccounts,
  totalCost: Dec,
  recordNumber: string | null,
): AccountingEntry[] {
  if (!w.accounted || totalCost.isZero()) return [];
  return [
    {
      debitAccount: w.expenseAccount,
      creditAccount: w.stockAccount,
      amount: fmt(totalCost),
      description: recordNumber ? `Issue card ${recordNumber}` : 'Issue card',
    },
  ];
}

/**
 * A receipt card: debit stock / credit 131 for its total; and debit expense / credit stock for the value of
 * the pieces that settled a negative balance (they leave the stock at once).
 */
export function receiptEntries(
  w: WarehouseAccounts,
  totalCost: Dec,
  settled: Dec,
  recordNumber: string,
): AccountingEntry[] {
  if (!w.accounted) return [];
  const out: AccountingEntry[] = [];
  if (!totalCost.isZero()) {
    out.push({
      debitAccount: w.stockAccount,
      creditAccount: RECEIPT_CREDIT_ACCOUNT,
      amount: fmt(totalCost),
      description: `Receipt card ${recordNumber}`,
    });
  }
  if (settled.gt(0)) {
    out.push({
      debitAccount: w.expenseAccount,
      creditAccount: w.stockAccount,
      amount: fmt(settled),
      description: `Negative stock settlement ${recordNumber}`,
    });
  }
  return out;
}
