/**
 * The storno of a receipt card (issue #38), as a document kind: a reversal receipt card in the card's
 * ordner, with its own record number, whose rows take the card's quantities out again at the receipt's
 * cost: under FIFO from the receipt's own layer first (a `withdrawal`, rules/ledger-replay.ts). Where
 * stock of the receipt has been issued since, the storno is refused (422 OperationCanceledException
 * naming the shortfall) unless the warehouse allows negative stock. Accounting entries: the card's, with
 * negative amounts. The card is marked reversed; neither card can be reversed afterwards.
 */
import type { ReceiptCard } from '@bm/contracts';
import { type Dec, fmt, sum } from '@bm/money';
import type { DocumentKind } from '@bm/service-kit';
import { type ReceiptCardWriteSet, storedReceiptCardReply } from '../receipt-card/index.js';
import { type CardStock, receiptLayers } from '../stock-ledger/index.js';
import { declareStorno, markReversed, postReversal, readStornoStock, TABLE } from './storno.posting.js';
import type { ReceiptCardRow, ReceiptRowRow, ResolvedStorno } from './storno.resolve.js';
import { receiptStornoWriter, type StornoWriteSet } from './storno.writer.js';

export type ReceiptStorno = ResolvedStorno<ReceiptCardRow, ReceiptRowRow>;

/** The stock state of a receipt's reversal, and the receipt's own layers by line (FIFO). */
interface ReceiptStornoState {
  stock: CardStock;
  layerIds: Map<number, string[]>;
}

/** `POST /1.6/warehouses/receipt-cards/{id}/storno` as a document kind (service-kit `runDocument`). */
export const receiptCardStorno: DocumentKind<
  ReceiptStorno,
  ReceiptStornoState,
  StornoWriteSet<ReceiptCardWriteSet>,
  ReceiptCard
> = {
  // Receipt cards and their reversals share the ordner's counter: one group for both.
  key: 'warehouse:receipt-card',
  declare: (s) => declareStorno(s, TABLE.ReceiptCard),
  read: async (s, g) => {
    const stock = await readStornoStock(s, g);
    // Read after the group locked the keys: a back-dated document may have replaced the layers before.
    return { stock, layerIds: (await receiptLayers(g.tx, [s.card.id])).get(s.card.id) ?? new Map() };
  },
  async decide(s, { stock, layerIds }, g) {
    await markReversed(g.tx, TABLE.ReceiptCard, s);
    const plan = await postReversal(s, 'withdrawal', stock, g, layerIds);
    const taken = new Map([...plan.issued].map(([line, pieces]) => [line, sum(pieces.map((p) => p.amount))]));
    return decideReceiptReversal(s, taken);
  },
  writer: receiptStornoWriter,
  reply: storedReceiptCardReply,
};

/**
 * The reversal card of `s` (pure): each of the card's rows out with a negative quantity at the
 * receipt's cost price; its amount is what the stock ledger took out for it (`taken`, EUR, by line).
 */
export function decideReceiptReversal(
  s: ReceiptStorno,
  taken: ReadonlyMap<number, Dec>,
  newId: () => string = () => crypto.randomUUID(),
): StornoWriteSet<ReceiptCardWriteSet> {
  const { card } = s;
  const rows = s.lines.map((l) => ({
    id: newId(),
    itemId: l.itemId,
    lotNumberId: l.lotNumberID,
    quantity: fmt(l.quantity.neg()),
    costPrice: fmt(l.costPrice),
    amount: fmt((taken.get(l.line) ?? l.amount).neg()),
  }));
  return {
    cardId: s.reversalId,
    companyId: s.companyId,
    eventId: newId(),
    header: {
      ordnerId: card.ordnerId,
      warehouseId: card.warehouseId,
      partnerId: card.partnerId ?? null,
      dateOperation: s.date,
      dateAccounting: s.date,
      periodId: s.periodId,
    },
    rows,
    totalCost: fmt(sum(rows.map((r) => r.amount))),
    settled: '0',
    accounts: s.warehouse,
    createdAt: new Date(),
    reversalOf: card.id,
    reversedRecordNumber: card.recordNumber,
  };
}
