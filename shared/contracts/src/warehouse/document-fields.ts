/**
 * Fields the warehouse documents' contracts share, and the accounting entry that warehouse cards and
 * invoices both carry (DESIGN §5 "Accounted warehouse").
 */
import { Amount, Decimal4, Guid, z } from '../primitives.js';

const positive = (v: string) => !/^-/.test(v) && !/^0+(\.0+)?$/.test(v);
/** A quantity greater than zero, up to 4 decimals. */
export const Qty = () => Decimal4().refine(positive, { message: 'quantity must be greater than zero' });
/** An insert-only code (item, unit, ordner, warehouse), 1 to 30 characters. */
export const Code = () => z.string().trim().min(1).max(30);

/** One accounting entry (DESIGN §5 "Accounted warehouse"; the same shape for invoices). */
export const AccountingEntry = z.object({
  debitAccount: z.string(),
  creditAccount: z.string(),
  amount: Amount(),
  description: z.string(),
});
export type AccountingEntry = z.infer<typeof AccountingEntry>;

/**
 * Storno (issue #38) on a stored card: `reversed` once reversed, with `reversalId` its reversal card;
 * a reversal card carries `reversalOf`, the card it reverses. Neither can be reversed (again).
 */
export const ReversalFields = {
  /** Extension: the card has been reversed (storno); see `reversalId`. */
  reversed: z.boolean(),
  /** Extension: the card's reversal card, once reversed. */
  reversalId: Guid().nullable(),
  /** Extension: on a reversal card, the card it reverses. */
  reversalOf: Guid().nullable(),
};
