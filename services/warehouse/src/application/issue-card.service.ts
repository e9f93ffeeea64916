/**
 * Issue cards (INTERFACE §2.1, §2.2, §4.1; DESIGN §5): create, get, and copy from another record.
 *
 * One pipeline serves create and the copy preview: resolve references, lock (create only) and read the
 * stock state of every (item, lot) as of `dateOperation`, value the rows by the warehouse's method,
 * refuse with 422 OperationCanceledException when stock would go negative and that is not allowed, then
 * (create only) take the record number and store card, rows, ledger movements, layer changes, balances,
 * accounting entries and the `stock-issued` event in one transaction: the group commit of the card's
 * ordner (service-kit `groupCommit`, issue #13), under the card's own savepoint.
 */
import {
  EventSubjects,
  getSalesInvoiceCopySource,
  type IssueCard,
  type IssueCardInput,
  type IssueCardRow,
  type SourceType,
  type StockIssuedEvent,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, notFound, referenceNotFound } from '@bm/errors';
import { request, todayIn } from '@bm/messaging';
import { dec, fmt, sum } from '@bm/money';
import {
  assertRecordNumberFree,
  type Ctx,
  type DocumentDeps,
  type EntityManager,
  entryDtos,
  type GroupTx,
  groupCommit,
  outboxRow,
  type Prepared,
  usedRecordNumbers,
} from '@bm/service-kit';
import { mergeSourceRows, type SourceRow } from '../domain/copy.js';
import { stockKey, type ValuationMethod } from '../domain/ledger-replay.js';
import { issueEntries } from '../domain/warehouse-accounting.js';
import {
  AccountingEntryEntity,
  IssueCardEntity,
  IssueCardRowEntity,
  ItemEntity,
  OutboxEntity,
  ReceiptCardEntity,
  ReceiptCardRowEntity,
} from '../persistence/entities.js';
import { lockOpenPeriodState } from '../persistence/period-state.repository.js';
import {
  type BalanceRow,
  isCurrent,
  type LayerRow,
  lockBalances,
  lotKeyOf,
  nextSeqs,
  prefetchOpenLayers,
  readBalances,
} from '../persistence/stock-ledger.repository.js';
import { type PostingLine, type PostingShortfall, planPosting, storePosting } from './ledger-posting.js';
import {
  checkPartner,
  closedPeriods,
  findPeriod,
  findReportId,
  type ItemRow,
  requireCostPrices,
  resolveOrdner,
  resolveRows,
  resolveWarehouse,
} from './references.js';

type CardRow = InstanceType<typeof IssueCardEntity.class>;
type CardRowRow = InstanceType<typeof IssueCardRowEntity.class>;
type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

export type WarehouseDeps = DocumentDeps;

/** 422 OperationCanceledException with `shortfalls` (INTERFACE §7, DESIGN §2). */
export function operationCanceled(found: PostingShortfall[], items: Map<string, ItemRow>): AppError {
  const shortfalls = found.map((s) => ({
    itemId: s.itemId,
    lotNumberID: s.lotNumberID,
    requested: fmt(s.requested),
    available: fmt(s.available),
    date: s.date,
  }));
  const detail = shortfalls
    .map(
      (s) =>
        `item ${items.get(s.itemId)?.code ?? s.itemId}: requested ${s.requested}, available ${s.available} (short on ${s.date})`,
    )
    .join('; ');
  return new AppError(
    ErrorKind.unprocessable,
    ErrorCode.OperationCanceledException,
    `not enough stock: ${detail}`,
    {
      extensions: { shortfalls },
    },
  );
}

/** The reply shape of a stored card. */
export function cardDto(card: CardRow, rows: CardRowRow[], entries: EntryRow[]): IssueCard {
  return {
    id: card.id,
    ordnerId: card.ordnerId,
    warehouseId: card.warehouseId,
    partnerId: card.partnerId,
    recordNumber: card.recordNumber,
    tags: card.tags ?? [],
    partnerAddress: card.partnerAddress ?? null,
    dateCreated: card.dateCreated,
    dateAccounting: card.dateAccounting,
    dateOperation: card.dateOperation,
    periodId: card.periodId ?? null,
    itemsComment: card.itemsComment ?? null,
    reportId: card.reportId ?? null,
    rows: rows
      .sort((a, b) => a.rowNo - b.rowNo)
      .map((r) => ({
        id: r.id,
        itemId: r.itemId,
        code: r.code ?? null,
        name: r.name ?? null,
        unitId: r.unitId ?? null,
        lotNumberID: r.lotNumberId ?? null,
        quantity: r.quantity,
        sellPrice: r.sellPrice,
        costPrice: r.costPrice,
        amount: r.amount,
      })),
    totalCost: card.totalCost,
    sourceId: card.sourceId ?? null,
    sourceType: (card.sourceType as SourceType | null) ?? null,
    accountingEntries: entryDtos(entries),
  };
}

