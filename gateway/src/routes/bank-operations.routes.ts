/**
 * The bank operations with JSON bodies (issue #45; DESIGN §6d), through the generic operation handler:
 * statements and entries listed, a person's pairings, overpayments, payment orders made and cancelled.
 * The import and the bytes-or-record reads are in bank.routes.ts.
 */
import {
  BankEntry,
  BankEntryListQuery,
  BankStatementHeader,
  BankStatementListQuery,
  cancelPaymentOrder,
  createPaymentOrder,
  ignoreBankEntry,
  listBankEntries,
  listBankStatements,
  listOverpayments,
  Overpayment,
  Page,
  PairingInput,
  PaymentOrder,
  PaymentOrderInput,
  pairBankEntry,
  unpairBankEntry,
  z,
} from '@bm/contracts';
import type { Operation } from './operation.js';

const IdParams = z.object({ id: z.guid().openapi({ description: 'The id (GUID)' }) });
const PairingParams = IdParams.extend({
  pairingId: z.guid().openapi({ description: 'The pairing (payment) id' }),
});
const lower = (id: string) => id.toLowerCase();

/** The bank operations with JSON bodies, through the generic operation handler. */
export const bankOperations: Operation[] = [
  {
    method: 'get',
    path: '/1.6/bank/statements',
    summary: 'Imported bank statements, newest period first (issue #45)',
    tag: 'Bank',
    query: BankStatementListQuery,
    reply: Page(BankStatementHeader),
    xmlRoot: 'BankStatements',
    run: ({ query }, call) => call(listBankStatements, query),
  },
  {
    method: 'get',
    path: '/1.6/bank/entries',
    summary:
      'Bank entries by status (`unpaired`, `paired`, `posted`, `ignored`, `reversed`) and account, with candidates and pairings',
    tag: 'Bank',
    query: BankEntryListQuery,
    reply: Page(BankEntry),
    xmlRoot: 'BankEntries',
    run: ({ query }, call) => call(listBankEntries, query),
  },
  {
    method: 'post',
    path: '/1.6/bank/entries/{id}/pairings',
    summary: 'Pair an entry with an invoice by hand: `{invoiceId, amount?}`',
    description:
      "`amount` (positive, the entry's currency) defaults to what the entry has left, at most what the invoice has open; more than the invoice has open is the partner's overpayment. An overpayment the entry left on another invoice of the same partner moves. 409 InvalidState (posted, reversed), 409 Conflict (nothing left), 422 naming invoiceId or amount.",
    tag: 'Bank',
    params: IdParams,
    body: { schema: PairingInput },
    reply: BankEntry,
    xmlRoot: 'BankEntry',
    status: 201,
    run: ({ params, body }, call) => call(pairBankEntry, { id: lower(params.id), data: body }),
  },
  {
    method: 'delete',
    path: '/1.6/bank/entries/{id}/pairings/{pairingId}',
    summary: 'Remove a pairing: the invoice reopens',
    tag: 'Bank',
    params: PairingParams,
    reply: BankEntry,
    xmlRoot: 'BankEntry',
    run: ({ params }, call) =>
      call(unpairBankEntry, { id: lower(params.id), pairingId: lower(params.pairingId) }),
  },
  {
    method: 'post',
    path: '/1.6/bank/entries/{id}/ignore',
    summary: 'Ignore an unpaired entry (not an invoice payment)',
    tag: 'Bank',
    params: IdParams,
    reply: BankEntry,
    xmlRoot: 'BankEntry',
    run: ({ params }, call) => call(ignoreBankEntry, { id: lower(params.id) }),
  },
  {
    method: 'get',
    path: '/1.6/bank/overpayments',
    summary: "Partners' open overpayments: invoices paid beyond their total",
    tag: 'Bank',
    query: z.object({ partnerId: z.guid().optional() }),
    reply: z.object({ items: z.array(Overpayment) }),
    xmlRoot: 'Overpayments',
    run: ({ query }, call) => call(listOverpayments, query),
  },
  {
    method: 'post',
    path: '/1.6/bank/payment-orders',
    summary:
      'A SEPA payment order (pain.001.001.03) for purchase invoices: `{bankAccountId, invoiceIds, executionDate?}`',
    description:
      '`executionDate` defaults to the next business day (a weekend moves to Monday). 422 naming each invoice that cannot be in it: no IBAN, not EUR, nothing left to pay, already in an open order. The bytes: `GET …/{id}` with `Accept: application/xml`.',
    tag: 'Bank',
    body: { schema: PaymentOrderInput },
    reply: PaymentOrder,
    xmlRoot: 'PaymentOrder',
    status: 201,
    run: ({ body }, call) => call(createPaymentOrder, body),
  },
  {
    method: 'delete',
    path: '/1.6/bank/payment-orders/{id}',
    summary: 'Cancel an open payment order (its invoices can be ordered again)',
    tag: 'Bank',
    params: IdParams,
    reply: PaymentOrder,
    xmlRoot: 'PaymentOrder',
    run: ({ params }, call) => call(cancelPaymentOrder, { id: lower(params.id) }),
  },
];
