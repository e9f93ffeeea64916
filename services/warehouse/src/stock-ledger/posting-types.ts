import type { Dec } from '@bm/money';
import type { KeyLoad } from './key-history.reads.js';
import type { DocResult, IssuedPiece, KeyLedgerState } from './rules/ledger-replay.js';
import type { StoredIssueRow } from './rules/repost-revision.js';
import type { WarehouseAccounts } from './rules/warehouse-accounting.js';

export type { RevaluedDoc, StoredIssueRow } from './rules/repost-revision.js';

/** One line of the new document. */
export interface PostingLine {
  line: number;
  itemId: string;
  lotNumberID: string | null;
  quantity: Dec;
  /** Receipt, return, withdrawal: the row's cost; issue: the caller's cost (Custom only). */
  costPrice?: Dec;
  /** Return (an issue card's reversal): the piece's value as it left. */
  amount?: Dec;
  /** Withdrawal (a receipt's reversal): the receipt's own layer (rules/ledger-replay.ts). */
  layerIds?: readonly string[];
}

/**
 * The document being stored (or previewed): an issue card, a receipt card, or the reversal of one
 * (`return`: an issue card's, `withdrawal`: a receipt card's; issue #38).
 */
export interface NewDocument {
  kind: 'issue' | 'receipt' | 'return' | 'withdrawal';
  docId: string;
  date: string;
  lines: PostingLine[];
}

/** The warehouse as the ledger needs it. */
export interface LedgerWarehouse extends WarehouseAccounts {
  id: string;
  valuationMethod: string;
  allowNegativeStock: boolean;
}

/** One entry of `shortfalls` of 422 OperationCanceledException (DESIGN §2). */
export interface PostingShortfall {
  itemId: string;
  lotNumberID: string | null;
  requested: Dec;
  available: Dec;
  date: string;
}

export interface KeyPlan {
  itemId: string;
  lotNumberID: string | null;
  load: KeyLoad;
  docs: DocResult[];
  final: KeyLedgerState;
}

/** The replayed posting: the new document's valued lines and what storing it changes. */
export interface PostingPlan {
  warehouse: LedgerWarehouse;
  doc: NewDocument;
  keys: KeyPlan[];
  /** Issue, withdrawal: the pieces (stored rows) of each line of the new document. */
  issued: Map<number, IssuedPiece[]>;
  /** Receipt, return: the settlement value of each line of the new document. */
  settled: Map<number, Dec>;
  /** Later documents' lines by document id (loaded once, shared by the keys). */
  laterIssueRows: Map<string, StoredIssueRow[]>;
}