/** `GET /1.6/warehouses/issue-cards/{id}`: 404 NotFound for an unknown or another company's id. */
export async function getIssueCard(em: EntityManager, id: string): Promise<IssueCard> {
  const card = await em.findOne(IssueCardEntity, { id });
  if (!card) throw notFound('Issue card');
  const [rows, entries] = await Promise.all([
    em.find(IssueCardRowEntity, { issueCardId: id }),
    em.find(AccountingEntryEntity, { documentId: id }),
  ]);
  return cardDto(card, rows, entries);
}

/** An issue card with every reference resolved: the input of {@link valueAndStore}. */
export interface ResolvedIssue {
  input: IssueCardInput;
  ordner: Awaited<ReturnType<typeof resolveOrdner>>;
  warehouse: Awaited<ReturnType<typeof resolveWarehouse>>;
  resolved: Awaited<ReturnType<typeof resolveRows>>;
  method: ValuationMethod;
  dates: { dateCreated: string; dateOperation: string; dateAccounting: string };
  periodId: string;
  reportId: string | null;
  sourceType: SourceType | null;
}

/**
 * Resolves what an issue card refers to: ordner, warehouse, items, units and lots locally; partner,
 * period and report over NATS. Errors: 422 ReferenceNotFound, LotNumberRequired, CostPriceRequired,
 * PeriodNotFound, PeriodClosed; 400 for a service item.
 */
export async function resolveIssue(
  deps: WarehouseDeps,
  ctx: Ctx,
  input: IssueCardInput,
  sourceType?: SourceType | null,
): Promise<ResolvedIssue> {
  const { kit } = deps;
  const em = ctx.em;
  const dateCreated = input.dateCreated ?? todayIn(ctx.timeZone);
  const dateOperation = input.dateOperation ?? dateCreated;
  const dateAccounting = input.dateAccounting ?? dateOperation;
  const ordner = await resolveOrdner(em, input.ordnerId, input.ordnerCode, 'IssueCard');
  const warehouse = await resolveWarehouse(em, input.warehouseId, input.warehouseCode);
  const resolved = await resolveRows(em, input.rows);
  const method = warehouse.valuationMethod as ValuationMethod;
  if (method === 'Custom') requireCostPrices(input.rows);
  const [, period, reportId, source] = await Promise.all([
    checkPartner(kit, ctx, input.partnerId),
    findPeriod(kit, ctx, input.periodId, dateAccounting, dateOperation),
    findReportId(kit, ctx, input.reportId, input.reportCode, ordner),
    sourceType !== undefined ? sourceType : input.sourceId ? findSourceType(deps, ctx, input.sourceId) : null,
  ]);
  return {
    input,
    ordner,
    warehouse,
    resolved,
    method,
    dates: { dateCreated, dateOperation, dateAccounting },
    periodId: period.id,
    reportId,
    sourceType: source,
  };
}

/**
 * Creates (`store: true`) or previews (`store: false`) an issue card. The preview has no ids, no record
 * number, and stores nothing. Errors: see `createIssueCard` in the contracts.
 */
export async function issueCard(
  deps: WarehouseDeps,
  ctx: Ctx,
  input: IssueCardInput,
  opts: { store: boolean; sourceType?: SourceType | null },
): Promise<IssueCard> {
  return valueAndStore(deps, ctx, await resolveIssue(deps, ctx, input, opts.sourceType), opts.store);
}

/**
 * Values a resolved issue card as of its `dateOperation` and, with `store`, stores it in its ordner's group
 * commit (locks per item and lot, ledger, layers, balances under its savepoint; then record number, card,
 * rows, entries and outbox event with the group).
 * @throws 422 OperationCanceledException with `shortfalls`; 409 DuplicateRecordNumber.
 */
