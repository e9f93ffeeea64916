/**
 * The reversal cards' writers (issue #38): a reversal is stored as a card of its type (the
 * card writers' row sets, with `reversalOf`), and its outbox row is `events.warehouse.card-reversed`
 * instead of the card's stock event. Its reply is the card's own (`storedIssueCardReply`, `storedReceiptCardReply`).
 * Pure, no I/O.
 */
import { type CardReversedEvent, StornoEventSubjects } from '@bm/contracts';
import { type DocumentWriter, outboxRow } from '@bm/service-kit';
import type { IssueCardWriteSet } from '../issue-card/index.js';
import { issueCardParts } from '../issue-card/index.js';
import { type ReceiptCardWriteSet, receiptCardParts } from '../receipt-card/index.js';

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
