/**
 * Postings of invoices (DESIGN §6 "Invoices post accounting entries"), Slovak chart of accounts. Pure.
 * Amounts in the company currency, 2 decimals.
 */
import type { AccountingEntry } from '@bm/contracts';
import { type Dec, dec, fmt, sum } from '@bm/money';

/** Sales: receivables, revenue from goods / from services, output VAT. */
export const SALES_ACCOUNTS = { receivable: '311', goods: '604', services: '602', vat: '343' } as const;
/** Purchases: goods in acquisition, services and other costs, suppliers. */
export const PURCHASE_ACCOUNTS = { goods: '131', services: '518', payable: '321' } as const;

/** A row as it is posted: whether it sells/buys a stock item, and its amount (base or local sum). */
export interface PostedRow {
  stockItem: boolean;
  amount: string;
}

const byAccount = (rows: readonly PostedRow[], goods: string, other: string): [string, Dec][] => {
  const m = new Map<string, Dec>();
  for (const r of rows) {
    const account = r.stockItem ? goods : other;
    m.set(account, (m.get(account) ?? dec(0)).plus(dec(r.amount)));
  }
  return [...m.entries()].filter(([, v]) => !v.isZero());
};

/**
 * A sales invoice: debit 311 for the total; credit revenue per account (604 goods, 602 services and free
 * rows) from the row bases, with the VAT summary's rounding difference on the largest line so the credits
 * add up to `sumBase`; credit 343 for `sumVat`.
 */
export function salesEntries(
  rows: readonly PostedRow[],
  sumBase: string,
  sumVat: string,
  recordNumber: string,
): AccountingEntry[] {
  const lines = byAccount(rows, SALES_ACCOUNTS.goods, SALES_ACCOUNTS.services);
  const diff = dec(sumBase).minus(sum(lines.map(([, v]) => v)));
  if (!diff.isZero()) {
    if (lines.length) {
      const biggest = lines.reduce((a, b) => (b[1].abs().gt(a[1].abs()) ? b : a));
      biggest[1] = biggest[1].plus(diff);
    } else lines.push([SALES_ACCOUNTS.goods, diff]);
  }
  const description = `Sales invoice ${recordNumber}`;
  const out: AccountingEntry[] = lines.map(([account, v]) => ({
    debitAccount: SALES_ACCOUNTS.receivable,
    creditAccount: account,
    amount: fmt(v),
    description,
  }));
  if (!dec(sumVat).isZero())
    out.push({
      debitAccount: SALES_ACCOUNTS.receivable,
      creditAccount: SALES_ACCOUNTS.vat,
      amount: fmt(sumVat),
      description,
    });
  return out;
}

/** A purchase invoice: debit 131 (stock items) or 518 (other rows), credit 321, in the company currency. */
export function purchaseEntries(
  rows: readonly PostedRow[],
  recordNumber: string,
  /** Input VAT in the company currency (issue #21): debit 343 / credit 321 when not zero. */
  inputVat = '0',
): AccountingEntry[] {
  const out = byAccount(rows, PURCHASE_ACCOUNTS.goods, PURCHASE_ACCOUNTS.services).map(([account, v]) => ({
    debitAccount: account,
    creditAccount: PURCHASE_ACCOUNTS.payable,
    amount: fmt(v),
    description: `Purchase invoice ${recordNumber}`,
  }));
  if (!dec(inputVat).isZero())
    out.push({
      debitAccount: SALES_ACCOUNTS.vat,
      creditAccount: PURCHASE_ACCOUNTS.payable,
      amount: fmt(inputVat),
      description: `Input VAT of purchase invoice ${recordNumber}`,
    });
  return out;
}

/** The reversal of posted entries (cancellation): same accounts, negated amounts. */
export const reversal = (entries: readonly AccountingEntry[], description: string): AccountingEntry[] =>
  entries.map((e) => ({
    debitAccount: e.debitAccount,
    creditAccount: e.creditAccount,
    amount: fmt(dec(e.amount).neg()),
    description,
  }));
