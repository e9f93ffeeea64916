/**
 * The receipt card's writer (DESIGN §4 "Stock intake", §5 "Record numbers"; issue #24): what a decided
 * receipt card (its write set, plain data) stores once its record number is known: the card, its rows, its
 * accounting entries and its `stock-received` event in the outbox, as row sets the group commit inserts in
 * one statement; and the reply of the stored card. Pure, no I/O; ids are in the write set.
 */
import { EventSubjects, type ReceiptCard, type StockReceivedEvent } from '@bm/contracts';
import { dec } from '@bm/money';
import { type DocumentWriter, entryRows, type InsertPart, oncePerWriteSet, outboxRow } from '@bm/service-kit';
import {
  AccountingEntryEntity,
  OutboxEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
} from '../schema/entities.js';
import { receiptEntries, type WarehouseAccounts } from '../stock-ledger/index.js';
import { type EntryRow, type ReceiptRow, type ReceiptRowRow, receiptDto } from './receipt-card.queries.js';

/**
 * A decided receipt card without its record number. Quantities 4 decimals, prices and amounts in EUR as
 * exact strings; `settled` is the value that settled negative balances (EUR, 2 decimals), `accounts` what
 * its entries post to.
 */
export interface ReceiptCardWriteSet {
  cardId: string;
  companyId: string;
  eventId: string;
  header: {
    ordnerId: string;
    warehouseId: string;
    partnerId: string | null;
    dateOperation: string;
    dateAccounting: string;
    periodId: string;
  };
  rows: {
    id: string;
    itemId: string;
    lotNumberId: string | null;
    quantity: string;
    costPrice: string;
    amount: string;
  }[];
  totalCost: string;
  settled: string;
  accounts: WarehouseAccounts;
  createdAt: Date;
  /** A reversal card (storno, issue #38): the card it reverses. */
  reversalOf?: string;
}

/** The card's stored rows under `recordNumber` (a reversal's too: card-storno/). */
export const storedReceipt = oncePerWriteSet((w: ReceiptCardWriteSet, recordNumber: string) => {
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
  const rows = w.rows.map((r, i) => ({ ...r, companyId, receiptCardId: cardId, rowNo: i + 1 }));
  const entries = entryRows(
    companyId,
    cardId,
    receiptEntries(w.accounts, dec(w.totalCost), dec(w.settled), recordNumber),
  );
  return { card, rows, entries };
});

/** The row sets of receipt card `w` under `recordNumber`, with `outbox` its event. */
export function receiptCardParts(
  w: ReceiptCardWriteSet,
  recordNumber: string,
  outbox: Record<string, unknown>,
): InsertPart[] {
  const { card, rows, entries } = storedReceipt(w, recordNumber);
  return [
    { entity: ReceiptCardEntity, rows: [card] },
    { entity: ReceiptCardRowEntity, rows },
    { entity: AccountingEntryEntity, rows: entries },
    { entity: OutboxEntity, rows: [outbox] },
  ];
}

/** The rows that store receipt card `w` under `recordNumber` (the group commit's writer of receipt cards). */
export const receiptCardWriter: DocumentWriter<ReceiptCardWriteSet> = (w, recordNumber) => {
  const event: StockReceivedEvent = {
    eventId: w.eventId,
    companyId: w.companyId,
    receiptCardId: w.cardId,
    recordNumber,
    warehouseId: w.header.warehouseId,
    dateOperation: w.header.dateOperation,
    rows: w.rows.map((r) => ({
      itemId: r.itemId,
      lotNumberID: r.lotNumberId,
      quantity: r.quantity,
      costPrice: r.costPrice,
    })),
  };
  return receiptCardParts(w, recordNumber, outboxRow(w.companyId, EventSubjects.stockReceived, event));
};

/** The reply of receipt card `w` stored under `recordNumber`, as a read of it would give. */
export function storedReceiptCardReply(w: ReceiptCardWriteSet, recordNumber: string): ReceiptCard {
  const { card, rows, entries } = storedReceipt(w, recordNumber);
  return receiptDto(card as ReceiptRow, rows as ReceiptRowRow[], entries as EntryRow[]);
}
