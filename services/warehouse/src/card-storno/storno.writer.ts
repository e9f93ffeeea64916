/**
 * The reversal cards' writers and replies (issue #38): a reversal is stored as a card of its type (the
 * card writers' row sets, with `reversalOf`), and its outbox row is `events.warehouse.card-reversed`
 * instead of the card's stock event. Pure, no I/O.
 */
import { type CardReversedEvent, type IssueCard, type ReceiptCard, StornoEventSubjects } from '@bm/contracts';
import { type DocumentWriter, outboxRow } from '@bm/service-kit';
import type { IssueCardWriteSet } from '../issue-card/index.js';
import { issueCardParts, storedIssueCardReply } from '../issue-card/index.js';
import { type ReceiptCardWriteSet, receiptCardParts, storedReceiptCardReply } from '../receipt-card/index.js';

/** A reversal's write set: the card's, and the reversed card's record number for its event. */
export type StornoWriteSet<W> = W & { reversalOf: string; reversedRecordNumber: string };

/** `events.warehouse.card-reversed` of reversal `w` stored under `recordNumber`. */
function reversedEvent(
  cardType: CardReversedEvent['cardType'],
  w: StornoWriteSet<IssueCardWriteSet> | StornoWriteSet<ReceiptCardWriteSet>,
  recordNumber: string,
): Record<string, unknown> {
  const event: CardReversedEvent = {
    eventId: w.eventId,
    companyId: w.companyId,
    cardType,
    reversedId: w.reversalOf,
    reversedRecordNumber: w.reversedRecordNumber,
    reversalId: w.cardId,
    recordNumber,
    warehouseId: w.header.warehouseId,
    dateOperation: w.header.dateOperation,
    totalCost: w.totalCost,
    rows: w.rows.map((r) => ({
      itemId: r.itemId,
      lotNumberID: 'lotNumberID' in r ? r.lotNumberID : r.lotNumberId,
      quantity: r.quantity,
      costPrice: r.costPrice,
      amount: r.amount,
    })),
  };
  return outboxRow(w.companyId, StornoEventSubjects.cardReversed, event);
}

/** The rows of an issue card's reversal. */
export const issueStornoWriter: DocumentWriter<StornoWriteSet<IssueCardWriteSet>> = (w, recordNumber) =>
  issueCardParts(w, recordNumber, reversedEvent('IssueCard', w, recordNumber));

/** The rows of a receipt card's reversal. */
export const receiptStornoWriter: DocumentWriter<StornoWriteSet<ReceiptCardWriteSet>> = (w, recordNumber) =>
  receiptCardParts(w, recordNumber, reversedEvent('ReceiptCard', w, recordNumber));

/** The reply of a stored issue card reversal (INTERFACE §2.1 with the storno fields). */
export const issueStornoReply = (w: StornoWriteSet<IssueCardWriteSet>, recordNumber: string): IssueCard =>
  storedIssueCardReply(w, recordNumber);

/** The reply of a stored receipt card reversal. */
export const receiptStornoReply = (
  w: StornoWriteSet<ReceiptCardWriteSet>,
  recordNumber: string,
): ReceiptCard => storedReceiptCardReply(w, recordNumber);
