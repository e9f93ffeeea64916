/**
 * Posting a warehouse document to the stock ledger (DESIGN §5, "Repost"): load → replay → store.
 *
 * For every (item, lot) key of the new document: load the key's state as of the document's date and the
 * later documents of the key ({@link loadKey}), replay the new document and the later ones with the
 * pure rules of `domain/ledger-replay.ts`, then store: the new document's movements, layers and
 * consumptions, and for a back-dated document everything the replay changed in the later ones (their
 * movements, layers and consumptions rewritten; issue card rows, totals and accounting entries of
 * revalued cards; negative-stock settlements of later receipts), the key's balance, and one
 * `events.warehouse.stock-revalued` per revalued card through the outbox. A current-date document has
 * no later documents and does no repost work. This module only loads, locks and stores.
 */

import { EventSubjects, type StockRevaluedEvent } from '@bm/contracts';
import { ErrorCode, unprocessable } from '@bm/errors';
import { type Dec, dec, fmt, sum } from '@bm/money';
import {
  type Ctx,
  type EntityManager,
  enqueueEvent,
  executeAll,
  pgArray,
  type Statement,
} from '@bm/service-kit';
import {
  availableFrom,
  type DocResult,
  type IssuedPiece,
  type KeyLedgerState,
  type LedgerDoc,
  replayKey,
  samePieces,
  stockKey,
  type ValuationMethod,
} from '../domain/ledger-replay.js';
import { issueEntries, receiptEntries, type WarehouseAccounts } from '../domain/warehouse-accounting.js';
import { AccountingEntryEntity, OutboxEntity, ReceiptCardRowEntity } from '../persistence/entities.js';
import { type KeyLoad, type LaterDocRef, loadKey } from '../persistence/key-history.repository.js';
import {
  type BalanceRow,
  balancesUpdate,
  type LayerRow,
  lotKeyOf,
} from '../persistence/stock-ledger.repository.js';

/** A stored issue card row as a repost reads and rewrites it (plain data, not an ORM entity). */
export interface StoredIssueRow {
  id: string;
  issueCardId: string;
  rowNo: number;
  lineNo: number;
  itemId: string;
  code: string | null;
  name: string | null;
  unitId: string | null;
  lotNumberId: string | null;
  quantity: string;
  sellPrice: string;
  costPrice: string;
  amount: string;
}

/** One line of the new document. */
export interface PostingLine {
  line: number;
  itemId: string;
  lotNumberID: string | null;
  quantity: Dec;
  /** Receipt: the row's cost; issue: the caller's cost (Custom only). */
  costPrice?: Dec;
}

