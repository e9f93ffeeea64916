/**
 * The ledger rows a replayed posting writes (DESIGN §5 "Repost"), pure: for every key, the movements of
 * the new document and of the later documents replayed after it (issues negative, receipts positive, a
 * receipt's negative-stock settlement as a value-only movement), the FIFO layers receipts open, the
 * consumptions issues take from layers, the remaining stock of layers that existed before, and which
 * later issue cards and receipts the repost touched. Quantities 4 decimals, values 2, as exact strings.
 */
import { fmt } from '@bm/money';
import type { DocResult, IssuedPiece, KeyLedgerState } from './ledger-replay.js';

/** One replayed key: its later documents (with their ledger sequence), layers before, results, final state. */
export interface ReplayedKey {
  itemId: string;
  /** The lot, or the nil GUID for none (the ledger's key column). */
  lotKey: string;
  later: { docId: string; seq: string }[];
  startLayers: { id: string }[];
  docs: DocResult[];
  final: KeyLedgerState;
}

/** The rows to insert and update, in the column order of the ledger's set-based statements. */
export interface LedgerRows {
  movements: unknown[][];
  layers: unknown[][];
  consumptions: unknown[][];
  /** [layer id, remaining quantity, remaining value] of layers that existed before the document. */
  layerUpdates: [string, string, string][];
  /** Later issue cards' new pieces per line, over every reposted key. */
  repostedLines: Map<string, Map<number, IssuedPiece[]>>;
  /** Later receipts: their accounting entries follow the replayed negative-stock settlements. */
  laterReceipts: Set<string>;
  /** Later receipt reversals' pieces per line (a repost may not change them: ledger-posting.ts). */
  laterWithdrawals: Map<string, Map<number, IssuedPiece[]>>;
}

/** The movements' `document_type` of each kind of ledger document (a reversal is a card of its own type). */
const DOCUMENT_TYPE = {
  issue: 'IssueCard',
  receipt: 'ReceiptCard',
  return: 'IssueCardReversal',
  withdrawal: 'ReceiptCardReversal',
} as const;

/** The rows of a posting of `doc` (ledger place `seq`) over `keys`; new layers get fresh ids. */
export function ledgerRows(o: {
  companyId: string;
  warehouseId: string;
  doc: { docId: string; date: string };
  seq: string;
  keys: ReplayedKey[];
}): LedgerRows {
  const { companyId, doc, seq } = o;
  const movements: unknown[][] = [];
  const layers: unknown[][] = [];
  const consumptions: unknown[][] = [];
  const layerUpdates: [string, string, string][] = [];
  const repostedLines = new Map<string, Map<number, IssuedPiece[]>>();
  const laterReceipts = new Set<string>();
  const laterWithdrawals = new Map<string, Map<number, IssuedPiece[]>>();
  for (const k of o.keys) {
    const lot = k.lotKey;
    const warehouse = { id: o.warehouseId };
    const seqOf = new Map(k.later.map((d) => [d.docId, d.seq]));
    const layerIds = new Map<string, string>();
    const realLayer = (id: string) => {
      if (!id.startsWith('new:')) return id;
      const real = layerIds.get(id) ?? crypto.randomUUID();
      layerIds.set(id, real);
      return real;
    };
    for (const d of k.docs) {
      const docSeq = d.docId === doc.docId ? seq : seqOf.get(d.docId)!;
      const at = [companyId, warehouse.id, k.itemId, lot, d.date, docSeq];
      if (d.kind === 'issue' || d.kind === 'withdrawal') {
        for (const l of d.lines)
          for (const p of l.pieces) {
            movements.push([
              ...at,
              fmt(p.quantity.neg()),
              fmt(p.amount.neg()),
              DOCUMENT_TYPE[d.kind],
              d.docId,
            ]);
            for (const t of p.takes)
              consumptions.push([
                companyId,
                realLayer(t.layerId),
                d.docId,
                d.date,
                fmt(t.quantity),
                fmt(t.value),
              ]);
          }
        if (d.docId !== doc.docId) {
          const into = d.kind === 'issue' ? repostedLines : laterWithdrawals;
          const m = into.get(d.docId) ?? new Map<number, IssuedPiece[]>();
          for (const l of d.lines) m.set(l.line, l.pieces);
          into.set(d.docId, m);
        }
      } else {
        for (const l of d.lines) {
          movements.push([...at, fmt(l.quantity), fmt(l.amount), DOCUMENT_TYPE[d.kind], d.docId]);
          if (l.settledQuantity.gt(0))
            movements.push([...at, '0', fmt(l.settlementValue.neg()), 'NegativeStockSettlement', d.docId]);
          if (l.layer) {
            const final = k.final.layers.find((x) => x.id === l.layer!.id);
            layers.push([
              realLayer(l.layer.id),
              ...at,
              l.line,
              fmt(l.layer.remainingQuantity),
              fmt(l.layer.unitCost),
              fmt(l.layer.remainingValue),
              fmt(final?.remainingQuantity ?? 0),
              fmt(final?.remainingValue ?? 0),
            ]);
          }
        }
        if (d.docId !== doc.docId && d.kind === 'receipt') laterReceipts.add(d.docId);
      }
    }
    // Layers that existed before the document: their remaining stock after the replay.
    for (const l of k.startLayers) {
      const final = k.final.layers.find((x) => x.id === l.id);
      layerUpdates.push([l.id, fmt(final?.remainingQuantity ?? 0), fmt(final?.remainingValue ?? 0)]);
    }
  }
  return { movements, layers, consumptions, layerUpdates, repostedLines, laterReceipts, laterWithdrawals };
}
