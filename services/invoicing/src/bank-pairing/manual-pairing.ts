/**
 * Pairing by a person (issue #45; DESIGN §6d): an entry paired with an invoice (several invoices for one
 * entry, one invoice from several entries), a pairing removed (the invoice reopens), an entry ignored.
 * The work of the pairing kinds (pairing.kind.ts) in their transaction. Amounts positive in the
 * entry's currency, 2 decimals, as the person gives them; stored signed as the invoice's payment.
 *
 * A pairing takes what the entry has unallocated first, then an overpayment the entry left on another
 * invoice of the same partner (the overpayment moves). More than the invoice has open is that partner's
 * overpayment (issue #45: "an invoice is never paid beyond its total without the surplus being an
 * overpayment").
 */

import { InvoiceEventSubjects } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, unprocessable } from '@bm/errors';
import { type Dec, dec, fmt } from '@bm/money';
import { type EntityManager, insertAll, outboxRow } from '@bm/service-kit';
import { payable, paymentSign } from '../payment-rules/index.js';
import { OutboxEntity } from '../schema/entities.js';
import {
  type EntryPairing,
  type LockedEntry,
  lockEntry,
  pairingsOfEntry,
  reducePairing,
  setEntryStatus,
} from './entry.store.js';
import { lockOpenInvoices } from './open-invoices.store.js';
import { lockOpenInvoicesAfter, paidEvent, removePairings, settle, storePairings } from './pairing.store.js';

const CLOSED = ['posted', 'reversed'];

function refuseClosed(e: LockedEntry) {
  if (CLOSED.includes(e.status))
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      `the entry is ${e.status}: it cannot be paired`,
    );
}

/** What the entry has not given to any pairing (positive). */
const unallocatedOf = (e: LockedEntry, pairings: EntryPairing[]): Dec =>
  pairings.reduce((a, p) => a.minus(dec(p.amount).abs()), dec(e.amount));

/**
 * Pairs entry `entryId` with invoice `invoiceId` for `amount` (default: what the entry has available, at
 * most what the invoice has open). @throws 404 entry; 409 InvalidState (posted, reversed), 409 Conflict
 * nothing left of the entry; 422 ReferenceNotFound (invoice), ValidationFailed (direction, currency,
 * nothing open, more than the entry has)
 */
