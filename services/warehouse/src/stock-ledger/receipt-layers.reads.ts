/**
 * The FIFO layers a receipt card's rows opened (issue #38: a receipt's reversal takes its own layer
 * first). Found through the ledger's key indexes: a layer is the receipt's when it has the receipt's
 * key, date and ledger place (`seq`, shared by all its movements) and its row's line. SQL only.
 */
import { type EntityManager, pgArray } from '@bm/service-kit';
import { NIL } from './balances.js';

/** The layers each of `receiptIds` opened, by receipt id, then by its row's line (0-based). */
export async function receiptLayers(
  em: EntityManager,
  receiptIds: readonly string[],
): Promise<Map<string, Map<number, string[]>>> {
  const out = new Map<string, Map<number, string[]>>();
  if (!receiptIds.length) return out;
  const rows = await em.execute<{ receipt: string; line: number; id: string }[]>(
    `select c."id" as "receipt", l."line_no" as "line", l."id"
       from "warehouse"."receipt_card" c
       join "warehouse"."receipt_card_row" r on r."receipt_card_id" = c."id"
       cross join lateral (select coalesce(r."lot_number_id", '${NIL}'::uuid) as "lot_key") k
       cross join lateral (
         select m."seq" from "warehouse"."stock_movement" m
          where m."company_id" = c."company_id" and m."warehouse_id" = c."warehouse_id"
            and m."item_id" = r."item_id" and m."lot_key" = k."lot_key" and m."date_operation" = c."date_operation"
            and m."document_id" = c."id" and m."document_type" = 'ReceiptCard'
          limit 1
       ) s
       join "warehouse"."valuation_layer" l
         on l."company_id" = c."company_id" and l."warehouse_id" = c."warehouse_id" and l."item_id" = r."item_id"
        and l."lot_key" = k."lot_key" and l."date_operation" = c."date_operation" and l."seq" = s."seq"
        and l."line_no" = r."row_no" - 1
      where c."id" = any(?::uuid[])`,
    [pgArray([...receiptIds])],
  );
  for (const r of rows) {
    const byLine = out.get(r.receipt) ?? new Map<number, string[]>();
    byLine.set(r.line, [...(byLine.get(r.line) ?? []), r.id]);
    out.set(r.receipt, byLine);
  }
  return out;
}
