/**
 * The receipt card as a document kind (DESIGN §4 "Stock intake", §5; issue #38), read top to bottom:
 * declared with its stock keys and period (locked and read by its group), its state the stock of its
 * keys as of `dateOperation`, decided by posting its rows at their cost (the ledger settles a negative
 * balance first and reposts later issues of a back-dated receipt), its rows written by
 * receipt-card.writer.ts once the group has numbered it. {@link createReceiptCard} is the use case.
 */
import type { ReceiptCard, ReceiptCardInput } from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import { dec, fmt, round2, sum } from '@bm/money';
import {
  type Ctx,
  checkGivenRecordNumber,
  type DocumentDeps,
  type DocumentKind,
  numberingOf,
  runDocument,
} from '@bm/service-kit';
import {
  checkPartner,
  findPeriod,
  resolveOrdner,
  resolveRows,
  resolveWarehouse,
} from '../master-data/index.js';
import {
  type CardStock,
  type CardStockInfo,
  cardGroupReads,
  cardStockInfo,
  type PostingLine,
  planPosting,
  readCardStock,
  storePostingInGroup,
} from '../stock-ledger/index.js';
import {
  type ReceiptCardWriteSet,
  receiptCardWriter,
  storedReceiptCardReply,
} from './receipt-card.writer.js';

const TABLE = '"warehouse"."receipt_card"';

/** A receipt card with its references resolved, its new id, ledger lines and stock keys. */
export interface PreparedReceipt {
  ctx: Ctx;
  companyId: string;
  input: ReceiptCardInput;
  cardId: string;
  ordner: Awaited<ReturnType<typeof resolveOrdner>>;
  warehouse: Awaited<ReturnType<typeof resolveWarehouse>>;
  dateOperation: string;
  dateAccounting: string;
  periodId: string;
  lines: PostingLine[];
  stockInfo: CardStockInfo;
  given: string | undefined;
}

/** `POST /1.6/warehouses/receipt-cards` as a document kind (service-kit `runDocument`). */
export const receiptCardKind: DocumentKind<PreparedReceipt, CardStock, ReceiptCardWriteSet, ReceiptCard> = {
  key: 'warehouse:receipt-card',
  declare: (p) => ({
    numbering: numberingOf({
      table: TABLE,
      companyId: p.companyId,
      ordner: p.ordner,
      date: p.dateOperation,
      given: p.given,
    }),
    locks: p.stockInfo.locks,
    info: p.stockInfo,
    reads: cardGroupReads,
    lazySavepoint: true,
  }),
  read: (p, g) => readCardStock(g.tx, p.companyId, { ...p.stockInfo, dateOperation: p.dateOperation }, g),
  async decide(p, stock, g) {
    await checkGivenRecordNumber(g.tx, TABLE, p.companyId, p.given);
    const plan = await planPosting(
      g.tx,
      p.companyId,
      p.warehouse,
      { kind: 'receipt', docId: p.cardId, date: p.dateOperation, lines: p.lines },
      stock.balances,
      new Map(),
      () => {
        throw new Error('a receipt is never short of stock');
      },
    );
    await storePostingInGroup(g, p.ctx, plan, stock);
    return decideReceiptCard(p, fmt(sum([...plan.settled.values()])));
  },
  writer: receiptCardWriter,
  reply: storedReceiptCardReply,
};

/**
 * `POST /1.6/warehouses/receipt-cards`: stores a receipt card (amounts in EUR, 2 decimals; quantities 4).
 * Errors: 400, 409 DuplicateRecordNumber, 422 ReferenceNotFound, LotNumberRequired, PeriodNotFound,
 * PeriodClosed (also when a back-dated receipt would revalue a card in a closed period).
 */
export async function createReceiptCard(
  deps: DocumentDeps,
  ctx: Ctx,
  input: ReceiptCardInput,
): Promise<ReceiptCard> {
  const reply = await runDocument(receiptCardKind, ctx.em, await resolveReceipt(deps, ctx, input));
  deps.kickOutbox();
  return reply;
}

/** Resolves the card's references (locally, and partner and period over NATS, before any transaction). */
async function resolveReceipt(
  deps: DocumentDeps,
  ctx: Ctx,
  input: ReceiptCardInput,
): Promise<PreparedReceipt> {
  const em = ctx.em;
  const companyId = ctx.companyId!;
  const dateOperation = input.dateOperation ?? todayIn(ctx.timeZone);
  const dateAccounting = input.dateAccounting ?? dateOperation;
  const ordner = await resolveOrdner(em, input.ordnerId, input.ordnerCode, 'ReceiptCard');
  const warehouse = await resolveWarehouse(em, input.warehouseId, input.warehouseCode);
  const resolved = await resolveRows(em, input.rows);
  const [, period] = await Promise.all([
    input.partnerId ? checkPartner(deps.kit, ctx, input.partnerId) : undefined,
    findPeriod(deps.kit, ctx, input.periodId, dateAccounting, dateOperation),
  ]);
  const lines: PostingLine[] = input.rows.map((r, i) => ({
    line: i,
    itemId: resolved[i].item.id,
    lotNumberID: resolved[i].lotNumberID,
    quantity: dec(r.quantity),
    costPrice: dec(r.costPrice),
  }));
  return {
    ctx,
    companyId,
    input,
    cardId: crypto.randomUUID(),
    ordner,
    warehouse,
    dateOperation,
    dateAccounting,
    periodId: period.id,
    lines,
    stockInfo: cardStockInfo(companyId, period.id, warehouse.id, 'receipt', lines),
    given: input.recordNumber?.trim() || undefined,
  };
}

/** The card's write set (pure): rows at their cost, `settled` the value that settled negative balances. */
function decideReceiptCard(p: PreparedReceipt, settled: string): ReceiptCardWriteSet {
  const rows = p.input.rows.map((r, i) => ({
    id: crypto.randomUUID(),
    itemId: p.lines[i].itemId,
    lotNumberId: p.lines[i].lotNumberID,
    quantity: r.quantity,
    costPrice: r.costPrice,
    amount: fmt(round2(dec(r.quantity).mul(dec(r.costPrice)))),
  }));
  return {
    cardId: p.cardId,
    companyId: p.companyId,
    eventId: crypto.randomUUID(),
    header: {
      ordnerId: p.ordner.id,
      warehouseId: p.warehouse.id,
      partnerId: p.input.partnerId ?? null,
      dateOperation: p.dateOperation,
      dateAccounting: p.dateAccounting,
      periodId: p.periodId,
    },
    rows,
    totalCost: fmt(sum(rows.map((r) => r.amount))),
    settled,
    accounts: p.warehouse,
    createdAt: new Date(),
  };
}
