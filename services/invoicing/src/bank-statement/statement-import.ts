/**
 * Importing a bank statement (issue #45; DESIGN §6d), the work of its document kind in one transaction:
 * the entries the account does not have yet (by their key: the bank's reference, else booking date,
 * signed amount and EndToEndId) are stored, each new one paired by the rule module (payment-rules/
 * pairing.ts), posted (fees, interest) or, for a reversal, undoing the entry it reverses; the statement
 * with its bytes and warnings (a balance gap against the statement before it) is stored; the pairings
 * become payments (bank-pairing/pairing.store.ts); `bank-statement-imported` goes to the outbox.
 * Amounts are decimal strings, 2 places, in the account's currency.
 */
import { type BankStatementImportedEvent, InvoiceEventSubjects } from '@bm/contracts';
import { dec, fmt } from '@bm/money';
import { type EntityManager, entryRows, insertAll, outboxRow } from '@bm/service-kit';
import type { CamtStatement } from '../bank-format/index.js';
import { vsKey } from '../bank-format/index.js';
import {
  type InvoiceAfter,
  invoicesByTotal,
  lockOpenInvoices,
  lockUnchanged,
  partnerCandidates,
  removePairings,
  storePairings,
  symbolForms,
} from '../bank-pairing/index.js';
import { pairEntry, postingRuleOf } from '../payment-rules/index.js';
import { OutboxEntity } from '../schema/entities.js';
import { candidateOf, StatementPairing } from './entry-pairing.js';
import {
  type BankAccountRow,
  entriesToReverse,
  insertStatement,
  markReversed,
  partnersByIban,
  statementBefore,
  storedEntryKeys,
} from './statement.store.js';
import {
  balanceGap,
  entryKeyOf,
  type NewEntry,
  newEntryRow,
  postingOf,
  storedReversed,
} from './statement-entries.js';

/** A statement file read and checked before the transaction. */
export interface StatementFile {
  companyId: string;
  account: BankAccountRow;
  statement: CamtStatement;
  bytes: Buffer;
  sha256: string;
}

/** What the import stored: the statement's id and how its entries ended. */
export interface ImportResult {
  statementId: string;
  paired: number;
  unpaired: number;
}

