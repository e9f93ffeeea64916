/** What a receipt's reversal reads in its transaction (issue #38): the receipt's own valuation layers. */
import { type EntityManager, pgArray } from '@bm/service-kit';

/** The layers receipt `receiptId` opened, by its row's line (0-based). */
export async function ownLayers(tx: EntityManager, receiptId: string): Promise<Map<number, string[]>> {
  const rows = await tx.execute<{ id: string; line: number }[]>(
    `select l."id", l."line_no" as "line" from "warehouse"."valuation_layer" l
      where l."seq" = (select min(m."seq") from "warehouse"."stock_movement" m
                        where m."document_id" = any(?::uuid[]) and m."document_type" = 'ReceiptCard')`,
    [pgArray([receiptId])],
  );
  const out = new Map<number, string[]>();
  for (const r of rows) out.set(r.line, [...(out.get(r.line) ?? []), r.id]);
  return out;
}
