/**
 * The receipt-card slice's face to the other slices: the card as read (`receiptDto`) and how a decided
 * card is stored (its write set and row sets), which a reversal (card-storno/) reuses.
 */
export { getReceiptCard, receiptDto } from './receipt-card.queries.js';
export {
  type ReceiptCardWriteSet,
  receiptCardParts,
  storedReceiptCardReply,
} from './receipt-card.writer.js';
