/**
 * The stock ledger of one (warehouse, item, lot) as a replay (DESIGN §5 "Repost"): the ledger is always
 * what replaying the documents of a key in ledger order (dateOperation, then creation order) gives.
 * Storing a document dated D is: take the key's state as of the end of D, replay the new document and
 * then every later document of the key, and store whatever changed. For a current-date document the
 * list of later documents is empty, so the replay is the plain valuation of that document.
 *
 * The rules applied per document (DESIGN §5):
 * - FIFO: an issue consumes the oldest layers first ({@link consumeFifo}); one issued line becomes one
 *   row per cost price; pieces beyond stock are a row at cost 0 (negative stock allowed).
 * - WeightedAverage: an issue takes round4(value / quantity) per piece ({@link issueAtAverage}); at
 *   quantity 0 or below the value is 0.
 * - Custom: the caller's cost, before and beyond stock; no settlement; value may be non-zero at 0.
 * - A receipt into a negative balance first settles the missing pieces at its cost (FIFO and
 *   WeightedAverage only, {@link splitReceipt}); the rest forms a layer (FIFO) or joins the average.
 * - Not allowing negative stock: a replay in which the running quantity goes below zero is refused.
 *
 * Pure: no ORM, no I/O. Quantities and unit costs are decimals with 4 places, values 2 places.
 */
import type { ValuationMethod } from '@bm/contracts';
import { Dec, dec, round2, round4 } from '@bm/money';
import { consumeFifo, type Layer, splitByCost } from './fifo.js';
import { issueAtAverage } from './moving-average.js';
import { splitReceipt } from './receipt.js';

export type { ValuationMethod } from '@bm/contracts';

export type * from './ledger-types.js';

import type {
  DocResult,
  IssuedLine,
  IssuedPiece,
  IssueLineIn,
  KeyLedgerState,
  LedgerDoc,
  ReceiptLineIn,
  ReceivedLine,
  ReplayResult,
  WithdrawalLineIn,
} from './ledger-types.js';

/** Key of the stock ledger within a warehouse: item and lot. */
export const stockKey = (itemId: string, lotNumberID: string | null) => `${itemId}|${lotNumberID ?? ''}`;

/**
 * Key of the stock ledger across warehouses (`<warehouseId>:<stockKey>`): a card's declared lock in the
 * group commit, and the key of the group's reads.
 */
export const layerKey = (warehouseId: string, k: { itemId: string; lotNumberID: string | null }) =>
  `${warehouseId}:${stockKey(k.itemId, k.lotNumberID)}`;

/** The id a layer formed by a replayed receipt row gets until it is stored. */
export const newLayerId = (docId: string, line: number) => `new:${docId}:${line}`;

const cloneState = (s: KeyLedgerState): KeyLedgerState => ({
  quantity: s.quantity,
  value: s.value,
  layers: s.layers.map((l) => ({ ...l })),
});

/** Takes `quantity` from the layers of `s` in the order of `layers` (mutated): the pieces, by cost price. */
function takeFromLayers(s: KeyLedgerState, layers: readonly Layer[], quantity: Dec): IssuedPiece[] {
  const pieces: IssuedPiece[] = [];
  const { takes, uncovered } = consumeFifo(layers, quantity);
  for (const t of takes) {
    const layer = s.layers.find((x) => x.id === t.layerId)!;
    layer.remainingQuantity = layer.remainingQuantity.minus(t.quantity);
    layer.remainingValue = layer.remainingValue.minus(t.value);
  }
  s.layers = s.layers.filter((x) => x.remainingQuantity.gt(0));
  for (const split of splitByCost(takes))
    pieces.push({ ...split, takes: takes.filter((t) => t.unitCost.eq(split.costPrice)) });
  if (uncovered.gt(0)) pieces.push({ quantity: uncovered, costPrice: dec(0), amount: dec(0), takes: [] });
  return pieces;
}

/** Lowers `s` by `quantity` and the pieces' value; no cent stranded at quantity 0 or below (not Custom). */
function takeOut(method: ValuationMethod, s: KeyLedgerState, quantity: Dec, pieces: IssuedPiece[]) {
  const value = pieces.reduce((acc, p) => acc.plus(p.amount), dec(0));
  s.quantity = s.quantity.minus(quantity);
  s.value = s.value.minus(value);
  // Below 0 the missing pieces carry no value until settled.
  if (s.quantity.lte(0) && method !== 'Custom') s.value = dec(0);
}

/**
 * Takes a receipt's reversal line out of `s` (mutated) at the receipt's cost (issue #38): Custom at
 * `costPrice`; FIFO from the receipt's own layer first, then the oldest layers, pieces beyond stock at
 * 0; WeightedAverage at `costPrice`, but never more value than the stock holds. Returns the pieces and
 * what the receipt's own layer held (FIFO; else the whole quantity).
 */
function withdrawLine(
  method: ValuationMethod,
  s: KeyLedgerState,
  l: WithdrawalLineIn,
): { pieces: IssuedPiece[]; ownAvailable: Dec } {
  let pieces: IssuedPiece[];
  let ownAvailable = l.quantity;
  if (method === 'FIFO') {
    const own = s.layers.filter((x) => l.layerIds.includes(x.id));
    ownAvailable = own.reduce((acc, x) => acc.plus(x.remainingQuantity), dec(0));
    pieces = takeFromLayers(s, [...own, ...s.layers.filter((x) => !own.includes(x))], l.quantity);
  } else {
    const full = round2(l.quantity.mul(l.costPrice));
    const amount = method === 'Custom' || full.lte(s.value) ? full : Dec.max(s.value, dec(0));
    const costPrice = amount.eq(full) ? l.costPrice : round4(amount.div(l.quantity));
    pieces = [{ quantity: l.quantity, costPrice, amount, takes: [] }];
  }
  takeOut(method, s, l.quantity, pieces);
  return { pieces, ownAvailable };
}

