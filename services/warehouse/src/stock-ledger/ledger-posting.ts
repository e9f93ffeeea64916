/**
 * Posting a warehouse document to the stock ledger (DESIGN §5, "Repost"): load → replay → store.
 *
 * For every (item, lot) key of the new document: load the key's state as of the document's date and the
 * later documents of the key ({@link loadKey}), replay the new document and the later ones with the
 * pure rules of `rules/ledger-replay.ts`, then store: the new document's movements, layers and
 * consumptions, and for a back-dated document everything the replay changed in the later ones (their
 * movements, layers and consumptions rewritten; issue card rows, totals and accounting entries of
 * revalued cards; negative-stock settlements of later receipts), the key's balance, and one
 * `events.warehouse.stock-revalued` per revalued card through the outbox. A current-date document has
 * no later documents and does no repost work. The rules are pure (rules/ledger-replay.ts, rules/ledger-writes.ts,
 * rules/repost-revision.ts); this module loads, calls them and stores.
 */

import { fmt, sum } from '@bm/money';
import { type Ctx, type DocumentTx, type EntityManager, executeAll, type WritePart } from '@bm/service-kit';
import { closedPeriods } from '../master-data/index.js';
import { type BalanceRow, type LayerRow, lotKeyOf } from './balances.js';
import { loadKey } from './key-history.reads.js';
import { laterDocs } from './later-documents.js';
import { deleteReplayed, ledgerWriteParts } from './ledger-statements.js';
import type {
  LedgerWarehouse,
  NewDocument,
  PostingLine,
  PostingPlan,
  PostingShortfall,
} from './posting-types.js';
import { reviseLaterDocuments } from './revise-later-documents.js';
import { changedWithdrawal, reversalRevalued } from './rules/final-documents.js';
import {
  availableFrom,
  type LedgerDoc,
  replayKey,
  stockKey,
  type ValuationMethod,
} from './rules/ledger-replay.js';
import { ledgerRows } from './rules/ledger-writes.js';

export type {
  LedgerWarehouse,
  NewDocument,
  PostingLine,
  PostingPlan,
  PostingShortfall,
  RevaluedDoc,
  StoredIssueRow,
} from './posting-types.js';

const keyOf = (l: { itemId: string; lotNumberID: string | null }) => stockKey(l.itemId, l.lotNumberID);

/**
 * Loads every key of `doc` as of its date and replays it with the later documents of the key.
 * `balances` are the keys' balance rows (locked when storing; read for a preview).
 * @throws 422 OperationCanceledException (via `onShortfalls`) when stock would go negative in a
 *   warehouse that does not allow it, on the document's date or at any later movement.
 */
export async function planPosting(
  em: EntityManager,
  companyId: string,
  warehouse: LedgerWarehouse,
  doc: NewDocument,
  balances: Map<string, BalanceRow | undefined>,
  prefetched: Map<string, LayerRow[]>,
  onShortfalls: (s: PostingShortfall[]) => never,
): Promise<PostingPlan> {
  const method = warehouse.valuationMethod as ValuationMethod;
  const byKey = new Map<string, PostingLine[]>();
  for (const l of doc.lines) byKey.set(keyOf(l), [...(byKey.get(keyOf(l)) ?? []), l]);
  const plan: PostingPlan = {
    warehouse,
    doc,
    keys: [],
    issued: new Map(),
    settled: new Map(),
    laterIssueRows: new Map(),
  };
  const shortfalls: PostingShortfall[] = [];
  for (const lines of byKey.values()) {
    const { itemId, lotNumberID } = lines[0];
    const bk = stockKey(itemId, lotNumberID);
    const needed = sum(lines.map((l) => l.quantity));
    const load = await loadKey(
      em,
      companyId,
      warehouse.id,
      { itemId, lotNumberID },
      balances.get(bk),
      doc.date,
      {
        fifo: method === 'FIFO',
        // A current-date receipt settles on quantities only; a current-date issue takes the covering
        // layers; a receipt's reversal looks for the receipt's own layer among all of them.
        currentNeedsLayers: doc.kind === 'issue',
        allLayers: doc.kind === 'withdrawal',
        needed,
        prefetched: prefetched.get(bk),
      },
    );
    const later = await laterDocs(em, load.later, { itemId, lotNumberID }, method, plan.laterIssueRows);
    const first = firstDoc(doc, lines);
    // A receipt (or return) never lowers a balance, so its replay is never refused.
    const allowNegative = warehouse.allowNegativeStock || doc.kind === 'receipt' || doc.kind === 'return';
    const r = replayKey(method, allowNegative, load.start, [first, ...later]);
    if (!r.ok) {
      shortfalls.push({
        itemId,
        lotNumberID,
        requested: needed,
        available: r.shortfall.available ?? availableFrom(load.start.quantity, later),
        date: r.shortfall.date,
      });
      continue;
    }
    plan.keys.push({ itemId, lotNumberID, load, docs: r.docs, final: r.final });
    const mine = r.docs[0];
    if (mine.kind === 'issue' || mine.kind === 'withdrawal')
      for (const l of mine.lines) plan.issued.set(l.line, l.pieces);
    else for (const l of mine.lines) plan.settled.set(l.line, l.settlementValue);
    const changed = changedWithdrawal(later, r.docs);
    if (changed) throw reversalRevalued(`the reversal card ${changed}`);
  }
  if (shortfalls.length) onShortfalls(shortfalls);
  return plan;
}

