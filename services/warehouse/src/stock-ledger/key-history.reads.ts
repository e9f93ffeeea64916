/**
 * The state of one stock key as of a date (DESIGN §5 "Back-dated documents"): the balance and open layers
 * for a current-date document; for a back-dated one the quantity and value summed from the ledger up to
 * the date, the layers as they stood then, and the later documents a repost replays. ORM code only.
 */
import { type Dec, dec } from '@bm/money';
import type { EntityManager } from '@bm/service-kit';
import { type BalanceRow, isCurrent, type LayerRow, lotKeyOf, type StockKey } from './balances.js';
import { FIRST_BATCH, openLayers, toLayer } from './open-layers.reads.js';
import type { Layer } from './rules/fifo.js';
import type { KeyLedgerState } from './rules/ledger-replay.js';

/** A document of a key's ledger dated after a back-dated one: what a repost replays. */
export interface LaterDocRef {
  /** `return`: an issue card's reversal; `withdrawal`: a receipt card's (issue #38). */
  kind: 'issue' | 'receipt' | 'return' | 'withdrawal';
  docId: string;
  date: string;
  /** The document's place in the ledger (its movements' sequence). */
  seq: string;
}

/** What a document dated `date` starts from for one key, and the later documents it reposts. */
export interface KeyLoad {
  /** True when no movement of the key is dated after `date`: nothing to repost. */
  current: boolean;
  start: KeyLedgerState;
  /** Later documents in ledger order (empty when current). */
  later: LaterDocRef[];
}

/** The ledger document kind of a movement's `document_type`. */
const KIND_OF: Record<string, LaterDocRef['kind']> = {
  IssueCard: 'issue',
  ReceiptCard: 'receipt',
  IssueCardReversal: 'return',
  ReceiptCardReversal: 'withdrawal',
};

const toLayerOf = (r: { id: string; unit_cost: string; q: string; v: string }): Layer => ({
  id: r.id,
  unitCost: dec(r.unit_cost),
  remainingQuantity: dec(r.q),
  remainingValue: dec(r.v),
});

/**
 * The state of one key as of the end of `date`, for storing a document dated `date` (DESIGN §5).
 * Current-date document: the balance row and (FIFO issue) the open layers that cover `needed`, work
 * proportional to the layers consumed. Back-dated: quantity and value summed from the ledger up to
 * `date`, the layers as they stood then (consumptions dated later given back), and the later documents
 * of the key to replay: work proportional to the key's movements after `date`.
 */
export async function loadKey(
  em: EntityManager,
  companyId: string,
  warehouseId: string,
  key: StockKey,
  balance: BalanceRow | undefined,
  date: string,
  o: {
    /** FIFO: layers are part of the state (a repost always needs them). */
    fifo: boolean;
    /** A current-date issue needs the open layers covering `needed`; a current-date receipt none. */
    currentNeedsLayers: boolean;
    /** Every open layer, even on the current date (a receipt's reversal looks for the receipt's own). */
    allLayers?: boolean;
    needed: Dec;
    prefetched?: LayerRow[];
  },
): Promise<KeyLoad> {
  if (isCurrent(balance, date) && !o.allLayers) {
    let layers: Layer[] = [];
    if (o.fifo && o.currentNeedsLayers) {
      const pre = o.prefetched;
      const covered = (pre ?? []).reduce((acc, l) => acc.plus(dec(l.remainingQuantity)), dec(0));
      const rows =
        pre && (pre.length < FIRST_BATCH || covered.gte(o.needed))
          ? pre
          : await openLayers(em, companyId, warehouseId, key, o.needed);
      layers = rows.map(toLayer);
    }
    return {
      current: true,
      later: [],
      start: { quantity: dec(balance?.quantity ?? 0), value: dec(balance?.value ?? 0), layers },
    };
  }
  const lot = lotKeyOf(key.lotNumberID);
  const keyArgs = [companyId, warehouseId, key.itemId, lot];
  const [sums] = await em.execute<{ quantity: string; value: string }[]>(
    `select coalesce(sum("quantity"), 0)::text as "quantity", coalesce(sum("value"), 0)::text as "value"
       from "warehouse"."stock_movement"
      where "company_id" = ? and "warehouse_id" = ? and "item_id" = ? and "lot_key" = ? and "date_operation" <= ?`,
    [...keyArgs, date],
  );
  const later = await em.execute<{ document_id: string; document_type: string; date: string; seq: string }[]>(
    `select "document_id", "document_type", to_char("date_operation", 'YYYY-MM-DD') as "date", min("seq")::text as "seq"
       from "warehouse"."stock_movement"
      where "company_id" = ? and "warehouse_id" = ? and "item_id" = ? and "lot_key" = ? and "date_operation" > ?
        and "document_type" in ('IssueCard', 'ReceiptCard', 'IssueCardReversal', 'ReceiptCardReversal')
      group by "document_id", "document_type", "date_operation"
      order by "date_operation", min("seq")`,
    [...keyArgs, date],
  );
  let layers: Layer[] = [];
  if (o.fifo) {
    // Layers dated up to `date` as they stood then: the consumptions of later issues given back.
    const rows = await em.execute<{ id: string; unit_cost: string; q: string; v: string }[]>(
      `select l."id", l."unit_cost"::text,
              (l."remaining_quantity" + coalesce(c."quantity", 0))::text as "q",
              (l."remaining_value" + coalesce(c."value", 0))::text as "v"
         from "warehouse"."valuation_layer" l
         left join lateral (
           select sum(x."quantity") as "quantity", sum(x."value") as "value"
             from "warehouse"."layer_consumption" x
            where x."layer_id" = l."id" and x."date_operation" > ?
         ) c on true
        where l."company_id" = ? and l."warehouse_id" = ? and l."item_id" = ? and l."lot_key" = ? and l."date_operation" <= ?
          and (l."remaining_quantity" > 0 or c."quantity" > 0)
        order by l."date_operation", l."seq", l."line_no"`,
      [date, ...keyArgs, date],
    );
    layers = rows.map(toLayerOf).filter((l) => l.remainingQuantity.gt(0));
  }
  return {
    current: false,
    start: { quantity: dec(sums.quantity), value: dec(sums.value), layers },
    later: later.map((r) => ({
      kind: KIND_OF[r.document_type],
      docId: r.document_id,
      date: r.date,
      seq: r.seq,
    })),
  };
}