/** Does the import in `tx` (the account's advisory lock held). */
export async function importStatement(tx: EntityManager, f: StatementFile): Promise<ImportResult> {
  const { companyId, account, statement: s } = f;
  const statementId = crypto.randomUUID();
  const keyed = s.entries.map((e) => ({ e, key: entryKeyOf(e) }));
  const stored = await storedEntryKeys(
    tx,
    companyId,
    account.id,
    keyed.map((k) => k.key),
  );
  const seen = new Set<string>();
  const fresh = keyed.filter(({ key }) => !stored.has(key) && !seen.has(key) && seen.add(key));

  // Reversals of stored entries first: their pairings are undone before the invoices' open balances are read.
  const reversals = fresh.filter(({ e }) => e.reversal);
  const storedOriginals = await entriesToReverse(
    tx,
    companyId,
    account.id,
    reversals.flatMap(({ e }) => (e.accountServicerRef ? [e.accountServicerRef] : [])),
    reversals.flatMap(({ e }) => (e.endToEndId && e.endToEndId !== 'NOTPROVIDED' ? [e.endToEndId] : [])),
  );
  const reversedStored = storedReversed(reversals, storedOriginals);
  await removePairings(
    tx,
    companyId,
    [...reversedStored.values()].flatMap((r) => r.paymentIds),
  );

  // The invoices the new entries may pay, found by VS and by the counterparties' partners, locked once.
  const ibans = [...new Set(fresh.flatMap(({ e }) => (e.counterpartyIban ? [e.counterpartyIban] : [])))];
  const partners = await partnersByIban(tx, companyId, ibans);
  const symbols = [
    ...new Set(
      fresh.flatMap(({ e }) =>
        vsKey(e.symbols.symbolVariable) ? symbolForms(vsKey(e.symbols.symbolVariable)!) : [],
      ),
    ),
  ];
  // Invoices named by a VS are locked at once (few); a counterparty's are read after the first pass, and
  // only those it pays are locked and checked unchanged before storing (a partner may have thousands).
  const named = await lockOpenInvoices(tx, companyId, { symbols, partnerIds: [], ids: [] });
  const pairing = new StatementPairing(named, account.accountCode);
  const now = new Date();
  const rows: NewEntry[] = [];
  const postings: Record<string, unknown>[] = [];
  const reversedIds: { id: string; by: string }[] = [];
  for (const { e, key } of fresh) {
    const id = crypto.randomUUID();
    const row = newEntryRow(e, { id, key, companyId, accountId: account.id, statementId, now });
    rows.push(row);
    if (e.reversal) {
      const original = reversedStored.get(key);
      if (original) {
        reversedIds.push({ id: original.id, by: id });
        Object.assign(row, { status: 'reversed', reversalOf: original.id });
      } else pairing.reverse(e, row);
      continue;
    }
    const posting = postingRuleOf(e.bankTransactionCode);
    if (posting) {
      postings.push(...entryRows(companyId, id, [postingOf(posting, e, account, s.number)]));
      Object.assign(row, { status: 'posted', rule: posting });
      pairing.inFile.push({ entry: e, row, pairings: [] });
      continue;
    }
    pairing.first(e, row, e.counterpartyIban ? (partners.get(e.counterpartyIban) ?? new Set()) : new Set());
  }
  pairing.second(await partnerCandidates(tx, companyId, pairing.needs()));
  const pairings = pairing.pairings;

  // Entries the rule knew nothing about: the open invoices of exactly their amount, for a person.
  const blind = pairing.inFile.filter(
    (x) => x.row.status === 'unpaired' && !x.entry.reversal && !(x.row.candidates as unknown[]).length,
  );
  if (blind.length) {
    const byTotal = await invoicesByTotal(tx, companyId, [...new Set(blind.map((x) => x.entry.amount))]);
    for (const x of blind) {
      const d = pairEntry({ ...x.entry, symbolVariable: null }, byTotal, new Set());
      if (d.status === 'unpaired')
        x.row.candidates = d.candidates.map((cid) => candidateOf(byTotal.find((i) => i.id === cid)!));
    }
  }
  // The counterparty's invoices it pays, locked now: unchanged since they were read, or nothing is stored.
  await lockUnchanged(tx, companyId, pairings, pairing.unlocked);
  const previous = await statementBefore(tx, companyId, account.id, s.periodFrom);
  const warnings = balanceGap(previous, s.openingBalance);

  await markReversed(
    tx,
    companyId,
    reversedIds.map((r) => r.id),
    reversedIds.map((r) => r.by),
  );
  await insertStatement(
    tx,
    {
      id: statementId,
      companyId,
      bankAccountId: account.id,
      number: s.number.slice(0, 35),
      statementId: s.statementId.slice(0, 35),
      messageId: s.messageId.slice(0, 35),
      format: `camt.053.${s.version}`,
      periodFrom: s.periodFrom,
      periodTo: s.periodTo,
      currency: s.currency ?? account.currency,
      openingBalance: s.openingBalance,
      closingBalance: s.closingBalance,
      warnings,
      entryCount: s.entries.length,
      newEntries: rows.length,
      sha256: f.sha256,
      bytes: f.bytes,
      createdAt: now,
    },
    rows,
    postings,
  );
  const after = new Map<string, InvoiceAfter>();
  for (const i of pairing.invoices())
    after.set(i.id, {
      id: i.id,
      book: i.book,
      recordNumber: i.recordNumber,
      sumTotal: i.sumTotal,
      paid: fmt(dec(i.sumTotal).minus(dec(i.open))),
    });
  await storePairings(tx, companyId, pairings, after);
  const paired = rows.filter((r) => r.status === 'paired').length;
  const unpaired = rows.filter((r) => r.status === 'unpaired').length;
  const event: BankStatementImportedEvent = {
    eventId: crypto.randomUUID(),
    companyId,
    statementId,
    bankAccountId: account.id,
    number: s.number,
    periodFrom: s.periodFrom,
    periodTo: s.periodTo,
    entryCount: s.entries.length,
    newEntries: rows.length,
    paired,
    unpaired,
  };
  await insertAll(tx, [
    { entity: OutboxEntity, rows: [outboxRow(companyId, InvoiceEventSubjects.bankStatementImported, event)] },
  ]);
  return { statementId, paired, unpaired };
}