/** The new document as the replay takes it: its lines of one key. */
function firstDoc(doc: NewDocument, lines: PostingLine[]): LedgerDoc {
  const { docId, date } = doc;
  if (doc.kind === 'issue')
    return {
      kind: 'issue',
      docId,
      date,
      lines: lines.map((l) => ({ line: l.line, quantity: l.quantity, costPrice: l.costPrice })),
    };
  if (doc.kind === 'withdrawal')
    return {
      kind: 'withdrawal',
      docId,
      date,
      lines: lines.map((l) => ({
        line: l.line,
        quantity: l.quantity,
        costPrice: l.costPrice!,
        layerIds: l.layerIds ?? [],
      })),
    };
  const received = lines.map((l) => ({
    line: l.line,
    quantity: l.quantity,
    costPrice: l.costPrice!,
    ...(l.amount ? { amount: l.amount } : {}),
  }));
  return { kind: doc.kind, docId, date, lines: received };
}

/**
 * Stores a planned posting inside the document's transaction: movements, layers, consumptions and
 * balances of every key, and the changes to later documents (see the module comment). `seq` is the new
 * document's place in the ledger. `isClosed` tells whether a period is closed; a revalued document in a
 * closed period refuses the whole posting with 422 PeriodClosed naming that document. In a group commit:
 * `beforeWrite` (the document's savepoint) runs before the first write; `defer` takes the writes of a
 * posting without later documents, for the group's last statement.
 */
export async function storePosting(
  tx: EntityManager,
  ctx: Ctx,
  plan: PostingPlan,
  seq: string,
  balances: Map<string, BalanceRow | undefined>,
  isClosed: (periodIds: string[]) => Promise<Set<string>>,
  group: { defer?: (parts: WritePart[]) => void; beforeWrite?: () => Promise<void> } = {},
): Promise<void> {
  const companyId = ctx.companyId!;
  const { warehouse, doc } = plan;
  const reposts = plan.keys.some((k) => k.load.later.length);
  if (reposts || !group.defer) await group.beforeWrite?.();
  for (const k of plan.keys) {
    const lot = lotKeyOf(k.lotNumberID);
    const keyWhere: [string, string, string, string] = [companyId, warehouse.id, k.itemId, lot];
    // Documents that consumed layers (issues and receipt reversals): their consumptions are replayed.
    const laterIssueIds = k.load.later
      .filter((d) => d.kind === 'issue' || d.kind === 'withdrawal')
      .map((d) => d.docId);
    // Everything derived after the document's date is replayed: remove it, then write the replay.
    if (k.load.later.length) await deleteReplayed(tx, keyWhere, laterIssueIds, doc.date);
    const balance = balances.get(stockKey(k.itemId, k.lotNumberID))!;
    balance.quantity = fmt(k.final.quantity);
    balance.value = fmt(k.final.value);
    if (!balance.lastDate || doc.date > balance.lastDate) balance.lastDate = doc.date;
  }
  // The rows the replay writes (pure: rules/ledger-writes.ts).
  const { movements, layers, consumptions, layerUpdates, repostedLines, laterReceipts } = ledgerRows({
    companyId,
    warehouseId: warehouse.id,
    doc,
    seq,
    keys: plan.keys.map((k) => ({
      itemId: k.itemId,
      lotKey: lotKeyOf(k.lotNumberID),
      later: k.load.later,
      startLayers: k.load.start.layers,
      docs: k.docs,
      final: k.final,
    })),
  });

  // The ledger's writes of the document (balances, movements, new layers, consumptions and the layers'
  // remaining stock) go to PostgreSQL as one statement (issue #13); a current-date document's, with
  // `defer`, as part of its group's last statement (issue #24).
  const parts = ledgerWriteParts(
    plan.keys.map((k) => balances.get(stockKey(k.itemId, k.lotNumberID))!),
    { movements, layers, consumptions, layerUpdates },
  );
  if (group.defer && !reposts) return group.defer(parts);
  await executeAll(
    tx,
    parts.map((p) => p.build(p.rows)),
  );
  await reviseLaterDocuments(tx, ctx, plan, repostedLines, laterReceipts, isClosed);
}

/**
 * {@link storePosting} of a card in its group commit (issue #24): the ledger's writes handed to the group
 * (the card declared its stock keys as its locks), or, for a back-dated card, made at once after its savepoint; a
 * revalued document in a closed period (the warehouse's copy of the periods) refuses the card.
 */
export function storePostingInGroup(
  g: DocumentTx,
  ctx: Ctx,
  plan: PostingPlan,
  stock: { seq: string; balances: Map<string, BalanceRow | undefined> },
): Promise<void> {
  return storePosting(
    g.tx,
    ctx,
    plan,
    stock.seq,
    stock.balances,
    (ids) => closedPeriods({ ...ctx, em: g.tx }, ids),
    { beforeWrite: g.savepoint, defer: g.defer },
  );
}
