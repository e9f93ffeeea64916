/**
 * The issue card's writer (DESIGN §5 "Record numbers", issue #24): what a decided card (its write set,
 * plain data) stores once its record number is known: the card, its rows, its accounting entries and its
 * `stock-issued` event in the outbox, as the row sets the group commit inserts in one statement; and the
 * reply of the stored card. Pure, no I/O; ids are in the write set, so the rows and the reply agree.
 */

export type { IssueCardWriteSet } from './issue-card.decision.js';

import { EventSubjects, type IssueCard, type StockIssuedEvent } from '@bm/contracts';
import { dec } from '@bm/money';
import { type DocumentWriter, entryRows, type InsertPart, oncePerWriteSet, outboxRow } from '@bm/service-kit';
import {
  AccountingEntryEntity,
  IssueCardEntity,
  IssueCardRowEntity,
  OutboxEntity,
} from '../schema/entities.js';
import { issueEntries } from '../stock-ledger/index.js';
import type { IssueCardWriteSet } from './issue-card.decision.js';
import { type CardRow, type CardRowRow, cardDto, type EntryRow } from './issue-card.queries.js';

/** The card's stored rows under `recordNumber` (a reversal's too: card-storno/). */
export const storedCard = oncePerWriteSet((w: IssueCardWriteSet, recordNumber: string) => {
  const { cardId, companyId } = w;
  const card = {
    id: cardId,
    companyId,
    ...w.header,
    recordNumber,
    totalCost: w.totalCost,
    createdAt: w.createdAt,
    reversalOf: w.reversalOf ?? null,
  };
  const rows = w.rows.map((r, i) => ({
    id: r.id,
    companyId,
    issueCardId: cardId,
    rowNo: i + 1,
    lineNo: w.lines[i],
    itemId: r.itemId,
    code: r.code,
    name: r.name,
    unitId: r.unitId,
    lotNumberId: r.lotNumberID,
    quantity: r.quantity,
    sellPrice: r.sellPrice,
    costPrice: r.costPrice,
    amount: r.amount,
  }));
  const entries = entryRows(companyId, cardId, issueEntries(w.accounts, dec(w.totalCost), recordNumber));
  return { card, rows, entries };
});

/** The row sets of card `w` under `recordNumber`, with `outbox` its event. */
export function issueCardParts(
  w: IssueCardWriteSet,
  recordNumber: string,
  outbox: Record<string, unknown>,
): InsertPart[] {
  const { card, rows, entries } = storedCard(w, recordNumber);
  return [
    { entity: IssueCardEntity, rows: [card] },
    { entity: IssueCardRowEntity, rows },
    { entity: AccountingEntryEntity, rows: entries },
    { entity: OutboxEntity, rows: [outbox] },
  ];
}

/** The rows that store card `w` under `recordNumber` (the group commit's writer of issue cards). */
export const issueCardWriter: DocumentWriter<IssueCardWriteSet> = (w, recordNumber) => {
  const event: StockIssuedEvent = {
    eventId: w.eventId,
    companyId: w.companyId,
    issueCardId: w.cardId,
    recordNumber,
    warehouseId: w.header.warehouseId,
    dateOperation: w.header.dateOperation,
    sourceId: w.header.sourceId,
    sourceType: w.header.sourceType,
    rows: w.rows.map((r) => ({
      itemId: r.itemId,
      lotNumberID: r.lotNumberID,
      quantity: r.quantity,
      costPrice: r.costPrice,
    })),
  };
  return issueCardParts(w, recordNumber, outboxRow(w.companyId, EventSubjects.stockIssued, event));
};

/** The reply of card `w` stored under `recordNumber` (INTERFACE §2.1), as a read of it would give. */
export function storedIssueCardReply(w: IssueCardWriteSet, recordNumber: string): IssueCard {
  const { card, rows, entries } = storedCard(w, recordNumber);
  return cardDto(card as CardRow, rows as CardRowRow[], entries as EntryRow[]);
}

/** The reply of a previewed card (`store: false`): no row ids, no record number, nothing stored. */
export function issueCardPreview(w: IssueCardWriteSet): IssueCard {
  return {
    ...w.header,
    recordNumber: null,
    rows: w.rows.map(({ id: _id, ...r }) => r),
    totalCost: w.totalCost,
    accountingEntries: issueEntries(w.accounts, dec(w.totalCost), null),
    reversed: false,
    reversalId: null,
    reversalOf: null,
  };
}
