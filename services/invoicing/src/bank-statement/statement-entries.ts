/**
 * A statement's entries as the import stores them (issue #45; DESIGN §6d): the key an entry is stored once
 * under per account, and how a reversal finds the entry it reverses in the same file. Pure.
 */
import { dec, fmt } from '@bm/money';
import type { CamtEntry } from '../bank-format/index.js';
import type { PairingToStore } from '../bank-pairing/index.js';

/** A new entry's row as the import builds it (`status` and the rest set as it decides). */
export type NewEntry = Record<string, unknown> & { id: string; status: string };

/** The key an entry is stored once under (per account): the bank's reference, else date, amount, EndToEndId. */
export function entryKeyOf(e: CamtEntry): string {
  const kind = e.reversal ? 'R' : 'E';
  if (e.accountServicerRef) return `${kind}:ref:${e.accountServicerRef}`;
  const signed = e.direction === 'debit' ? `-${e.amount}` : e.amount;
  return `${kind}:${e.bookingDate}|${signed}|${e.endToEndId ?? ''}`.slice(0, 120);
}

/** The reversal names the entry's bank reference. */
export const sameRef = (e: CamtEntry, ref: string | null) =>
  !!e.accountServicerRef && ref === e.accountServicerRef;
/** The reversal has the entry's EndToEndId, amount and counterparty IBAN. */
export const sameTx = (e: CamtEntry, e2e: string | null, amount: string, iban: string | null) =>
  !!e.endToEndId &&
  e.endToEndId !== 'NOTPROVIDED' &&
  e2e === e.endToEndId &&
  dec(amount).eq(dec(e.amount)) &&
  iban === e.counterpartyIban;

/**
 * A reversal entry (`RvslInd`) whose entry is not stored: the entry of this file with the same bank
 * reference, else the same EndToEndId, amount and counterparty IBAN; its pairings are undone and both end
 * `reversed`, naming each other. None found: the reversal stays unpaired for a person.
 */
export function reverseInFile(
  e: CamtEntry,
  row: NewEntry,
  inFile: { entry: CamtEntry; row: NewEntry; pairings: PairingToStore[] }[],
  pairings: PairingToStore[],
  undo: (p: PairingToStore) => void,
) {
  const open = inFile.filter((x) => x.row.status !== 'reversed');
  const local =
    open.find((x) => sameRef(e, x.entry.accountServicerRef)) ??
    open.find((x) => sameTx(e, x.entry.endToEndId, x.entry.amount, x.entry.counterpartyIban));
  if (!local) {
    Object.assign(row, { reason: 'a reversal whose entry is not among the stored ones' });
    return;
  }
  for (const p of local.pairings) {
    pairings.splice(pairings.indexOf(p), 1);
    undo(p);
  }
  local.pairings.length = 0;
  Object.assign(local.row, { status: 'reversed', reversalOf: row.id, rule: null });
  Object.assign(row, { status: 'reversed', reversalOf: local.row.id });
}

/** The row of a new entry `e` (status `unpaired` until the import decides otherwise). */
export function newEntryRow(
  e: CamtEntry,
  k: { id: string; key: string; companyId: string; accountId: string; statementId: string; now: Date },
): NewEntry {
  return {
    id: k.id,
    companyId: k.companyId,
    bankAccountId: k.accountId,
    statementId: k.statementId,
    position: e.index,
    entryKey: k.key,
    accountServicerRef: e.accountServicerRef?.slice(0, 35) ?? null,
    endToEndId: e.endToEndId?.slice(0, 35) ?? null,
    direction: e.direction,
    amount: e.amount,
    currency: e.currency,
    bookingDate: e.bookingDate,
    valueDate: e.valueDate,
    reversal: e.reversal,
    bankTransactionCode: e.bankTransactionCode?.slice(0, 40) ?? null,
    counterpartyName: e.counterpartyName?.slice(0, 140) ?? null,
    counterpartyIban: e.counterpartyIban?.slice(0, 34) ?? null,
    remittance: e.remittance,
    reference: e.reference?.slice(0, 35) ?? null,
    symbolVariable: e.symbols.symbolVariable,
    symbolSpecific: e.symbols.symbolSpecific,
    symbolConstant: e.symbols.symbolConstant,
    status: 'unpaired',
    rule: null,
    reason: null,
    candidates: [],
    reversalOf: null,
    createdAt: k.now,
  };
}

/**
 * Continuity (issue #45): the statement before this one (by period, same account) closing at another
 * balance than this one opens is a `BalanceGap` warning naming both and the difference; never a refusal.
 */
export function balanceGap(
  previous: { number: string; period_to: string; closing_balance: string | null } | null,
  openingBalance: string | null,
): { code: string; message: string }[] {
  if (previous?.closing_balance == null || openingBalance == null) return [];
  if (dec(previous.closing_balance).eq(dec(openingBalance))) return [];
  return [
    {
      code: 'BalanceGap',
      message: `statement ${previous.number} (to ${previous.period_to}) closed at ${fmt(previous.closing_balance)}, this one opens at ${fmt(openingBalance)}: a gap of ${fmt(dec(openingBalance).minus(dec(previous.closing_balance)))} (a statement between them missing?)`,
    },
  ];
}

/**
 * Which stored entry each reversal of the file reverses (by key of the reversal): the same bank
 * reference, else the same EndToEndId, amount and counterparty IBAN; each stored entry once.
 */
export function storedReversed<
  T extends {
    id: string;
    accountServicerRef: string | null;
    endToEndId: string | null;
    amount: string;
    counterpartyIban: string | null;
  },
>(reversals: readonly { e: CamtEntry; key: string }[], storedOriginals: readonly T[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const { e, key } of reversals) {
    const taken = new Set([...out.values()].map((r) => r.id));
    const original =
      storedOriginals.find((o) => !taken.has(o.id) && sameRef(e, o.accountServicerRef)) ??
      storedOriginals.find((o) => !taken.has(o.id) && sameTx(e, o.endToEndId, o.amount, o.counterpartyIban));
    if (original) out.set(key, original);
  }
  return out;
}

/**
 * The posting of a fee or interest entry (issue #45): a fee debits the bank account's `feeAccount` (568)
 * and credits its ledger account (221), interest the reverse against `interestAccount` (662); a refunded
 * fee (a credit) or negative interest (a debit) posts the other way.
 */
export function postingOf(
  rule: 'fee' | 'interest',
  e: CamtEntry,
  account: { accountCode: string; feeAccount: string; interestAccount: string },
  statementNumber: string,
) {
  const [debit, credit] =
    rule === 'fee'
      ? [account.feeAccount, account.accountCode]
      : [account.accountCode, account.interestAccount];
  const usual = (rule === 'fee') === (e.direction === 'debit');
  const [d, c] = usual ? [debit, credit] : [credit, debit];
  return {
    debitAccount: d,
    creditAccount: c,
    amount: e.amount,
    description: `Bank ${rule}, statement ${statementNumber}`,
  };
}
