/**
 * Values the rows of one issue card (DESIGN §5): availability per (item, lot) as of the issue date and
 * at every later movement, then FIFO / moving average / Custom valuation, with the pieces beyond stock
 * at cost 0 when negative stock is allowed. Pure: the caller loads the state and stores the result.
 */
import { type Dec, dec, fmt, round2 } from '@bm/money';
import { checkAvailability, type LaterBalance } from './availability.js';
import { consumeFifo, type Layer, type LayerTake, splitByCost } from './fifo.js';
import { type Balance, issueAtAverage } from './moving-average.js';

export type ValuationMethod = 'FIFO' | 'WeightedAverage' | 'Custom';

/** Stock of one (item, lot) as of the issue date. */
export interface KeyState {
  itemId: string;
  lotNumberID: string | null;
  /** Quantity and value as of the end of the issue date (before this issue). */
  balance: Balance;
  /** FIFO layers with stock left as of the issue date, oldest first (FIFO only). */
  layers: Layer[];
  /** Running quantities after each movement dated after the issue date. */
  later: LaterBalance[];
}

/** One row to issue. */
export interface IssueLine {
  itemId: string;
  lotNumberID: string | null;
  quantity: Dec;
  /** Given cost price (Custom valuation only). */
  costPrice?: Dec;
}

/** A valued piece of a line: the stored row. A line splits into several under FIFO or beyond stock. */
export interface ValuedRow {
  line: number;
  quantity: Dec;
  costPrice: Dec;
  amount: Dec;
  /** FIFO layers consumed for this row. */
  takes: LayerTake[];
}

/** One entry of `shortfalls` of 422 OperationCanceledException (DESIGN §2). */
export interface Shortfall {
  itemId: string;
  lotNumberID: string | null;
  requested: string;
  available: string;
  date: string;
}

export type ValuationResult =
  | { ok: true; rows: ValuedRow[]; consumed: Map<string, { quantity: Dec; value: Dec }> }
  | { ok: false; shortfalls: Shortfall[] };

/** Key of the stock ledger within a warehouse: item and lot. */
export const stockKey = (itemId: string, lotNumberID: string | null) => `${itemId}|${lotNumberID ?? ''}`;

/**
 * Values `lines` issued on `date`. `states` holds the state of every key of the lines and is advanced as
 * lines are valued (two lines of one item consume in order). Returns the shortfalls instead when
 * negative stock is not allowed and some balance would go negative.
 */
export function valueIssue(
  method: ValuationMethod,
  allowNegativeStock: boolean,
  date: string,
  lines: readonly IssueLine[],
  states: Map<string, KeyState>,
): ValuationResult {
  if (!allowNegativeStock) {
    const requested = new Map<string, Dec>();
    for (const l of lines) {
      const k = stockKey(l.itemId, l.lotNumberID);
      requested.set(k, (requested.get(k) ?? dec(0)).plus(l.quantity));
    }
    const shortfalls: Shortfall[] = [];
    for (const [k, q] of requested) {
      const s = states.get(k)!;
      const a = checkAvailability(date, s.balance.quantity, s.later, q);
      if (a.firstNegativeDate) {
        shortfalls.push({
          itemId: s.itemId,
          lotNumberID: s.lotNumberID,
          requested: fmt(q),
          available: fmt(a.available),
          date: a.firstNegativeDate,
        });
      }
    }
    if (shortfalls.length) return { ok: false, shortfalls };
  }
  const rows: ValuedRow[] = [];
  const consumed = new Map<string, { quantity: Dec; value: Dec }>();
  lines.forEach((l, line) => {
    const k = stockKey(l.itemId, l.lotNumberID);
    const s = states.get(k)!;
    const pieces: ValuedRow[] = [];
    if (method === 'Custom') {
      pieces.push({
        line,
        quantity: l.quantity,
        costPrice: l.costPrice!,
        amount: round2(l.quantity.mul(l.costPrice!)),
        takes: [],
      });
    } else if (method === 'FIFO') {
      const { takes, uncovered } = consumeFifo(s.layers, l.quantity);
      for (const t of takes) {
        const layer = s.layers.find((x) => x.id === t.layerId)!;
        layer.remainingQuantity = layer.remainingQuantity.minus(t.quantity);
        layer.remainingValue = layer.remainingValue.minus(t.value);
      }
      for (const split of splitByCost(takes)) {
        pieces.push({ line, ...split, takes: takes.filter((t) => t.unitCost.eq(split.costPrice)) });
      }
      if (uncovered.gt(0))
        pieces.push({ line, quantity: uncovered, costPrice: dec(0), amount: dec(0), takes: [] });
    } else {
      const a = issueAtAverage(s.balance, l.quantity);
      if (a.valuedQuantity.gt(0))
        pieces.push({ line, quantity: a.valuedQuantity, costPrice: a.unitCost, amount: a.value, takes: [] });
      if (a.uncovered.gt(0))
        pieces.push({ line, quantity: a.uncovered, costPrice: dec(0), amount: dec(0), takes: [] });
    }
    const value = pieces.reduce((acc, p) => acc.plus(p.amount), dec(0));
    s.balance = { quantity: s.balance.quantity.minus(l.quantity), value: s.balance.value.minus(value) };
    if (s.balance.quantity.lte(0) && method !== 'Custom') s.balance.value = dec(0);
    const c = consumed.get(k) ?? { quantity: dec(0), value: dec(0) };
    consumed.set(k, { quantity: c.quantity.plus(l.quantity), value: c.value.plus(value) });
    rows.push(...pieces);
  });
  return { ok: true, rows, consumed };
}