/** The document being stored (or previewed). */
export interface NewDocument {
  kind: 'issue' | 'receipt';
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

interface KeyPlan {
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
  /** Issue: the pieces (stored rows) of each line of the new document. */
  issued: Map<number, IssuedPiece[]>;
  /** Receipt: the settlement value of each line of the new document. */
  settled: Map<number, Dec>;
  /** Later documents' lines by document id (loaded once, shared by the keys). */
  laterIssueRows: Map<string, StoredIssueRow[]>;
}

const keyOf = (l: { itemId: string; lotNumberID: string | null }) => stockKey(l.itemId, l.lotNumberID);

/** Loads the later documents' lines of one key, in the shape the replay takes. */
async function laterDocs(
  em: EntityManager,
  refs: LaterDocRef[],
  key: { itemId: string; lotNumberID: string | null },
  method: ValuationMethod,
  issueRows: Map<string, StoredIssueRow[]>,
): Promise<LedgerDoc[]> {
  const missing = refs.filter((r) => r.kind === 'issue' && !issueRows.has(r.docId)).map((r) => r.docId);
  for (const id of missing) issueRows.set(id, []);
  if (missing.length) {
    const rows = await em.execute<StoredIssueRow[]>(
      `select "id", "issue_card_id" as "issueCardId", "row_no" as "rowNo", "line_no" as "lineNo", "item_id" as "itemId",
              "code", "name", "unit_id" as "unitId", "lot_number_id" as "lotNumberId", "quantity"::text,
              "sell_price"::text as "sellPrice", "cost_price"::text as "costPrice", "amount"::text
         from "warehouse"."issue_card_row" where "issue_card_id" = any(?::uuid[])`,
      [pgArray(missing)],
    );
    for (const row of rows) issueRows.get(row.issueCardId)!.push(row);
  }
  for (const id of missing) issueRows.get(id)!.sort((a, b) => a.rowNo - b.rowNo);
  const receiptIds = refs.filter((r) => r.kind === 'receipt').map((r) => r.docId);
  const receiptRows = new Map<string, { line: number; quantity: Dec; costPrice: Dec }[]>();
  for (let i = 0; i < receiptIds.length; i += 5000) {
    const rows = await em.find(
      ReceiptCardRowEntity,
      {
        receiptCardId: { $in: receiptIds.slice(i, i + 5000) },
        itemId: key.itemId,
        lotNumberId: key.lotNumberID,
      },
      { orderBy: { rowNo: 'asc' } },
    );
    for (const r of rows) {
      const list = receiptRows.get(r.receiptCardId) ?? [];
      list.push({ line: r.rowNo - 1, quantity: dec(r.quantity), costPrice: dec(r.costPrice) });
      receiptRows.set(r.receiptCardId, list);
    }
  }
  return refs.map((ref): LedgerDoc => {
    if (ref.kind === 'receipt')
      return { kind: 'receipt', docId: ref.docId, date: ref.date, lines: receiptRows.get(ref.docId) ?? [] };
    const byLine = new Map<number, { quantity: Dec; costPrice: Dec }>();
    for (const r of issueRows.get(ref.docId)!) {
      if (r.itemId !== key.itemId || (r.lotNumberId ?? null) !== key.lotNumberID) continue;
      const l = byLine.get(r.lineNo);
      byLine.set(r.lineNo, {
        quantity: (l?.quantity ?? dec(0)).plus(dec(r.quantity)),
        costPrice: l?.costPrice ?? dec(r.costPrice),
      });
    }
    return {
      kind: 'issue',
      docId: ref.docId,
      date: ref.date,
      lines: [...byLine].map(([line, l]) => ({
        line,
        quantity: l.quantity,
        ...(method === 'Custom' ? { costPrice: l.costPrice } : {}),
      })),
    };
  });
}

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
    const bk = `${itemId}|${lotKeyOf(lotNumberID)}`;
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
        // A current-date receipt settles on quantities only; a current-date issue takes the covering layers.
        currentNeedsLayers: doc.kind === 'issue',
        needed,
        prefetched: prefetched.get(bk),
      },
    );
    const later = await laterDocs(em, load.later, { itemId, lotNumberID }, method, plan.laterIssueRows);
    const first: LedgerDoc =
      doc.kind === 'issue'
        ? {
            kind: 'issue',
            docId: doc.docId,
            date: doc.date,
            lines: lines.map((l) => ({ line: l.line, quantity: l.quantity, costPrice: l.costPrice })),
          }
        : {
            kind: 'receipt',
            docId: doc.docId,
            date: doc.date,
            lines: lines.map((l) => ({ line: l.line, quantity: l.quantity, costPrice: l.costPrice! })),
          };
    // A receipt never lowers a balance, so its replay is never refused.
    const allowNegative = warehouse.allowNegativeStock || doc.kind === 'receipt';
    const r = replayKey(method, allowNegative, load.start, [first, ...later]);
    if (!r.ok) {
      shortfalls.push({
        itemId,
        lotNumberID,
        requested: needed,
        available: availableFrom(load.start.quantity, later),
        date: r.shortfall.date,
      });
      continue;
    }
    plan.keys.push({ itemId, lotNumberID, load, docs: r.docs, final: r.final });
    const mine = r.docs[0];
    if (mine.kind === 'issue') for (const l of mine.lines) plan.issued.set(l.line, l.pieces);
    else for (const l of mine.lines) plan.settled.set(l.line, l.settlementValue);
  }
  if (shortfalls.length) onShortfalls(shortfalls);
  return plan;
}

/** A later card whose cost the repost changed, and the closed-period check's input. */
export interface RevaluedDoc {
  kind: 'issue' | 'receipt';
  id: string;
  recordNumber: string;
  periodId: string | null;
}

/**
 * Stores a planned posting inside the document's transaction: movements, layers, consumptions and
 * balances of every key, and the changes to later documents (see the module comment). `seq` is the new
 * document's place in the ledger. `isClosed` tells whether a period is closed; a revalued document in a
 * closed period refuses the whole posting with 422 PeriodClosed naming that document.
 */
