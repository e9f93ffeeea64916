import { type Dec, dec } from '@bm/money';
import { type EntityManager, pgArray } from '@bm/service-kit';
import { ReceiptCardRowEntity } from '../schema/entities.js';
import type { LaterDocRef } from './key-history.reads.js';
import type { StoredIssueRow } from './posting-types.js';
import { reversalLines } from './reversal-lines.js';
import type { LedgerDoc, ValuationMethod } from './rules/ledger-replay.js';

/** Loads the later documents' lines of one key, in the shape the replay takes. */
export async function laterDocs(
  em: EntityManager,
  refs: LaterDocRef[],
  key: { itemId: string; lotNumberID: string | null },
  method: ValuationMethod,
  issueRows: Map<string, StoredIssueRow[]>,
): Promise<LedgerDoc[]> {
  const missing = refs.filter((r) => r.kind === 'issue' && !issueRows.has(r.docId)).map((r) => r.docId);
  // The ledger takes the reversals apart (reversal-lines.ts); only issue cards' rows are shared by keys.
  for (const id of missing) issueRows.set(id, []);
  if (missing.length) {
    const rows = await em.execute<StoredIssueRow[]>(
      `select "id", "issue_card_id" as "issueCardId", "row_no" as "rowNo", "line_no" as "lineNo", "item_id" as "itemId",
              "code", "name", "unit_id" as "unitId", "lot_number_id" as "lotNumberId", "quantity"::text,
              "sell_price"::text as "sellPrice", "cost_price"::text as "costPrice", "amount"::text
         from "warehouse"."issue_card_row" where "issue_card_id" = any(?::uuid[])`,
      [pgArray(missing)],
    );
    for (const row of rows) issueRows.get(row.issueCardId)!.push(row);
  }
  for (const id of missing) issueRows.get(id)!.sort((a, b) => a.rowNo - b.rowNo);
  const receiptIds = refs.filter((r) => r.kind === 'receipt').map((r) => r.docId);
  const receiptRows = new Map<string, { line: number; quantity: Dec; costPrice: Dec }[]>();
  for (let i = 0; i < receiptIds.length; i += 5000) {
    const rows = await em.find(
      ReceiptCardRowEntity,
      {
        receiptCardId: { $in: receiptIds.slice(i, i + 5000) },
        itemId: key.itemId,
        lotNumberId: key.lotNumberID,
      },
      { orderBy: { rowNo: 'asc' } },
    );
    for (const r of rows) {
      const list = receiptRows.get(r.receiptCardId) ?? [];
      list.push({ line: r.rowNo - 1, quantity: dec(r.quantity), costPrice: dec(r.costPrice) });
      receiptRows.set(r.receiptCardId, list);
    }
  }
  const reversals = await reversalLines(em, refs, key);
  return refs.map((ref): LedgerDoc => {
    if (ref.kind === 'receipt')
      return { kind: 'receipt', docId: ref.docId, date: ref.date, lines: receiptRows.get(ref.docId) ?? [] };
    if (ref.kind === 'return')
      return {
        kind: 'return',
        docId: ref.docId,
        date: ref.date,
        lines: reversals.returns.get(ref.docId) ?? [],
      };
    if (ref.kind === 'withdrawal')
      return {
        kind: 'withdrawal',
        docId: ref.docId,
        date: ref.date,
        lines: reversals.withdrawals.get(ref.docId) ?? [],
      };
    const byLine = new Map<number, { quantity: Dec; costPrice: Dec }>();
    for (const r of issueRows.get(ref.docId)!) {
      if (r.itemId !== key.itemId || (r.lotNumberId ?? null) !== key.lotNumberID) continue;
      const l = byLine.get(r.lineNo);
      byLine.set(r.lineNo, {
        quantity: (l?.quantity ?? dec(0)).plus(dec(r.quantity)),
        costPrice: l?.costPrice ?? dec(r.costPrice),
      });
    }
    return {
      kind: 'issue',
      docId: ref.docId,
      date: ref.date,
      lines: [...byLine].map(([line, l]) => ({
        line,
        quantity: l.quantity,
        ...(method === 'Custom' ? { costPrice: l.costPrice } : {}),
      })),
    };
  });
}
