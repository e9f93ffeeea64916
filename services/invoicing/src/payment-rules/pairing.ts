/**
 * Pairing a bank entry with open invoices (issue #45; DESIGN §6d). Pure: over the entry, the open
 * invoices it may pay and the partners its counterparty's IBAN is known for; decides the pairings.
 * Amounts are decimal strings with 2 places in the entry's currency; an invoice's `open` is its total
 * minus every payment, signed (a credit note's or an overpaid invoice's is negative).
 *
 * The practice followed (POHODA "Likvidácia podľa variabilného symbolu", OMEGA/Money automatic pairing):
 * 1. Direction (money in or out) decides the book, never across: a credit (money in) pays sales invoices
 *    and is a supplier's refund of a purchase credit note; a debit (money out) pays purchase invoices and
 *    refunds a sales credit note or a customer's overpayment. A supplier's and a customer's VS may be equal.
 *    A payment's sign on the invoice: a customer's payment and our payment to a supplier are positive, a
 *    refund negative; an invoice takes only payments of the sign of its open balance.
 * 2. Only invoices in the entry's currency (no exchange differences in this issue).
 * 3. Variable symbol first (Slovak Banking Association: `/VS…` in EndToEndId, else the remittance text):
 *    the open invoices with that VS (leading zeros ignored), the counterparty's own first when its IBAN is
 *    known, then oldest first (issue date, record number): the amount goes to each in turn up to its open
 *    balance (a partner reusing a VS pays the oldest first); what is left after the last one is that
 *    partner's overpayment on the last invoice paid (`paymentStatus: overpaid`).
 * 4. No VS, or no open invoice with it: the counterparty's partners (by IBAN, from master data or an earlier
 *    pairing); paired only when exactly one of their open invoices has exactly the entry's amount.
 * 5. Otherwise unpaired, with the candidates the rule considered for a person to choose from.
 */
import { type Dec, dec, fmt } from '@bm/money';
import { vsKey } from '../bank-format/index.js';

export type InvoiceBook = 'sales' | 'purchase';

/** An entry to pair: `amount` positive, `direction` of the money on our account. */
export interface EntryToPair {
  direction: 'credit' | 'debit';
  amount: string;
  currency: string;
  symbolVariable: string | null;
}

/** An open invoice the entry may pay (`open` signed, in `currency`). */
export interface OpenInvoice {
  id: string;
  book: InvoiceBook;
  partnerId: string | null;
  recordNumber: string;
  symbolVariable: string | null;
  currency: string;
  dateCreated: string;
  open: string;
}

/** A decided pairing: `amount` as the invoice's payment (its sign: see rule 1). */
export interface DecidedPairing {
  invoiceId: string;
  book: InvoiceBook;
  partnerId: string | null;
  amount: string;
  /** The part of `amount` beyond the invoice's open balance (the partner's overpayment), `0.00` when none. */
  overpayment: string;
}

export type PairingRule = 'variableSymbol' | 'counterpartyAmount';

export type PairingDecision =
  | { status: 'paired'; rule: PairingRule; pairings: DecidedPairing[] }
  | { status: 'unpaired'; reason: string; candidates: string[] };

/** The invoice payment's sign for an entry of `direction` on `book` (rule 1). */
export const paymentSign = (direction: EntryToPair['direction'], book: InvoiceBook): 1 | -1 =>
  (direction === 'credit') === (book === 'sales') ? 1 : -1;

/** Whether `inv` may take a payment from an entry of `direction` and `currency` (rules 1, 2). */
export function payable(entry: Pick<EntryToPair, 'direction' | 'currency'>, inv: OpenInvoice): boolean {
  if (inv.currency !== entry.currency) return false;
  const open = dec(inv.open);
  return !open.isZero() && open.isPositive() === (paymentSign(entry.direction, inv.book) === 1);
}

const oldestFirst = (a: OpenInvoice, b: OpenInvoice) =>
  a.dateCreated < b.dateCreated
    ? -1
    : a.dateCreated > b.dateCreated
      ? 1
      : a.recordNumber.localeCompare(b.recordNumber);