export async function storePosting(
  tx: EntityManager,
  ctx: Ctx,
  plan: PostingPlan,
  seq: string,
  balances: Map<string, BalanceRow | undefined>,
  isClosed: (periodIds: string[]) => Promise<Set<string>>,
): Promise<void> {
  const companyId = ctx.companyId!;
  const { warehouse, doc } = plan;
  const movements: unknown[][] = [];
  const layers: unknown[][] = [];
  const consumptions: unknown[][] = [];
  const layerUpdates: [string, string, string][] = [];
  /** Later issue cards' new pieces per line, over every reposted key. */
  const repostedLines = new Map<string, Map<number, IssuedPiece[]>>();
  /** Later receipts: their accounting entries follow the replayed negative-stock settlements. */
  const laterReceipts = new Set<string>();

  for (const k of plan.keys) {
    const lot = lotKeyOf(k.lotNumberID);
    const keyWhere = [companyId, warehouse.id, k.itemId, lot];
    const laterIssueIds = k.load.later.filter((d) => d.kind === 'issue').map((d) => d.docId);
    if (k.load.later.length) {
      // Everything derived after the document's date is replayed: remove it, then write the replay.
      await tx.execute(
        `delete from "warehouse"."layer_consumption" c using "warehouse"."valuation_layer" l
          where c."layer_id" = l."id" and c."document_id" = any(?::uuid[])
            and l."company_id" = ? and l."warehouse_id" = ? and l."item_id" = ? and l."lot_key" = ?`,
        [pgArray(laterIssueIds), ...keyWhere],
      );
      await tx.execute(
        `delete from "warehouse"."valuation_layer"
          where "company_id" = ? and "warehouse_id" = ? and "item_id" = ? and "lot_key" = ? and "date_operation" > ?`,
        [...keyWhere, doc.date],
      );
      await tx.execute(
        `delete from "warehouse"."stock_movement"
          where "company_id" = ? and "warehouse_id" = ? and "item_id" = ? and "lot_key" = ? and "date_operation" > ?`,
        [...keyWhere, doc.date],
      );
    }
    const seqOf = new Map(k.load.later.map((d) => [d.docId, d.seq]));
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
      if (d.kind === 'issue') {
        for (const l of d.lines)
          for (const p of l.pieces) {
            movements.push([...at, fmt(p.quantity.neg()), fmt(p.amount.neg()), 'IssueCard', d.docId]);
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
          const m = repostedLines.get(d.docId) ?? new Map<number, IssuedPiece[]>();
          for (const l of d.lines) m.set(l.line, l.pieces);
          repostedLines.set(d.docId, m);
        }
      } else {
        for (const l of d.lines) {
          movements.push([...at, fmt(l.quantity), fmt(l.amount), 'ReceiptCard', d.docId]);
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
        if (d.docId !== doc.docId) laterReceipts.add(d.docId);
      }
    }
    // Layers that existed before the document: their remaining stock after the replay.
    for (const l of k.load.start.layers) {
      const final = k.final.layers.find((x) => x.id === l.id);
      layerUpdates.push([l.id, fmt(final?.remainingQuantity ?? 0), fmt(final?.remainingValue ?? 0)]);
    }
    const balance = balances.get(`${k.itemId}|${lot}`)!;
    balance.quantity = fmt(k.final.quantity);
    balance.value = fmt(k.final.value);
    if (!balance.lastDate || doc.date > balance.lastDate) balance.lastDate = doc.date;
  }

  // The ledger's writes of the document go to PostgreSQL as one statement (issue #13): balances,
  // movements, new layers, consumptions and the layers' remaining stock.
  const writes: Statement[] = [];
  const balanceUpdate = balancesUpdate(
    plan.keys.map((k) => balances.get(`${k.itemId}|${lotKeyOf(k.lotNumberID)}`)!),
  );
  if (balanceUpdate) writes.push(balanceUpdate);
  pushInsert(
    writes,
    'stock_movement',
    [
      'company_id',
      'warehouse_id',
      'item_id',
      'lot_key',
      'date_operation',
      'seq',
      'quantity',
      'value',
      'document_type',
      'document_id',
    ],
    ['uuid', 'uuid', 'uuid', 'uuid', 'date', 'int8', 'numeric', 'numeric', 'text', 'uuid'],
    movements,
  );
  pushInsert(
    writes,
    'valuation_layer',
    [
      'id',
      'company_id',
      'warehouse_id',
      'item_id',
      'lot_key',
      'date_operation',
      'seq',
      'line_no',
      'quantity',
      'unit_cost',
      'amount',
      'remaining_quantity',
      'remaining_value',
    ],
    [
      'uuid',
      'uuid',
      'uuid',
      'uuid',
      'uuid',
      'date',
      'int8',
      'int4',
      'numeric',
      'numeric',
      'numeric',
      'numeric',
      'numeric',
    ],
    layers,
    false,
  );
  pushInsert(
    writes,
    'layer_consumption',
    ['company_id', 'layer_id', 'document_id', 'date_operation', 'quantity', 'value'],
    ['uuid', 'uuid', 'uuid', 'date', 'numeric', 'numeric'],
    consumptions,
  );
  if (layerUpdates.length)
    writes.push({
      sql: `update "warehouse"."valuation_layer" l set "remaining_quantity" = u.q, "remaining_value" = u.v
         from unnest(?::uuid[], ?::numeric[], ?::numeric[]) as u(id, q, v) where l."id" = u.id`,
      params: [0, 1, 2].map((c) => pgArray(layerUpdates.map((u) => u[c]))),
    });
  await executeAll(tx, writes);
  const revalued = [
    ...(await reviseLaterIssueCards(tx, ctx, plan, repostedLines)),
    ...(await reviseLaterReceipts(tx, ctx, plan, laterReceipts)),
  ];
  const periodIds = [...new Set(revalued.map((r) => r.periodId).filter((p): p is string => !!p))];
  if (periodIds.length) {
    const closed = await isClosed(periodIds);
    const hit = revalued.find((r) => r.periodId && closed.has(r.periodId));
    if (hit)
      throw unprocessable(
        ErrorCode.PeriodClosed,
        `the back-dated document would revalue ${hit.kind === 'issue' ? 'issue card' : 'receipt card'} ${hit.recordNumber}, which lies in a closed period`,
        {
          errors: [
            { path: 'dateOperation', message: `would revalue ${hit.recordNumber} in a closed period` },
          ],
        },
      );
  }
}

