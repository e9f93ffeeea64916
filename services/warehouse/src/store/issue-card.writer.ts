/**
 * What a stored issue card writes once its record number is known (DESIGN §5 "Record numbers"): the card,
 * its rows, its accounting entries and its `stock-issued` event in the outbox, as the row sets the group
 * commit inserts in one statement; and the card's reply. Plain data, no I/O.
 */
import {
  type AccountingEntry,
  EventSubjects,
  type IssueCard,
  type IssueCardRow,
  type SourceType,
  type StockIssuedEvent,
} from '@bm/contracts';
import { entryRows, type InsertPart, outboxRow } from '@bm/service-kit';
import {
  AccountingEntryEntity,
  IssueCardEntity,
  IssueCardRowEntity,
  OutboxEntity,
} from '../persistence/entities.js';
import { type CardRow, type CardRowRow, cardDto, type EntryRow } from '../queries/issue-cards.js';

/** The card's header fields as stored (dates `YYYY-MM-DD`). */
export interface IssueCardHeader {
  ordnerId: string;
  warehouseId: string;
  partnerId: string;
  tags: string[];
  partnerAddress: string | null;
  dateCreated: string;
  dateAccounting: string;
  dateOperation: string;
  periodId: string;
  itemsComment: string | null;
  reportId: string | null;
  sourceId: string | null;
  sourceType: SourceType | null;
}

/**
 * The rows to insert for card `cardId` under `recordNumber`, and its reply. `rows` are the valued rows in
 * order (quantities 4 decimals, prices and amounts in EUR as exact strings), `lines` the input line each
 * came from, `totalCost` the card's total (2 decimals).
 */
export function issueCardWriteSet(o: {
  cardId: string;
  companyId: string;
  header: IssueCardHeader;
  recordNumber: string;
  rows: IssueCardRow[];
  lines: number[];
  totalCost: string;
  entries: AccountingEntry[];
  createdAt: Date;
}): { rows: InsertPart[]; value: IssueCard } {
  const { cardId, companyId, header, recordNumber } = o;
  const card = {
    id: cardId,
    companyId,
    ...header,
    recordNumber,
    totalCost: o.totalCost,
    createdAt: o.createdAt,
  };
  const storedRows = o.rows.map((r, i) => ({
    id: crypto.randomUUID(),
    companyId,
    issueCardId: cardId,
    rowNo: i + 1,
    lineNo: o.lines[i],
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
  const storedEntries = entryRows(companyId, cardId, o.entries);
  const event: StockIssuedEvent = {
    eventId: crypto.randomUUID(),
    companyId,
    issueCardId: cardId,
    recordNumber,
    warehouseId: header.warehouseId,
    dateOperation: header.dateOperation,
    sourceId: header.sourceId,
    sourceType: header.sourceType,
    rows: o.rows.map((r) => ({
      itemId: r.itemId,
      lotNumberID: r.lotNumberID,
      quantity: r.quantity,
      costPrice: r.costPrice,
    })),
  };
  return {
    rows: [
      { entity: IssueCardEntity, rows: [card] },
      { entity: IssueCardRowEntity, rows: storedRows },
      { entity: AccountingEntryEntity, rows: storedEntries },
      { entity: OutboxEntity, rows: [outboxRow(companyId, EventSubjects.stockIssued, event)] },
    ],
    value: cardDto(card as CardRow, storedRows as CardRowRow[], storedEntries as EntryRow[]),
  };
}