export async function pairManually(
  tx: EntityManager,
  companyId: string,
  entryId: string,
  invoiceId: string,
  amount?: string,
) {
  const e = await lockEntry(tx, companyId, entryId);
  refuseClosed(e);
  const pairings = await pairingsOfEntry(tx, companyId, entryId);
  const [inv] = await lockOpenInvoices(tx, companyId, { symbols: [], partnerIds: [], ids: [invoiceId] });
  if (!inv)
    throw unprocessable(ErrorCode.ReferenceNotFound, 'no such invoice (or it is cancelled)', {
      errors: [{ path: 'invoiceId', message: 'not an invoice of this company that can be paid' }],
    });
  if (!payable(e, inv))
    throw unprocessable(
      ErrorCode.ValidationFailed,
      inv.currency !== e.currency
        ? `the invoice is in ${inv.currency}, the entry in ${e.currency} (no exchange differences are booked)`
        : `a ${e.direction} entry cannot pay ${inv.book} invoice ${inv.recordNumber} with ${inv.open} open (money in pays sales invoices and refunds of purchase credit notes; money out the reverse)`,
      { errors: [{ path: 'invoiceId', message: 'the entry cannot pay this invoice' }] },
    );
  const unallocated = unallocatedOf(e, pairings);
  const movable = pairings.filter(
    (p) => p.partnerId === inv.partnerId && !dec(p.overpayment).isZero() && p.invoiceId !== inv.id,
  );
  const available = movable.reduce((a, p) => a.plus(dec(p.overpayment).abs()), unallocated);
  const open = dec(inv.open).abs();
  const want = amount ? dec(amount) : available.gt(open) ? open : available;
  if (want.lte(0))
    throw new AppError(ErrorKind.conflict, ErrorCode.Conflict, 'nothing of the entry is left to pair', {
      errors: [{ path: 'amount', message: 'the entry is allocated in full' }],
    });
  if (want.gt(available))
    throw unprocessable(
      ErrorCode.ValidationFailed,
      `the entry has ${fmt(available)} to pair, not ${fmt(want)}`,
      {
        errors: [{ path: 'amount', message: `at most ${fmt(available)}` }],
      },
    );
  const sign = paymentSign(e.direction, inv.book);
  // What the unallocated part does not cover moves from the entry's overpayments on the partner's invoices.
  let toMove = want.gt(unallocated) ? want.minus(unallocated) : dec(0);
  const moved: { from: EntryPairing; by: Dec }[] = [];
  for (const p of movable) {
    if (toMove.lte(0)) break;
    const x = dec(p.overpayment).abs().gt(toMove) ? toMove : dec(p.overpayment).abs();
    moved.push({ from: p, by: x });
    toMove = toMove.minus(x);
  }
  for (const m of moved) {
    const by = fmt(m.by.times(dec(m.from.amount).isNegative() ? -1 : 1));
    await reducePairing(tx, companyId, m.from.id, by);
  }
  const sources = await lockOpenInvoicesAfter(
    tx,
    companyId,
    moved.map((m) => m.from.invoiceId),
  );
  if (moved.length) {
    await insertAll(tx, [
      {
        entity: OutboxEntity,
        rows: moved.map((m) =>
          outboxRow(
            companyId,
            InvoiceEventSubjects.invoicePaid,
            paidEvent(
              companyId,
              sources.find((s) => s.id === m.from.invoiceId)!,
              entryId,
              fmt(m.by.times(dec(m.from.amount).isNegative() ? 1 : -1)),
            ),
          ),
        ),
      },
    ]);
    await settle(tx, companyId, sources);
  }
  const paid = want.times(sign);
  const over = want.gt(open) ? want.minus(open).times(sign) : dec(0);
  const pairing = {
    id: crypto.randomUUID(),
    entryId,
    invoiceId: inv.id,
    book: inv.book,
    partnerId: inv.partnerId,
    amount: fmt(paid),
    overpayment: fmt(over),
    date: e.bookingDate,
    bankAccountCode: e.accountCode,
  };
  const after = {
    id: inv.id,
    book: inv.book,
    recordNumber: inv.recordNumber,
    sumTotal: inv.sumTotal,
    paid: fmt(dec(inv.sumTotal).minus(dec(inv.open)).plus(paid)),
  };
  await storePairings(tx, companyId, [pairing], new Map([[inv.id, after]]));
  await setEntryStatus(tx, companyId, entryId, 'paired', 'manual');
}

/** Removes pairing `pairingId` of entry `entryId`: the invoice reopens. @throws 404 entry or pairing; 409 InvalidState (reversed) */
export async function unpairManually(
  tx: EntityManager,
  companyId: string,
  entryId: string,
  pairingId: string,
) {
  const e = await lockEntry(tx, companyId, entryId);
  if (e.status === 'reversed')
    throw new AppError(ErrorKind.conflict, ErrorCode.InvalidState, 'the entry is reversed');
  const pairings = await pairingsOfEntry(tx, companyId, entryId);
  if (!pairings.some((p) => p.id === pairingId))
    throw new AppError(ErrorKind.not_found, ErrorCode.NotFound, 'Pairing not found on this entry');
  await removePairings(tx, companyId, [pairingId]);
  if (pairings.length === 1) await setEntryStatus(tx, companyId, entryId, 'unpaired', null);
  else await setEntryStatus(tx, companyId, entryId, 'paired', 'manual');
}

/** Marks an unpaired entry `ignored` (not an invoice's payment: a transfer between own accounts, …). @throws 404; 409 InvalidState */
export async function ignoreEntry(tx: EntityManager, companyId: string, entryId: string) {
  const e = await lockEntry(tx, companyId, entryId);
  const pairings = await pairingsOfEntry(tx, companyId, entryId);
  if (e.status !== 'unpaired' || pairings.length)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      `only an unpaired entry can be ignored; this one is ${e.status}`,
    );
  await setEntryStatus(tx, companyId, entryId, 'ignored', 'manual');
}