/**
 * The statement inserting rows into one table (`insert … select from unnest(…)`, one statement however
 * many rows); `withId` prepends a generated id column. Undefined when there are no rows.
 */
function insertStatement(
  table: string,
  columns: string[],
  types: string[],
  rows: unknown[][],
  withId = true,
): Statement | undefined {
  if (!rows.length) return undefined;
  const cols = (withId ? ['id', ...columns] : columns).map((c) => `"${c}"`).join(', ');
  const sel = columns.map((_, c) => `u.c${c}`).join(', ');
  return {
    sql: `insert into "warehouse"."${table}" (${cols})
     select ${withId ? 'gen_random_uuid(), ' : ''}${sel}
       from unnest(${types.map((t) => `?::${t}[]`).join(', ')}) as u(${columns.map((_, c) => `c${c}`).join(', ')})`,
    params: columns.map((_, c) => pgArray(rows.map((r) => r[c]))),
  };
}

/** Inserts rows with one statement (see {@link insertStatement}). */
async function insertRows(tx: EntityManager, ...args: Parameters<typeof insertStatement>): Promise<void> {
  const st = insertStatement(...args);
  if (st) await tx.execute(st.sql, st.params);
}

/** Adds the insert of rows to `writes` (see {@link insertStatement}). */
function pushInsert(writes: Statement[], ...args: Parameters<typeof insertStatement>): void {
  const st = insertStatement(...args);
  if (st) writes.push(st);
}

/**
 * Rewrites the later issue cards whose rows the repost changed: rows per cost price anew (ids kept where
 * the cost is unchanged), totalCost, accounting entries, and a `stock-revalued` event. Set-based: a fixed
 * number of statements however many cards changed. Returns the changed cards.
 */