/** The entry's amount spread over `invoices` in order, the rest an overpayment of the last (rule 3). */
function spread(entry: EntryToPair, invoices: OpenInvoice[]): DecidedPairing[] {
  let left: Dec = dec(entry.amount);
  const out: DecidedPairing[] = [];
  for (const inv of invoices) {
    if (left.isZero()) break;
    const open = dec(inv.open).abs();
    const take = left.gt(open) ? open : left;
    const sign = paymentSign(entry.direction, inv.book);
    out.push({
      invoiceId: inv.id,
      book: inv.book,
      partnerId: inv.partnerId,
      amount: fmt(take.times(sign)),
      overpayment: '0.00',
    });
    left = left.minus(take);
  }
  if (!left.isZero()) {
    const last = out.at(-1)!;
    const sign = paymentSign(entry.direction, last.book);
    last.amount = fmt(dec(last.amount).plus(left.times(sign)));
    last.overpayment = fmt(left.times(sign));
  }
  return out;
}

/**
 * Decides how an entry pairs (rules 1–5). `invoices` are the company's open invoices the caller found by
 * the entry's VS and by its counterparty's partners (any book, any currency: the rule filters them);
 * `partnerIds` the partners the counterparty's IBAN is known for.
 */
export function pairEntry(
  entry: EntryToPair,
  invoices: readonly OpenInvoice[],
  partnerIds: ReadonlySet<string>,
): PairingDecision {
  const eligible = invoices.filter((i) => payable(entry, i));
  const vs = vsKey(entry.symbolVariable);
  if (vs) {
    const byVs = eligible.filter((i) => vsKey(i.symbolVariable) === vs);
    if (byVs.length) {
      const own = (i: OpenInvoice) => (i.partnerId && partnerIds.has(i.partnerId) ? 0 : 1);
      const ordered = [...byVs].sort((a, b) => own(a) - own(b) || oldestFirst(a, b));
      return { status: 'paired', rule: 'variableSymbol', pairings: spread(entry, ordered) };
    }
  }
  const theirs = eligible.filter((i) => i.partnerId && partnerIds.has(i.partnerId)).sort(oldestFirst);
  const amount = dec(entry.amount);
  const exact = theirs.filter((i) => dec(i.open).abs().eq(amount));
  if (exact.length === 1)
    return { status: 'paired', rule: 'counterpartyAmount', pairings: spread(entry, exact) };
  const reason = !partnerIds.size
    ? vs
      ? `no open invoice with the variable symbol ${vs}, and the counterparty's account is not known`
      : "no variable symbol, and the counterparty's account is not known"
    : exact.length > 1
      ? `${exact.length}${exact.length >= 20 ? ' or more' : ''} open invoices of the counterparty have exactly ${entry.amount}`
      : `no open invoice of the counterparty has exactly ${entry.amount}${vs ? ` and none has the variable symbol ${vs}` : ''}`;
  const sameAmount = eligible.filter((i) => dec(i.open).abs().eq(amount)).sort(oldestFirst);
  const candidates = (exact.length ? exact : theirs.length ? theirs : sameAmount)
    .slice(0, 20)
    .map((i) => i.id);
  return { status: 'unpaired', reason, candidates };
}

/** Bank transaction codes posted by a rule (fees and interest), by the ISO family/sub-family code. */
export type PostingRule = 'fee' | 'interest';

/** Whether an entry is a fee or interest by its bank transaction code (ISO 20022 External Bank Transaction Code). */
export function postingRuleOf(code: string | null): PostingRule | null {
  if (!code) return null;
  const parts = code.toUpperCase().split('/');
  const sub = parts.at(-1) ?? '';
  if (['CHRG', 'FEES', 'COMM', 'COMT', 'SUBS'].includes(sub) || parts.includes('CHRG')) return 'fee';
  if (sub === 'INTR' || parts.includes('INTR')) return 'interest';
  return null;
}
