/**
 * The pairing of one statement's new entries (issue #45; DESIGN §6d), in two passes over the file:
 * first every entry whose variable symbol names an open invoice (those invoices locked up front; the VS
 * is the stronger evidence, as the Slovak programs pair a statement by VS first), then the rest by their
 * counterparty (rule 4 of payment-rules/pairing.ts), against the counterparty's invoices the store reads
 * after the first pass: of each (partner, amount) at most 21 open for exactly that amount (enough to tell
 * one from several), and the partner's oldest open ones for a person. Invoices the first pass touched are
 * kept in memory, never read again. Each decision moves the invoice's open amount in the index, so the
 * next entry sees it. Pure: the store's reads are handed in.
 */
import { dec, fmt } from '@bm/money';
import type { CamtEntry } from '../bank-format/index.js';
import type { PairingToStore, StoredOpenInvoice } from '../bank-pairing/index.js';
import { type EntryToPair, pairEntry } from '../payment-rules/index.js';
import { CandidateIndex } from './candidate-index.js';
import { type NewEntry, reverseInFile } from './statement-entries.js';

interface Pending {
  e: CamtEntry;
  row: NewEntry;
  partnerIds: ReadonlySet<string>;
  mine: PairingToStore[];
}

const toPair = (e: CamtEntry): EntryToPair => ({
  direction: e.direction,
  amount: e.amount,
  currency: e.currency,
  symbolVariable: e.symbols.symbolVariable,
});

export class StatementPairing {
  readonly pairings: PairingToStore[] = [];
  readonly inFile: { entry: CamtEntry; row: NewEntry; pairings: PairingToStore[] }[] = [];
  /** Invoices read without a lock, with their open amount when read (locked and checked before storing). */
  readonly unlocked = new Map<string, string>();
  private readonly book: Map<string, StoredOpenInvoice>;
  private index: CandidateIndex;
  private readonly deferred: Pending[] = [];

  constructor(
    named: readonly StoredOpenInvoice[],
    private readonly accountCode: string,
  ) {
    this.book = new Map(named.map((i) => [i.id, i]));
    this.index = new CandidateIndex(this.book.values());
  }

  /** First pass: `e` paired by its VS, else kept for the second pass. */
  first(e: CamtEntry, row: NewEntry, partnerIds: ReadonlySet<string>): void {
    const mine: PairingToStore[] = [];
    this.inFile.push({ entry: e, row, pairings: mine });
    const d = pairEntry(toPair(e), this.index.candidates(toPair(e), new Set()), partnerIds);
    if (d.status === 'paired') this.apply(e, row, mine, d.pairings, d.rule);
    else this.deferred.push({ e, row, partnerIds, mine });
  }

  /** A reversal of an entry of this file: its pairings undone. */
  reverse(e: CamtEntry, row: NewEntry): void {
    reverseInFile(e, row, this.inFile, this.pairings, (p) =>
      this.index.paid(this.book.get(p.invoiceId)!, fmt(dec(p.amount).negated())),
    );
  }

  /** What the second pass needs read: each (partner, amount) of the entries left, and the invoices to leave out. */
  needs(): { partnerIds: string[]; amounts: string[]; known: string[] } {
    const pairs = new Map<string, [string, string]>();
    for (const p of this.deferred)
      if (p.row.status !== 'reversed')
        for (const id of p.partnerIds) pairs.set(`${id}|${p.e.amount}`, [id, p.e.amount]);
    const list = [...pairs.values()];
    return {
      partnerIds: list.map((x) => x[0]),
      amounts: list.map((x) => x[1]),
      known: [...this.book.keys()],
    };
  }

  /** Second pass, over the counterparty's invoices `theirs` (read without a lock). */
  second(theirs: readonly StoredOpenInvoice[]): void {
    for (const i of theirs)
      if (!this.book.has(i.id)) {
        this.book.set(i.id, i);
        this.unlocked.set(i.id, i.open);
      }
    this.index = new CandidateIndex(this.book.values());
    for (const p of this.deferred) {
      if (p.row.status === 'reversed') continue;
      const d = pairEntry(toPair(p.e), this.index.candidates(toPair(p.e), p.partnerIds), p.partnerIds);
      if (d.status === 'paired') this.apply(p.e, p.row, p.mine, d.pairings, d.rule);
      else
        Object.assign(p.row, {
          reason: d.reason,
          candidates: d.candidates.map((id) => candidateOf(this.book.get(id)!)),
        });
    }
  }

  private apply(
    e: CamtEntry,
    row: NewEntry,
    mine: PairingToStore[],
    decided: Omit<PairingToStore, 'id' | 'entryId' | 'date' | 'bankAccountCode'>[],
    rule: string,
  ) {
    for (const p of decided) {
      const pairing = {
        ...p,
        id: crypto.randomUUID(),
        entryId: row.id,
        date: e.bookingDate,
        bankAccountCode: this.accountCode,
      };
      mine.push(pairing);
      this.pairings.push(pairing);
      this.index.paid(this.book.get(p.invoiceId)!, p.amount);
    }
    Object.assign(row, { status: 'paired', rule });
  }

  /** Every invoice read, with its open amount after the file's pairings. */
  invoices(): Iterable<StoredOpenInvoice> {
    return this.book.values();
  }
}

/** An invoice as an unpaired entry lists it for a person. */
export const candidateOf = (c: StoredOpenInvoice) => ({
  invoiceId: c.id,
  book: c.book,
  recordNumber: c.recordNumber,
  partnerId: c.partnerId,
  open: c.open,
});