export async function valueAndStore(
  deps: WarehouseDeps,
  ctx: Ctx,
  r: ResolvedIssue,
  store: boolean,
): Promise<IssueCard> {
  const { input, ordner, warehouse, resolved, method } = r;
  const { dateCreated, dateOperation, dateAccounting } = r.dates;
  const em = ctx.em;
  const opts = { store };
  const reportId = r.reportId;
  const sourceType = r.sourceType;
  const period = { id: r.periodId };
  const lines: PostingLine[] = input.rows.map((row, i) => ({
    line: i,
    itemId: resolved[i].item.id,
    lotNumberID: resolved[i].lotNumberID,
    quantity: dec(row.quantity ?? '1'),
    costPrice: method === 'Custom' ? dec(row.costPrice!) : undefined,
  }));
  const items = new Map(resolved.map((x) => [x.item.id, x.item]));
  const cardId = crypto.randomUUID();

  const prepare = async (tx: EntityManager, g?: GroupTx): Promise<Prepared<IssueCard>> => {
    const keys = [
      ...new Map(
        lines.map((l) => [
          stockKey(l.itemId, l.lotNumberID),
          { itemId: l.itemId, lotNumberID: l.lotNumberID },
        ]),
      ).values(),
    ];
    // The period stays open until this card commits: closing it waits for this share lock (DESIGN §5).
    // Taken once per group commit: the lock holds until the shared transaction ends.
    if (g) await g.once(`period:${period.id}`, () => lockOpenPeriodState(tx, ctx.companyId!, period.id));
    const balances: Map<string, BalanceRow | undefined> = opts.store
      ? await lockBalances(tx, ctx.companyId!, warehouse.id, keys)
      : await readBalances(tx, ctx.companyId!, warehouse.id, keys);
    const currentKeys = keys.filter((k) =>
      isCurrent(balances.get(`${k.itemId}|${lotKeyOf(k.lotNumberID)}`), dateOperation),
    );
    const prefetched =
      method === 'FIFO'
        ? await prefetchOpenLayers(tx, ctx.companyId!, warehouse.id, currentKeys)
        : new Map<string, LayerRow[]>();
    const plan = await planPosting(
      tx,
      ctx.companyId!,
      warehouse,
      { kind: 'issue', docId: cardId, date: dateOperation, lines },
      balances,
      prefetched,
      (shortfalls) => {
        throw operationCanceled(shortfalls, items);
      },
    );
    const valued = lines.flatMap((l) => plan.issued.get(l.line)!.map((p) => ({ line: l.line, ...p })));

    const rows: IssueCardRow[] = valued.map((v) => {
      const src = input.rows[v.line];
      const item = resolved[v.line].item;
      return {
        itemId: item.id,
        code: src.code ?? item.code,
        name: src.name ?? item.name,
        unitId: resolved[v.line].unitId,
        lotNumberID: resolved[v.line].lotNumberID,
        quantity: fmt(v.quantity),
        sellPrice: src.sellPrice ?? item.sellPrice,
        costPrice: fmt(v.costPrice),
        amount: fmt(v.amount),
      };
    });
    const totalCost = sum(valued.map((r) => r.amount));
    const entries = (recordNumber: string | null) => issueEntries(warehouse, totalCost, recordNumber);
    const header = {
      ordnerId: ordner.id,
      warehouseId: warehouse.id,
      partnerId: input.partnerId,
      tags: input.tags ?? [],
      partnerAddress: input.partnerAddress ?? null,
      dateCreated,
      dateAccounting,
      dateOperation,
      periodId: period.id,
      itemsComment: input.itemsComment ?? null,
      reportId,
      sourceId: input.sourceId ?? null,
      sourceType: sourceType ?? null,
    };
    if (!opts.store)
      return {
        value: {
          ...header,
          recordNumber: null,
          rows,
          totalCost: fmt(totalCost),
          accountingEntries: entries(null),
        },
      };

    const companyId = ctx.companyId!;
    const table = '"warehouse"."issue_card"';
    const given = input.recordNumber?.trim() || undefined;
    if (given)
      await assertRecordNumberFree(
        given,
        async (n) => (await usedRecordNumbers(tx, table, companyId, [n])).size > 0,
      );
    const now = new Date();
    const [seq] = await nextSeqs(tx, 1);
    const storedRows = rows.map((r, i) => ({
      id: crypto.randomUUID(),
      companyId,
      issueCardId: cardId,
      rowNo: i + 1,
      lineNo: valued[i].line,
      itemId: r.itemId,
      code: r.code,
      name: r.name,
      unitId: r.unitId,
      lotNumberId: r.lotNumberID,
      quantity: r.quantity,
      sellPrice: r.sellPrice,
      costPrice: r.costPrice,
      amount: r.amount,
    }));
    await storePosting(tx, ctx, plan, seq, balances, (ids) => closedPeriods({ ...ctx, em: tx }, ids));
    /** The card, its rows, entries and event under its record number (one statement for the group). */
    const finish = (recordNumber: string) => {
      const card = {
        id: cardId,
        companyId,
        ...header,
        recordNumber,
        totalCost: fmt(totalCost),
        createdAt: now,
      };
      const storedEntries = entries(recordNumber).map((e, i) => ({
        id: crypto.randomUUID(),
        companyId,
        documentId: cardId,
        lineNo: i + 1,
        ...e,
      }));
      const event: StockIssuedEvent = {
        eventId: crypto.randomUUID(),
        companyId,
        issueCardId: cardId,
        recordNumber,
        warehouseId: warehouse.id,
        dateOperation,
        sourceId: header.sourceId,
        sourceType: header.sourceType,
        rows: rows.map((r) => ({
          itemId: r.itemId,
          lotNumberID: r.lotNumberID,
          quantity: r.quantity,
          costPrice: r.costPrice,
        })),
      };
      return {
        rows: [
          { entity: IssueCardEntity, rows: [card] },
          { entity: IssueCardRowEntity, rows: storedRows },
          { entity: AccountingEntryEntity, rows: storedEntries },
          { entity: OutboxEntity, rows: [outboxRow(companyId, EventSubjects.stockIssued, event)] },
        ],
        value: cardDto(card as CardRow, storedRows as CardRowRow[], storedEntries as EntryRow[]),
      };
    };
    // Numbered with the group after every card's work (DESIGN §5); a given number is stored at once.
    return {
      numbering: {
        schema: 'warehouse',
        table,
        companyId,
        ordner,
        year: Number(dateOperation.slice(0, 4)),
        given,
      },
      finish,
    };
  };
  if (!opts.store) {
    const preview = await prepare(em);
    if (!('value' in preview)) throw new Error('a preview stores nothing and takes no number');
    return preview.value;
  }
  // Cards of one ordner arriving together share one transaction, each under its own savepoint.
  // Its stock keys are declared, so groups of this process never wait for each other's balance locks.
  const locks = lines.map((l) => `${warehouse.id}:${stockKey(l.itemId, l.lotNumberID)}`);
  const card = await groupCommit(`${ctx.companyId}:${ordner.id}`, em, (g) => prepare(g.tx, g), { locks });
  deps.kickOutbox();
  return card;
}

