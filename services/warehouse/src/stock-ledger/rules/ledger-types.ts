/**
 * The shapes of the stock ledger's replay (rules/ledger-replay.ts): a key's state, the documents replayed
 * (issues, receipts and the two reversals of issue #38) and what the replay made of them. Pure types.
 * Quantities and unit costs are decimals with 4 places, values 2 places.
 */
import type { Dec } from '@bm/money';
import type { Layer, LayerTake } from './fifo.js';

/** The state of one key at a point of the ledger. */
export interface KeyLedgerState {
  quantity: Dec;
  /** Stock value, 2 decimals. Under FIFO it equals Σ remaining layer values. */
  value: Dec;
  /** FIFO layers with stock left, oldest first (empty under the other methods). */
  layers: Layer[];
}

/** One line of an issue document for this key (lines of other keys are replayed separately). */
export interface IssueLineIn {
  /** The line's number in its document (the input row it came from). */
  line: number;
  quantity: Dec;
  /** The caller's cost price (Custom only). */
  costPrice?: Dec;
}

/** One row of a receipt document for this key. */
export interface ReceiptLineIn {
  line: number;
  quantity: Dec;
  costPrice: Dec;
  /** The row's value when not round2(quantity × costPrice): a reversed issue piece's own amount. */
  amount?: Dec;
}

/**
 * One line of a receipt's reversal (issue #38, storno): the receipt's row taken out again at the
 * receipt's cost, under FIFO from the receipt's own layer first (`layerIds`: that layer's id as stored
 * and as a replay of the receipt names it, {@link newLayerId}).
 */
export interface WithdrawalLineIn {
  line: number;
  quantity: Dec;
  costPrice: Dec;
  layerIds: readonly string[];
  /** The value the reversal card took out when stored (a later reversal in a repost; 2 decimals). */
  storedAmount?: Dec;
}

/**
 * A document of the key's ledger, in ledger order. `return` is an issue card's reversal: the issued
 * pieces back at their cost prices, ruled as a receipt. `withdrawal` is a receipt card's reversal.
 */
export type LedgerDoc =
  | { kind: 'issue'; docId: string; date: string; lines: IssueLineIn[] }
  | { kind: 'receipt'; docId: string; date: string; lines: ReceiptLineIn[] }
  | { kind: 'return'; docId: string; date: string; lines: ReceiptLineIn[] }
  | { kind: 'withdrawal'; docId: string; date: string; lines: WithdrawalLineIn[] };

/** A valued piece of an issue line: one stored row. */
export interface IssuedPiece {
  quantity: Dec;
  costPrice: Dec;
  amount: Dec;
  /** The FIFO layers this piece consumed (layer ids as in the state, new layers as `new:<docId>:<line>`). */
  takes: LayerTake[];
}

export interface IssuedLine {
  line: number;
  pieces: IssuedPiece[];
}

/** What a receipt row did: its settlement of a negative balance and the layer it left. */
export interface ReceivedLine {
  line: number;
  quantity: Dec;
  amount: Dec;
  settledQuantity: Dec;
  settlementValue: Dec;
  /** The FIFO layer the row formed (absent when it only settled, or under other methods). */
  layer?: Layer;
}

export type DocResult =
  | { kind: 'issue'; docId: string; date: string; lines: IssuedLine[] }
  | { kind: 'withdrawal'; docId: string; date: string; lines: IssuedLine[] }
  | { kind: 'receipt'; docId: string; date: string; lines: ReceivedLine[] }
  | { kind: 'return'; docId: string; date: string; lines: ReceivedLine[] };

/** Where a replay would take the key's quantity below zero in a warehouse that does not allow it. */
export interface ReplayShortfall {
  /** The date of the first movement whose running quantity goes negative. */
  date: string;
  /** The running quantity there. */
  quantity: Dec;
  /**
   * What could be taken instead, when the limit is not the running quantity: a receipt's reversal under
   * FIFO can take no more than its own layer still holds.
   */
  available?: Dec;
}

export type ReplayResult =
  | { ok: true; docs: DocResult[]; final: KeyLedgerState }
  | { ok: false; shortfall: ReplayShortfall };