async function reviseLaterIssueCards(
  tx: EntityManager,
  ctx: Ctx,
  plan: PostingPlan,
  repostedLines: Map<string, Map<number, IssuedPiece[]>>,
): Promise<RevaluedDoc[]> {
  const companyId = ctx.companyId!;
  const { warehouse } = plan;
  const stored = (r: StoredIssueRow): IssuedPiece => ({
    quantity: dec(r.quantity),
    costPrice: dec(r.costPrice),
    amount: dec(r.amount),
    takes: [],
  });
  const changed = [...repostedLines].filter(([cardId, lines]) => {
    const rows = plan.laterIssueRows.get(cardId)!;
    return [...lines].some(
      ([line, pieces]) => !samePieces(rows.filter((r) => r.lineNo === line).map(stored), pieces),
    );
  });
  if (!changed.length) return [];
  const cards = new Map(
    (
      await tx.execute<
        {
          id: string;
          recordNumber: string;
          totalCost: string;
          dateOperation: string;
          periodId: string | null;
        }[]
      >(
        `select "id", "record_number" as "recordNumber", "total_cost"::text as "totalCost",
                to_char("date_operation", 'YYYY-MM-DD') as "dateOperation", "period_id" as "periodId"
           from "warehouse"."issue_card" where "id" = any(?::uuid[])`,
        [pgArray(changed.map(([id]) => id))],
      )
    ).map((c) => [c.id, c]),
  );
  const removed: string[] = [];
  const kept: StoredIssueRow[] = [];
  const added: StoredIssueRow[] = [];
  const totals: [string, string][] = [];
  const entries: unknown[][] = [];
  const out: RevaluedDoc[] = [];
  for (const [cardId, lines] of changed) {
    const card = cards.get(cardId)!;
    const old = plan.laterIssueRows.get(cardId)!;
    const next: StoredIssueRow[] = [];
    const used = new Set<string>();
    for (const line of [...new Set(old.map((r) => r.lineNo))].sort((a, b) => a - b)) {
      const before = old.filter((r) => r.lineNo === line).sort((a, b) => a.rowNo - b.rowNo);
      const pieces = lines.get(line);
      if (!pieces) {
        for (const r of before) used.add(r.id);
        next.push(...before.map((r) => ({ ...r })));
        continue;
      }
      for (const p of pieces) {
        // A row whose cost does not change keeps its id (DESIGN §5 "Repost").
        const same = before.find((r) => !used.has(r.id) && dec(r.costPrice).eq(p.costPrice));
        if (same) used.add(same.id);
        next.push({
          ...(same ?? { ...before[0], id: crypto.randomUUID() }),
          quantity: fmt(p.quantity),
          costPrice: fmt(p.costPrice),
          amount: fmt(p.amount),
        });
      }
    }
    for (const r of old) if (!used.has(r.id)) removed.push(r.id);
    next.forEach((r, i) => {
      r.rowNo = i + 1;
      (old.some((o) => o.id === r.id) ? kept : added).push(r);
    });
    plan.laterIssueRows.set(cardId, next);
    const total = sum(next.map((r) => r.amount));
    totals.push([cardId, fmt(total)]);
    for (const [i, e] of issueEntries(warehouse, total, card.recordNumber).entries())
      entries.push([companyId, cardId, i + 1, e.debitAccount, e.creditAccount, e.amount, e.description]);
    const event: StockRevaluedEvent = {
      eventId: crypto.randomUUID(),
      companyId,
      issueCardId: cardId,
      recordNumber: card.recordNumber,
      warehouseId: warehouse.id,
      dateOperation: card.dateOperation,
      causedBy: plan.doc.docId,
      totalCostBefore: fmt(card.totalCost),
      totalCostAfter: fmt(total),
      rows: next.map((r) => ({
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        quantity: fmt(r.quantity),
        costPrice: fmt(r.costPrice),
        amount: fmt(r.amount),
      })),
    };
    enqueueEvent(tx, OutboxEntity, companyId, EventSubjects.stockRevalued, event);
    out.push({ kind: 'issue', id: cardId, recordNumber: card.recordNumber, periodId: card.periodId });
  }
  const ids = changed.map(([id]) => id);
  if (removed.length)
    await tx.execute(`delete from "warehouse"."issue_card_row" where "id" = any(?::uuid[])`, [
      pgArray(removed),
    ]);
  if (kept.length)
    await tx.execute(
      `update "warehouse"."issue_card_row" r set "row_no" = u.n, "quantity" = u.q, "cost_price" = u.c, "amount" = u.a
         from unnest(?::uuid[], ?::int[], ?::numeric[], ?::numeric[], ?::numeric[]) as u(id, n, q, c, a) where r."id" = u.id`,
      [
        pgArray(kept.map((r) => r.id)),
        pgArray(kept.map((r) => r.rowNo)),
        pgArray(kept.map((r) => r.quantity)),
        pgArray(kept.map((r) => r.costPrice)),
        pgArray(kept.map((r) => r.amount)),
      ],
    );
  await insertRows(
    tx,
    'issue_card_row',
    [
      'id',
      'company_id',
      'issue_card_id',
      'row_no',
      'line_no',
      'item_id',
      'code',
      'name',
      'unit_id',
      'lot_number_id',
      'quantity',
      'sell_price',
      'cost_price',
      'amount',
    ],
    [
      'uuid',
      'uuid',
      'uuid',
      'int4',
      'int4',
      'uuid',
      'text',
      'text',
      'uuid',
      'uuid',
      'numeric',
      'numeric',
      'numeric',
      'numeric',
    ],
    added.map((r) => [
      r.id,
      companyId,
      r.issueCardId,
      r.rowNo,
      r.lineNo,
      r.itemId,
      r.code,
      r.name,
      r.unitId,
      r.lotNumberId,
      r.quantity,
      r.sellPrice,
      r.costPrice,
      r.amount,
    ]),
    false,
  );
  await tx.execute(
    `update "warehouse"."issue_card" c set "total_cost" = u.t from unnest(?::uuid[], ?::numeric[]) as u(id, t) where c."id" = u.id`,
    [pgArray(totals.map((t) => t[0])), pgArray(totals.map((t) => t[1]))],
  );
  await tx.execute(`delete from "warehouse"."accounting_entry" where "document_id" = any(?::uuid[])`, [
    pgArray(ids),
  ]);
  await insertRows(
    tx,
    'accounting_entry',
    ['company_id', 'document_id', 'line_no', 'debit_account', 'credit_account', 'amount', 'description'],
    ['uuid', 'uuid', 'int4', 'text', 'text', 'numeric', 'text'],
    entries,
  );
  return out;
}