/** What kind of record `sourceId` is: a local issue or receipt card, else a sales invoice. 422 when none. */
async function findSourceType(deps: WarehouseDeps, ctx: Ctx, sourceId: string): Promise<SourceType> {
  return (await loadSource(deps, ctx, sourceId)).sourceType;
}

interface CopySource {
  sourceType: SourceType;
  /** A cancelled sales invoice (cards are never cancelled). */
  cancelled: boolean;
  ordnerId: string | null;
  warehouseId: string | null;
  partnerId: string | null;
  partnerAddress: string | null;
  itemsComment: string | null;
  rows: SourceRow[];
}

/** Loads a copy source (INTERFACE §4.1 copy: an issue card, a receipt card or a sales invoice). */
async function loadSource(deps: WarehouseDeps, ctx: Ctx, sourceId: string): Promise<CopySource> {
  const em = ctx.em;
  const card = await em.findOne(IssueCardEntity, { id: sourceId });
  if (card) {
    const rows = await em.find(IssueCardRowEntity, { issueCardId: card.id }, { orderBy: { rowNo: 'asc' } });
    return {
      sourceType: 'IssueCard',
      cancelled: false,
      ordnerId: card.ordnerId,
      warehouseId: card.warehouseId,
      partnerId: card.partnerId,
      partnerAddress: card.partnerAddress ?? null,
      itemsComment: card.itemsComment ?? null,
      rows: rows.map((r) => ({
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        costPrice: r.costPrice,
        quantity: r.quantity,
        code: r.code ?? null,
        name: r.name ?? null,
        unitId: r.unitId ?? null,
        sellPrice: r.sellPrice,
      })),
    };
  }
  const receipt = await em.findOne(ReceiptCardEntity, { id: sourceId });
  if (receipt) {
    const rows = await em.find(
      ReceiptCardRowEntity,
      { receiptCardId: receipt.id },
      { orderBy: { rowNo: 'asc' } },
    );
    return {
      sourceType: 'ReceiptCard',
      cancelled: false,
      ordnerId: null,
      warehouseId: receipt.warehouseId,
      partnerId: receipt.partnerId ?? null,
      partnerAddress: null,
      itemsComment: null,
      rows: rows.map((r) => ({
        itemId: r.itemId,
        lotNumberID: r.lotNumberId ?? null,
        costPrice: r.costPrice,
        quantity: r.quantity,
        code: null,
        name: null,
        unitId: null,
        sellPrice: null,
      })),
    };
  }
  const invoice = await request(deps.kit.nc, getSalesInvoiceCopySource, { id: sourceId }, ctx).catch((e) => {
    if (e instanceof AppError && e.code === ErrorCode.NotFound)
      throw referenceNotFound('sourceId', 'issue card, receipt card or sales invoice');
    throw e;
  });
  // Service items and free-text rows do not move stock (DESIGN §5 "Copy").
  const itemIds = invoice.rows.map((r) => r.itemId).filter((x): x is string => !!x);
  const stockItems = new Set(
    (itemIds.length ? await em.find(ItemEntity, { id: { $in: itemIds }, kind: 'stock' }) : []).map(
      (i) => i.id,
    ),
  );
  return {
    sourceType: 'SalesInvoice',
    cancelled: invoice.cancelled,
    ordnerId: null,
    warehouseId: invoice.warehouseId,
    partnerId: invoice.partnerId,
    partnerAddress: invoice.partnerAddress,
    itemsComment: null,
    rows: invoice.rows
      .filter((r) => r.itemId && stockItems.has(r.itemId))
      .map((r) => ({
        itemId: r.itemId!,
        lotNumberID: null,
        costPrice: null,
        quantity: r.quantity,
        code: r.code,
        name: r.name,
        unitId: r.unitId,
        sellPrice: r.price,
      })),
  };
}

