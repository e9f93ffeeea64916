/**
 * What an issue card stores, decided from its input, resolved references and valuation (INTERFACE §2.1,
 * DESIGN §5): one row per valued piece (FIFO may split a line) with its cost price and amount, the texts and
 * sell price from the item where the input has none, the header's defaults, and the total cost. Pure.
 * Quantities 4 decimals, prices and amounts in EUR as exact strings, dates `YYYY-MM-DD`.
 */
import type { IssueCardRow, SourceType } from '@bm/contracts';
import { fmt, sum } from '@bm/money';
import type { IssuedPiece, WarehouseAccounts } from '../stock-ledger/index.js';

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
 * A decided issue card without its record number. `rows` are the valued rows in order (quantities 4
 * decimals, prices and amounts in EUR as exact strings; each with its id), `lines` the input line each came
 * from, `totalCost` the card's total (2 decimals), `accounts` what its entries post to.
 */
export interface IssueCardWriteSet {
  cardId: string;
  companyId: string;
  eventId: string;
  header: IssueCardHeader;
  rows: (IssueCardRow & { id: string })[];
  lines: number[];
  totalCost: string;
  accounts: WarehouseAccounts;
  createdAt: Date;
  /** A reversal card (storno, issue #38): the card it reverses. */
  reversalOf?: string;
}

/** The card as sent, and its references as the resolve step found them (issue-card/issue-card.kind.ts). */
export interface IssueCardDecisionInput {
  input: {
    partnerId: string;
    tags?: string[];
    partnerAddress?: string | null;
    itemsComment?: string | null;
    sourceId?: string | null;
    rows: { code?: string | null; name?: string | null; sellPrice?: string | null }[];
  };
  ordner: { id: string };
  warehouse: WarehouseAccounts & { id: string };
  resolved: {
    item: { id: string; code: string | null; name: string | null; sellPrice: string };
    unitId: string | null;
    lotNumberID: string | null;
  }[];
  dates: { dateCreated: string; dateOperation: string; dateAccounting: string };
  periodId: string;
  reportId: string | null;
  sourceType: SourceType | null;
}

/**
 * The write set of card `cardId`: `issued` holds the valued pieces of each input line (the valuation's
 * `PostingPlan.issued`). `newId` gives the ids of the rows and the event.
 */
export function decideIssueCard(
  r: IssueCardDecisionInput,
  ids: { cardId: string; companyId: string },
  issued: ReadonlyMap<number, IssuedPiece[]>,
  newId: () => string = () => crypto.randomUUID(),
  now = new Date(),
): IssueCardWriteSet {
  const { input, resolved } = r;
  const valued = input.rows.flatMap((_, line) => issued.get(line)!.map((p) => ({ line, ...p })));
  const rows = valued.map((v) => {
    const src = input.rows[v.line];
    const item = resolved[v.line].item;
    return {
      id: newId(),
      itemId: item.id,
      code: src.code ?? item.code,
      name: src.name ?? item.name,
      unitId: resolved[v.line].unitId,
      lotNumberID: resolved[v.line].lotNumberID,
      quantity: fmt(v.quantity),
      sellPrice: src.sellPrice ?? item.sellPrice,
      costPrice: fmt(v.costPrice),
      amount: fmt(v.amount),
    };
  });
  return {
    ...ids,
    eventId: newId(),
    header: {
      ordnerId: r.ordner.id,
      warehouseId: r.warehouse.id,
      partnerId: input.partnerId,
      tags: input.tags ?? [],
      partnerAddress: input.partnerAddress ?? null,
      ...r.dates,
      periodId: r.periodId,
      itemsComment: input.itemsComment ?? null,
      reportId: r.reportId,
      sourceId: input.sourceId ?? null,
      sourceType: r.sourceType ?? null,
    },
    rows,
    lines: valued.map((v) => v.line),
    totalCost: fmt(sum(valued.map((v) => v.amount))),
    accounts: r.warehouse,
    createdAt: now,
  };
}
