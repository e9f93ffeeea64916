/**
 * What a repost changes in the documents after a back-dated one (DESIGN §5 "Repost"), decided from the
 * replay and the stored rows. Pure: no ORM, no I/O. Quantities 4 decimals, amounts in EUR 2 decimals, as
 * exact strings; dates `YYYY-MM-DD`.
 *
 * - A later issue card whose pieces the replay changed gets its rows anew, one per cost price; a row whose
 *   cost price does not change keeps its id. Its total cost, accounting entries and a `stock-revalued`
 *   event follow ({@link reviseIssueCard}).
 * - A later receipt keeps its rows and total; only its negative-stock settlement, and so its entries,
 *   may change ({@link reviseReceiptEntries}).
 * - A revalued document in a closed period refuses the whole posting ({@link closedPeriodRefusal}).
 */
import type { AccountingEntry, StockRevaluedEvent } from '@bm/contracts';
import { ErrorCode, unprocessable } from '@bm/errors';
import { dec, fmt, sum } from '@bm/money';
import { type IssuedPiece, samePieces } from './ledger-replay.js';
import { issueEntries, receiptEntries, type WarehouseAccounts } from './warehouse-accounting.js';

/** A stored issue card row as a repost reads and rewrites it. */
export interface StoredIssueRow {
  id: string;
  issueCardId: string;
  rowNo: number;
  lineNo: number;
  itemId: string;
  code: string | null;
  name: string | null;
  unitId: string | null;
  lotNumberId: string | null;
  quantity: string;
  sellPrice: string;
  costPrice: string;
  amount: string;
}

/** A later card whose cost the repost changed: the closed-period check's input. */
export interface RevaluedDoc {
  kind: 'issue' | 'receipt';
  id: string;
  recordNumber: string;
  periodId: string | null;
}

const asPiece = (r: StoredIssueRow): IssuedPiece => ({
  quantity: dec(r.quantity),
  costPrice: dec(r.costPrice),
  amount: dec(r.amount),
  takes: [],
});

/**
 * The later issue cards (by id) whose replayed pieces differ from their stored rows: `reposted` holds, per
 * card, the replayed pieces of each input line; `stored` the card's rows as stored.
 */
export function changedIssueCards(
  reposted: Map<string, Map<number, IssuedPiece[]>>,
  stored: Map<string, StoredIssueRow[]>,
): [string, Map<number, IssuedPiece[]>][] {
  return [...reposted].filter(([cardId, lines]) => {
    const rows = stored.get(cardId)!;
    return [...lines].some(
      ([line, pieces]) => !samePieces(rows.filter((r) => r.lineNo === line).map(asPiece), pieces),
    );
  });
}

/** One revised issue card: its rows anew (numbered from 1) and which stored rows go, stay or come. */
export interface IssueCardRevision {
  rows: StoredIssueRow[];
  removed: string[];
  kept: StoredIssueRow[];
  added: StoredIssueRow[];
  totalCost: string;
  entries: AccountingEntry[];
  event: StockRevaluedEvent;
}

/**
 * Revises issue card `card` (its stored `rows`) by the replayed `lines` (pieces per input line; a line
 * not in it keeps its rows). Rows per cost price anew, ids kept where the cost is unchanged; the total,
 * entries (posted to `accounts`) and the `stock-revalued` event naming `causedBy`. `newId` gives ids.
 */
export function reviseIssueCard(
  card: { id: string; companyId: string; recordNumber: string; totalCost: string; dateOperation: string },
  rows: StoredIssueRow[],
  lines: Map<number, IssuedPiece[]>,
  accounts: WarehouseAccounts & { id: string },
  causedBy: string,
  newId: () => string = () => crypto.randomUUID(),
): IssueCardRevision {
  const next: StoredIssueRow[] = [];
  const used = new Set<string>();
  for (const line of [...new Set(rows.map((r) => r.lineNo))].sort((a, b) => a - b)) {
    const before = rows.filter((r) => r.lineNo === line).sort((a, b) => a.rowNo - b.rowNo);
    const pieces = lines.get(line);
    if (!pieces) {
      for (const r of before) used.add(r.id);
      next.push(...before.map((r) => ({ ...r })));
      continue;
    }
    for (const p of pieces) {
      // A row whose cost does not change keeps its id (DESIGN §5 "Repost").
      const same = before.find((r) => !used.has(r.id) && dec(r.costPrice).eq(p.costPrice));
      if (same) used.add(same.id);
      next.push({
        ...(same ?? { ...before[0], id: newId() }),
        quantity: fmt(p.quantity),
        costPrice: fmt(p.costPrice),
        amount: fmt(p.amount),
      });
    }
  }
  const storedIds = new Set(rows.map((r) => r.id));
  next.forEach((r, i) => {
    r.rowNo = i + 1;
  });
  const total = sum(next.map((r) => r.amount));
  return {
    rows: next,
    removed: rows.filter((r) => !used.has(r.id)).map((r) => r.id),
    kept: next.filter((r) => storedIds.has(r.id)),
    added: next.filter((r) => !storedIds.has(r.id)),
    totalCost: fmt(total),
    entries: issueEntries(accounts, total, card.recordNumber),
    event: {
      eventId: newId(),
      companyId: card.companyId,
      issueCardId: card.id,
      recordNumber: card.recordNumber,
      warehouseId: accounts.id,
      dateOperation: card.dateOperation,
      causedBy,
      totalCostBefore: fmt(card.totalCost),
      totalCostAfter: fmt(total),
      rows: next.map((r) => ({
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        quantity: fmt(r.quantity),
        costPrice: fmt(r.costPrice),
        amount: fmt(r.amount),
      })),
    },
  };
}

/**
 * A later receipt's entries for its settlement after the replay (`settled`: value that settled a negative
 * balance), or null when they equal its `stored` entries (accounts and amounts; the texts follow).
 */
export function reviseReceiptEntries(
  accounts: WarehouseAccounts,
  receipt: { recordNumber: string; totalCost: string; settled: string },
  stored: readonly { debitAccount: string; creditAccount: string; amount: string }[],
): AccountingEntry[] | null {
  const entries = receiptEntries(
    accounts,
    dec(receipt.totalCost),
    dec(receipt.settled),
    receipt.recordNumber,
  );
  const same =
    entries.length === stored.length &&
    entries.every(
      (e, n) =>
        e.debitAccount === stored[n].debitAccount &&
        e.creditAccount === stored[n].creditAccount &&
        dec(e.amount).eq(dec(stored[n].amount)),
    );
  return same ? null : entries;
}

/**
 * 422 PeriodClosed naming the first revalued document that lies in a period of `closed`, or null: a
 * back-dated document may not revalue a closed period (DESIGN §5 "Period").
 */
export function closedPeriodRefusal(revalued: readonly RevaluedDoc[], closed: ReadonlySet<string>) {
  const hit = revalued.find((r) => r.periodId && closed.has(r.periodId));
  if (!hit) return null;
  return unprocessable(
    ErrorCode.PeriodClosed,
    `the back-dated document would revalue ${hit.kind === 'issue' ? 'issue card' : 'receipt card'} ${hit.recordNumber}, which lies in a closed period`,
    { errors: [{ path: 'dateOperation', message: `would revalue ${hit.recordNumber} in a closed period` }] },
  );
}