/**
 * Copy into an issue card (INTERFACE §4.1): rows merged by (itemId, lotNumberID, costPrice), then issued
 * by the warehouse's current valuation as of `dateOperation` (default today). `store: false` previews.
 */
export async function copyIssueCard(
  deps: WarehouseDeps,
  ctx: Ctx,
  sourceId: string,
  dateOperation: string | undefined,
  store: boolean,
): Promise<IssueCard> {
  const src = await loadSource(deps, ctx, sourceId);
  if (src.cancelled)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      'a cancelled sales invoice cannot be copied',
      {
        errors: [{ path: 'sourceId', message: 'the sales invoice is cancelled' }],
      },
    );
  const rows = mergeSourceRows(src.rows);
  // Nothing to issue (only service items, or only credit rows): refused before any number is taken.
  if (!rows.length)
    throw new AppError(
      ErrorKind.unprocessable,
      ErrorCode.ValidationFailed,
      'the source has no row to issue: no stock item with a positive quantity',
      { errors: [{ path: 'sourceId', message: 'no stock item row with a positive quantity' }] },
    );
  if (!src.warehouseId) throw referenceNotFound('sourceId', 'warehouse of the source');
  if (!src.partnerId) throw referenceNotFound('sourceId', 'partner of the source');
  const ordnerId = src.ordnerId ?? (await resolveOrdner(ctx.em, null, undefined, 'IssueCard')).id;
  const date = dateOperation ?? todayIn(ctx.timeZone);
  const input: IssueCardInput = {
    ordnerId,
    warehouseId: src.warehouseId,
    partnerId: src.partnerId,
    partnerAddress: src.partnerAddress,
    itemsComment: src.itemsComment,
    dateCreated: date,
    dateOperation: date,
    sourceId,
    rows: rows.map((r) => ({
      itemId: r.itemId,
      lotNumberID: r.lotNumberID,
      quantity: fmt(r.quantity),
      code: r.code,
      name: r.name,
      unitId: r.unitId,
      ...(r.sellPrice !== null ? { sellPrice: r.sellPrice } : {}),
      ...(r.costPrice !== null ? { costPrice: r.costPrice } : {}),
    })),
  };
  return issueCard(deps, ctx, input, { store, sourceType: src.sourceType });
}
