/**
 * The lines of later reversal cards (issue #38, storno) of one stock key, in the shape the replay takes
 * (rules/ledger-replay.ts): an issue card's reversal (`return`) brings its rows back at their cost
 * prices; a receipt card's reversal (`withdrawal`) takes its rows out at the receipt's cost, from the
 * receipt's own layer first (the layer as stored, and as a replay of the receipt names it). Quantities
 * are stored negative on a reversal card and come back positive here. SQL only.
 */
import { dec } from '@bm/money';
import { type EntityManager, pgArray } from '@bm/service-kit';
import type { LaterDocRef } from './key-history.reads.js';
import { receiptLayers } from './receipt-layers.reads.js';
import {
  type LedgerDoc,
  newLayerId,
  type ReceiptLineIn,
  type WithdrawalLineIn,
} from './rules/ledger-replay.js';

type Lines<L> = Map<string, L[]>;

/** The later reversals' lines of key (`itemId`, `lotNumberID`) among `refs`, by reversal card id. */
export async function reversalLines(
  em: EntityManager,
  refs: readonly LaterDocRef[],
  key: { itemId: string; lotNumberID: string | null },
): Promise<{ returns: Lines<ReceiptLineIn>; withdrawals: Lines<WithdrawalLineIn> }> {
  const ids = (kind: LedgerDoc['kind']) => refs.filter((r) => r.kind === kind).map((r) => r.docId);
  const returns: Lines<ReceiptLineIn> = new Map();
  const withdrawals: Lines<WithdrawalLineIn> = new Map();
  const returnIds = ids('return');
  if (returnIds.length) {
    const rows = await em.execute<
      { card: string; line: number; quantity: string; cost: string; amount: string }[]
    >(
      `select "issue_card_id" as "card", "line_no" as "line", "quantity"::text, "cost_price"::text as "cost",
              "amount"::text
         from "warehouse"."issue_card_row"
        where "issue_card_id" = any(?::uuid[]) and "item_id" = ? and "lot_number_id" is not distinct from ?
        order by "row_no"`,
      [pgArray(returnIds), key.itemId, key.lotNumberID],
    );
    for (const r of rows)
      push(returns, r.card, {
        line: r.line,
        quantity: dec(r.quantity).neg(),
        costPrice: dec(r.cost),
        amount: dec(r.amount).neg(),
      });
  }
  const withdrawalIds = ids('withdrawal');
  if (withdrawalIds.length) {
    const rows = await em.execute<
      { card: string; receipt: string; line: number; quantity: string; cost: string; amount: string }[]
    >(
      `select r."receipt_card_id" as "card", c."reversal_of" as "receipt", r."row_no" - 1 as "line",
              r."quantity"::text, r."cost_price"::text as "cost", r."amount"::text
         from "warehouse"."receipt_card_row" r
         join "warehouse"."receipt_card" c on c."id" = r."receipt_card_id"
        where r."receipt_card_id" = any(?::uuid[]) and r."item_id" = ? and r."lot_number_id" is not distinct from ?
        order by r."row_no"`,
      [pgArray(withdrawalIds), key.itemId, key.lotNumberID],
    );
    // The receipt's own layer of each row: as stored, and as a replay of the receipt names it.
    const layers = await receiptLayers(em, [...new Set(rows.map((r) => r.receipt))]);
    for (const r of rows)
      push(withdrawals, r.card, {
        line: r.line,
        quantity: dec(r.quantity).neg(),
        costPrice: dec(r.cost),
        storedAmount: dec(r.amount).neg(),
        layerIds: [newLayerId(r.receipt, r.line), ...(layers.get(r.receipt)?.get(r.line) ?? [])],
      });
  }
  return { returns, withdrawals };
}

function push<L>(into: Lines<L>, id: string, line: L): void {
  const list = into.get(id) ?? [];
  list.push(line);
  into.set(id, list);
}
