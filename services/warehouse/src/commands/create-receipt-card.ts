/**
 * The create-receipt-card command (DESIGN §4 "Stock intake", §5): stock enters at `costPrice`. The
 * ledger rules (settlement of a negative balance, FIFO layer, average, repost of later issues for a
 * back-dated receipt) are the replay's (`ledger-posting.ts`, `domain/ledger-replay.ts`). One forward pass
 * like an issue card's (issue #24: one way to store a numbered document): resolve, then in the receipt
 * cards' group commit read (store/stock-state.reads.ts), decide, hand the ledger's writes and the card's
 * write set (store/receipt-card.writer.ts) to the group; the reply from what was stored.
 */

import type { ReceiptCard, ReceiptCardInput } from '@bm/contracts';
import { todayIn } from '@bm/messaging';
import { dec, fmt, round2, sum } from '@bm/money';
import { type Ctx, checkGivenRecordNumber, groupCommit, numberingOf } from '@bm/service-kit';
import { type PostingLine, planPosting, storePostingInGroup } from '../application/ledger-posting.js';
import { resolveOrdner, resolveRows, resolveWarehouse } from '../application/references.js';
import { checkPartner, findPeriod } from '../ports/references.port.js';
import {
  type ReceiptCardWriteSet,
  receiptCardWriter,
  storedReceiptCardReply,
} from '../store/receipt-card.writer.js';
import { cardGroupReads, cardStockInfo, readCardStock } from '../store/stock-state.reads.js';
import type { WarehouseDeps } from './create-issue-card.js';

/**
 * `POST /1.6/warehouses/receipt-cards`: stores a receipt card (amounts in EUR, 2 decimals; quantities 4).
 * Errors: 400, 409 DuplicateRecordNumber, 422 ReferenceNotFound, LotNumberRequired, PeriodNotFound,
 * PeriodClosed (also when a back-dated receipt would revalue a card in a closed period).
 */
export async function createReceiptCard(
  deps: WarehouseDeps,
  ctx: Ctx,
  input: ReceiptCardInput,
): Promise<ReceiptCard> {
  const { kit } = deps;
  const em = ctx.em;
  const companyId = ctx.companyId!;
  const dateOperation = input.dateOperation ?? todayIn(ctx.timeZone);
  const dateAccounting = input.dateAccounting ?? dateOperation;
  const ordner = await resolveOrdner(em, input.ordnerId, input.ordnerCode, 'ReceiptCard');
  const warehouse = await resolveWarehouse(em, input.warehouseId, input.warehouseCode);
  const resolved = await resolveRows(em, input.rows);
  const [, period] = await Promise.all([
    input.partnerId ? checkPartner(kit, ctx, input.partnerId) : undefined,
    findPeriod(kit, ctx, input.periodId, dateAccounting, dateOperation),
  ]);

  const lines: PostingLine[] = input.rows.map((r, i) => ({
    line: i,
    itemId: resolved[i].item.id,
    lotNumberID: resolved[i].lotNumberID,
    quantity: dec(r.quantity),
    costPrice: dec(r.costPrice),
  }));
  const table = '"warehouse"."receipt_card"';
  const given = input.recordNumber?.trim() || undefined;
  const cardId = crypto.randomUUID();
  const stockInfo = cardStockInfo(companyId, period.id, warehouse.id, 'receipt', lines);
  // Receipts (of any companies and ordners) arriving together share one transaction, like issue cards;
  // their stock keys are declared, so groups of this process never wait for each other's balance locks.
  const stored = await groupCommit(
    'warehouse:receipt-card',
    em,
    async (g) => {
      const stock = await readCardStock(g.tx, companyId, { ...stockInfo, dateOperation }, g);
      await checkGivenRecordNumber(g.tx, table, companyId, given);
      const plan = await planPosting(
        g.tx,
        companyId,
        warehouse,
        { kind: 'receipt', docId: cardId, date: dateOperation, lines },
        stock.balances,
        new Map(),
        () => {
          throw new Error('a receipt is never short of stock');
        },
      );
      await storePostingInGroup(g, ctx, plan, stock);
      const rows = input.rows.map((r, i) => ({
        id: crypto.randomUUID(),
        itemId: resolved[i].item.id,
        lotNumberId: resolved[i].lotNumberID,
        quantity: r.quantity,
        costPrice: r.costPrice,
        amount: fmt(round2(dec(r.quantity).mul(dec(r.costPrice)))),
      }));
      const writeSet: ReceiptCardWriteSet = {
        cardId,
        companyId,
        eventId: crypto.randomUUID(),
        header: {
          ordnerId: ordner.id,
          warehouseId: warehouse.id,
          partnerId: input.partnerId ?? null,
          dateOperation,
          dateAccounting,
          periodId: period.id,
        },
        rows,
        totalCost: fmt(sum(rows.map((r) => r.amount))),
        settled: fmt(sum([...plan.settled.values()])),
        accounts: warehouse,
        createdAt: new Date(),
      };
      // Numbered with the group after every card's work (DESIGN §5); a given number is stored at once.
      return { writeSet, writer: receiptCardWriter };
    },
    {
      numbering: numberingOf({ table, companyId, ordner, date: dateOperation, given }),
      locks: stockInfo.locks,
      lazySavepoint: true,
      info: stockInfo,
      reads: cardGroupReads,
    },
  );
  deps.kickOutbox();
  return storedReceiptCardReply(stored.writeSet, stored.recordNumber);
}