/**
 * Rewrites the accounting entries of later receipts whose negative-stock settlement the replay changed
 * (their rows and totals never change): the settlement is read back from the replayed movements, the
 * entries are those `receiptEntries` gives for it, compared with the stored ones. Set-based.
 */
async function reviseLaterReceipts(
  tx: EntityManager,
  ctx: Ctx,
  plan: PostingPlan,
  ids: Set<string>,
): Promise<RevaluedDoc[]> {
  if (!ids.size || !plan.warehouse.accounted) return [];
  const receipts = await tx.execute<
    { id: string; recordNumber: string; totalCost: string; periodId: string | null; settled: string }[]
  >(
    `select c."id", c."record_number" as "recordNumber", c."total_cost"::text as "totalCost", c."period_id" as "periodId",
            coalesce((select -sum(m."value") from "warehouse"."stock_movement" m
                       where m."document_id" = c."id" and m."document_type" = 'NegativeStockSettlement'), 0)::text as "settled"
       from "warehouse"."receipt_card" c where c."id" = any(?::uuid[])`,
    [pgArray([...ids])],
  );
  const stored = await tx.find(
    AccountingEntryEntity,
    { documentId: { $in: [...ids] } },
    { orderBy: { lineNo: 'asc' } },
  );
  const same = (a: { debitAccount: string; creditAccount: string; amount: string }[], b: typeof a) =>
    a.length === b.length &&
    a.every(
      (e, n) =>
        e.debitAccount === b[n].debitAccount &&
        e.creditAccount === b[n].creditAccount &&
        dec(e.amount).eq(dec(b[n].amount)),
    );
  const changed = receipts
    .map((r) => ({
      r,
      entries: receiptEntries(plan.warehouse, dec(r.totalCost), dec(r.settled), r.recordNumber),
    }))
    .filter(
      ({ r, entries }) =>
        !same(
          entries,
          stored.filter((e) => e.documentId === r.id),
        ),
    );
  if (!changed.length) return [];
  await tx.execute(`delete from "warehouse"."accounting_entry" where "document_id" = any(?::uuid[])`, [
    pgArray(changed.map(({ r }) => r.id)),
  ]);
  await insertRows(
    tx,
    'accounting_entry',
    ['company_id', 'document_id', 'line_no', 'debit_account', 'credit_account', 'amount', 'description'],
    ['uuid', 'uuid', 'int4', 'text', 'text', 'numeric', 'text'],
    changed.flatMap(({ r, entries }) =>
      entries.map((e, n) => [
        ctx.companyId!,
        r.id,
        n + 1,
        e.debitAccount,
        e.creditAccount,
        e.amount,
        e.description,
      ]),
    ),
  );
  return changed.map(({ r }) => ({
    kind: 'receipt',
    id: r.id,
    recordNumber: r.recordNumber,
    periodId: r.periodId,
  }));
}
