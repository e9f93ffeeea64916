/**
 * Storno of stock cards (issue #38): `POST /1.6/warehouses/issue-cards/{id}/storno` and
 * `…/receipt-cards/{id}/storno`, and the `events.warehouse.card-reversed` event. Subjects
 * `warehouse.issue-cards.storno` and `warehouse.receipt-cards.storno`.
 *
 * A reversal is a card of the original's type in the original's ordner, with its own record number: its
 * rows are the original's with negative quantities (an issue card's pieces back at their cost prices; a
 * receipt card's rows out at the receipt's cost), its accounting entries the original's with negative
 * amounts. Units: quantities 4 decimals, amounts 2, in the company currency; dates `YYYY-MM-DD`.
 */
import { defineContract } from '../contract.js';
import { Amount, DateOnly, Decimal4, Guid, z } from '../primitives.js';
import { IssueCard } from './issue-cards.contract.js';
import { ReceiptCard } from './receipt-cards.contract.js';

/** Body of a storno: `date` is the reversal's dateOperation (today when not sent; not before the card's). */
export const StornoBody = z.object({ date: DateOnly().optional() });
/** A storno request as the gateway sends it: the card's `id` from the path and the body. */
export const StornoRequest = StornoBody.extend({ id: Guid() });

/**
 * `POST /1.6/warehouses/issue-cards/{id}/storno`: 201 with the reversal card. Errors: 404 NotFound;
 * 409 InvalidState (reversed already, or itself a reversal); 422 PeriodClosed naming the period,
 * ValidationFailed (`date` before the card's dateOperation).
 */
export const reverseIssueCard = defineContract({
  subject: 'warehouse.issue-cards.storno',
  request: StornoRequest,
  reply: IssueCard,
});

/**
 * `POST /1.6/warehouses/receipt-cards/{id}/storno`: 201 with the reversal card. Errors as
 * {@link reverseIssueCard}, and 422 OperationCanceledException with `shortfalls` when stock of the receipt
 * has been issued since and the warehouse does not allow negative stock.
 */
export const reverseReceiptCard = defineContract({
  subject: 'warehouse.receipt-cards.storno',
  request: StornoRequest,
  reply: ReceiptCard,
});

/** Event subject of a storno. */
export const StornoEventSubjects = { cardReversed: 'events.warehouse.card-reversed' } as const;

/**
 * `events.warehouse.card-reversed`: a stock card was reversed. `rows` are the reversal's (negative
 * quantities); later cards it revalued each get `events.warehouse.stock-revalued` as well.
 */
export const CardReversedEvent = z.object({
  eventId: Guid(),
  companyId: Guid(),
  cardType: z.enum(['IssueCard', 'ReceiptCard']),
  /** The reversed card and its record number. */
  reversedId: Guid(),
  reversedRecordNumber: z.string(),
  /** The reversal card and its record number. */
  reversalId: Guid(),
  recordNumber: z.string(),
  warehouseId: Guid(),
  dateOperation: DateOnly(),
  totalCost: Amount(),
  rows: z.array(
    z.object({
      itemId: Guid(),
      lotNumberID: Guid().nullable(),
      quantity: Decimal4(),
      costPrice: Decimal4(),
      amount: Amount(),
    }),
  ),
});
export type CardReversedEvent = z.infer<typeof CardReversedEvent>;