/** Issues one line from `s` (mutated). */
function issueLine(method: ValuationMethod, s: KeyLedgerState, l: IssueLineIn): IssuedPiece[] {
  const pieces: IssuedPiece[] = [];
  if (method === 'Custom') {
    const costPrice = l.costPrice ?? dec(0);
    pieces.push({ quantity: l.quantity, costPrice, amount: round2(l.quantity.mul(costPrice)), takes: [] });
  } else if (method === 'FIFO') {
    pieces.push(...takeFromLayers(s, s.layers, l.quantity));
  } else {
    const a = issueAtAverage({ quantity: s.quantity, value: s.value }, l.quantity);
    if (a.valuedQuantity.gt(0))
      pieces.push({ quantity: a.valuedQuantity, costPrice: a.unitCost, amount: a.value, takes: [] });
    if (a.uncovered.gt(0))
      pieces.push({ quantity: a.uncovered, costPrice: dec(0), amount: dec(0), takes: [] });
  }
  takeOut(method, s, l.quantity, pieces);
  return pieces;
}

/** Receives one row into `s` (mutated). */
function receiveLine(
  method: ValuationMethod,
  s: KeyLedgerState,
  docId: string,
  l: ReceiptLineIn,
): ReceivedLine {
  // Custom never settles: its stock value is Σ receipts − Σ issues at the callers' costs.
  const split = splitReceipt(method === 'Custom' ? dec(0) : s.quantity, l.quantity, l.costPrice, l.amount);
  let layer: Layer | undefined;
  if (method === 'FIFO' && split.layerQuantity.gt(0)) {
    layer = {
      id: newLayerId(docId, l.line),
      unitCost: l.costPrice,
      remainingQuantity: split.layerQuantity,
      remainingValue: split.layerValue,
    };
    s.layers.push({ ...layer });
  }
  s.quantity = s.quantity.plus(l.quantity);
  s.value = s.value.plus(split.layerValue);
  return {
    line: l.line,
    quantity: l.quantity,
    amount: split.amount,
    settledQuantity: split.settledQuantity,
    settlementValue: split.settlementValue,
    layer,
  };
}

/**
 * Replays `docs` (in ledger order) from `start`, the key's state just before the first of them.
 * `start` is not changed. When negative stock is not allowed, the first movement whose running
 * quantity goes below zero ends the replay with a shortfall.
 */
export function replayKey(
  method: ValuationMethod,
  allowNegativeStock: boolean,
  start: KeyLedgerState,
  docs: readonly LedgerDoc[],
): ReplayResult {
  const s = cloneState(start);
  const out: DocResult[] = [];
  for (const d of docs) {
    if (d.kind === 'issue') {
      const lines = d.lines.map((l) => ({ line: l.line, pieces: issueLine(method, s, l) }));
      if (!allowNegativeStock && s.quantity.lt(0))
        return { ok: false, shortfall: { date: d.date, quantity: s.quantity } };
      out.push({ kind: 'issue', docId: d.docId, date: d.date, lines });
    } else if (d.kind === 'withdrawal') {
      const lines: IssuedLine[] = [];
      for (const l of d.lines) {
        const { pieces, ownAvailable } = withdrawLine(method, s, l);
        // The receipt's stock issued since: its reversal would take other stock or go negative.
        if (!allowNegativeStock && ownAvailable.lt(l.quantity))
          return {
            ok: false,
            shortfall: { date: d.date, quantity: ownAvailable.minus(l.quantity), available: ownAvailable },
          };
        lines.push({ line: l.line, pieces });
      }
      if (!allowNegativeStock && s.quantity.lt(0))
        return { ok: false, shortfall: { date: d.date, quantity: s.quantity } };
      out.push({ kind: 'withdrawal', docId: d.docId, date: d.date, lines });
    } else {
      const lines = d.lines.map((l) => receiveLine(method, s, d.docId, l));
      out.push(d.kind === 'return' ? { ...d, kind: 'return', lines } : { ...d, kind: 'receipt', lines });
    }
  }
  return { ok: true, docs: out, final: s };
}

/**
 * The most that could be issued on the first document's date without any running quantity of the
 * later documents going negative: the lowest running quantity from `start` through `later`, floored at
 * 0 (the `available` of a shortfall, DESIGN §2).
 */
export function availableFrom(start: Dec, later: readonly LedgerDoc[]): Dec {
  let running = start;
  let lowest = start;
  for (const d of later) {
    for (const l of d.lines)
      running =
        d.kind === 'issue' || d.kind === 'withdrawal' ? running.minus(l.quantity) : running.plus(l.quantity);
    if (running.lt(lowest)) lowest = running;
  }
  return lowest.lt(0) ? dec(0) : lowest;
}

/** Issue rows as stored: pieces of equal line and cost price compared, to tell whether a card changed. */
export function samePieces(a: readonly IssuedPiece[], b: readonly IssuedPiece[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (p, i) => p.quantity.eq(b[i].quantity) && p.costPrice.eq(b[i].costPrice) && p.amount.eq(b[i].amount),
    )
  );
}
