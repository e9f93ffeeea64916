/**
 * Payments from the bank (issue #45; DESIGN §6d): bank statements (ISO 20022 camt.053) imported and their
 * entries paired with invoices, pairing by a person, overpayments, and payment orders (pain.001.001.03).
 * Subjects `invoicing.bank-statements.*`, `invoicing.bank-entries.*`, `invoicing.overpayments.*`,
 * `invoicing.payment-orders.*`. Amounts are decimal strings with 2 decimals in the account's currency;
 * dates `YYYY-MM-DD`; bytes travel base64.
 */
import { defineContract } from '../contract.js';
import { Amount, DateOnly, Guid, Page, PageQuery, z } from '../primitives.js';
import { AccountingEntry } from '../warehouse/document-fields.js';

/** `unpaired`, `paired` (fully or partly), `posted` (fees, interest), `ignored`, `reversed`. */
export const BankEntryStatus = z.enum(['unpaired', 'paired', 'posted', 'ignored', 'reversed']);
export type BankEntryStatus = z.infer<typeof BankEntryStatus>;
export const InvoiceBook = z.enum(['sales', 'purchase']);

/**
 * A pairing of an entry with an invoice: a payment of the invoice with the entry as its source.
 * `amount` is signed as the invoice's payment (a customer's payment and ours to a supplier positive, a
 * refund negative); `overpayment` the part beyond what the invoice had open.
 */
export const BankPairing = z.object({
  id: Guid(),
  invoiceId: Guid(),
  book: InvoiceBook,
  recordNumber: z.string().nullable(),
  partnerId: Guid().nullable(),
  amount: Amount(),
  overpayment: Amount(),
  date: DateOnly(),
});

/** An invoice the pairing rule considered for an entry it left unpaired (`open` when it was considered). */
export const PairingCandidate = z.object({
  invoiceId: Guid(),
  book: InvoiceBook,
  recordNumber: z.string(),
  partnerId: Guid().nullable(),
  open: Amount(),
});

/**
 * One booked entry of a bank statement, stored once per account. `amount` is positive and `direction`
 * says whether money came in (`credit`) or went out (`debit`). `rule`: how it was paired or posted
 * (`variableSymbol`, `counterpartyAmount`, `manual`, `fee`, `interest`); `unpaired` ones carry `reason`
 * and `candidates`; `unallocated` is what no pairing took yet.
 */
export const BankEntry = z.object({
  id: Guid(),
  statementId: Guid(),
  bankAccountId: Guid(),
  bookingDate: DateOnly(),
  valueDate: DateOnly().nullable(),
  direction: z.enum(['credit', 'debit']),
  amount: Amount(),
  currency: z.string(),
  reversal: z.boolean(),
  accountServicerRef: z.string().nullable(),
  endToEndId: z.string().nullable(),
  bankTransactionCode: z.string().nullable(),
  counterpartyName: z.string().nullable(),
  counterpartyIban: z.string().nullable(),
  remittance: z.string().nullable(),
  reference: z.string().nullable(),
  symbolVariable: z.string().nullable(),
  symbolSpecific: z.string().nullable(),
  symbolConstant: z.string().nullable(),
  status: BankEntryStatus,
  rule: z.string().nullable(),
  reason: z.string().nullable(),
  candidates: z.array(PairingCandidate),
  pairings: z.array(BankPairing),
  unallocated: Amount(),
  /** A reversal and the entry it reversed name each other. */
  reversalOf: Guid().nullable(),
  /**
   * What the entry posted: each pairing's (the bank account's ledger account against 311 customers, or 321
   * suppliers against it) and a fee's or interest's (568 / 662 against it), amounts positive.
   */
  accountingEntries: z.array(AccountingEntry),
});
export type BankEntry = z.infer<typeof BankEntry>;

export const StatementWarning = z.object({ code: z.string(), message: z.string() });

/**
 * An imported statement: the company bank account (by its IBAN), the bank's number (`LglSeqNb`, else
 * `ElctrncSeqNb`, else `Stmt/Id`), period and balances (signed), the SHA-256 of the bytes as received,
 * `warnings` (e.g. `BalanceGap` when the statement before it closed at another balance), and the entries
 * this file stored (`newEntries`; the other `entryCount − newEntries` were stored by an earlier one).
 */
export const BankStatementHeader = z.object({
  id: Guid(),
  bankAccountId: Guid(),
  iban: z.string(),
  number: z.string(),
  statementId: z.string(),
  messageId: z.string(),
  format: z.string(),
  periodFrom: DateOnly(),
  periodTo: DateOnly(),
  currency: z.string(),
  openingBalance: Amount().nullable(),
  closingBalance: Amount().nullable(),
  warnings: z.array(StatementWarning),
  entryCount: z.number().int(),
  newEntries: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
});
export const BankStatement = BankStatementHeader.extend({ entries: z.array(BankEntry) });
export type BankStatement = z.infer<typeof BankStatement>;

/** `POST /1.6/bank/statements`: the file as the bank gave it, base64. `created` false: the same file was stored before. */
export const importBankStatement = defineContract({
  subject: 'invoicing.bank-statements.import',
  request: z.object({ document: z.string().min(1) }),
  reply: z.object({ created: z.boolean(), statement: BankStatement }),
});
export const BankStatementListQuery = PageQuery.extend({ accountId: Guid().optional() });
export const listBankStatements = defineContract({
  subject: 'invoicing.bank-statements.list',
  request: BankStatementListQuery,
  reply: Page(BankStatementHeader),
});
export const getBankStatement = defineContract({
  subject: 'invoicing.bank-statements.get',
  request: z.object({ id: Guid() }),
  reply: BankStatement,
});
/** The statement's bytes exactly as received (base64) and their SHA-256. */
export const getBankStatementDocument = defineContract({
  subject: 'invoicing.bank-statements.document',
  request: z.object({ id: Guid() }),
  reply: z.object({ document: z.string(), sha256: z.string() }),
});

export const BankEntryListQuery = PageQuery.extend({
  status: BankEntryStatus.optional(),
  accountId: Guid().optional(),
});
export const listBankEntries = defineContract({
  subject: 'invoicing.bank-entries.list',
  request: BankEntryListQuery,
  reply: Page(BankEntry),
});
/**
 * `POST /1.6/bank/entries/{id}/pairings` `{invoiceId, amount?}`: `amount` (positive, in the entry's
 * currency) defaults to the smaller of what the entry has unallocated and what the invoice has open;
 * more than the invoice has open is that partner's overpayment.
 */
export const PairingInput = z.object({ invoiceId: Guid(), amount: Amount().optional() });
export const pairBankEntry = defineContract({
  subject: 'invoicing.bank-entries.pair',
  request: z.object({ id: Guid(), data: PairingInput }),
  reply: BankEntry,
});
export const unpairBankEntry = defineContract({
  subject: 'invoicing.bank-entries.unpair',
  request: z.object({ id: Guid(), pairingId: Guid() }),
  reply: BankEntry,
});
export const ignoreBankEntry = defineContract({
  subject: 'invoicing.bank-entries.ignore',
  request: z.object({ id: Guid() }),
  reply: BankEntry,
});

/** A partner's open overpayment: an invoice paid beyond its total (`amount` the surplus, positive). */
export const Overpayment = z.object({
  invoiceId: Guid(),
  book: InvoiceBook,
  recordNumber: z.string(),
  partnerId: Guid().nullable(),
  currency: z.string(),
  amount: Amount(),
  entryIds: z.array(Guid()),
});
export const listOverpayments = defineContract({
  subject: 'invoicing.overpayments.list',
  request: z.object({ partnerId: Guid().optional() }),
  reply: z.object({ items: z.array(Overpayment) }),
});

/** One invoice of a payment order: the supplier, their IBAN, the amount and the symbols' EndToEndId. */
export const PaymentOrderItem = z.object({
  invoiceId: Guid(),
  recordNumber: z.string(),
  externalRecordNumber: z.string().nullable(),
  partnerId: Guid(),
  partnerName: z.string().nullable(),
  iban: z.string(),
  amount: Amount(),
  endToEndId: z.string(),
  /** Open until a statement pays the invoice or the order is cancelled. */
  open: z.boolean(),
});
/** A payment order (SEPA credit transfer, pain.001.001.03); `state` `open`, `done` or `cancelled`. */
export const PaymentOrder = z.object({
  id: Guid(),
  bankAccountId: Guid(),
  messageId: z.string(),
  executionDate: DateOnly(),
  currency: z.string(),
  total: Amount(),
  state: z.enum(['open', 'done', 'cancelled']),
  sha256: z.string(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  items: z.array(PaymentOrderItem),
});
export type PaymentOrder = z.infer<typeof PaymentOrder>;
/** `executionDate` defaults to the next business day (a weekend moves to Monday). */
export const PaymentOrderInput = z.object({
  bankAccountId: Guid(),
  invoiceIds: z.array(Guid()).min(1).max(10_000),
  executionDate: DateOnly().optional(),
});
export const createPaymentOrder = defineContract({
  subject: 'invoicing.payment-orders.create',
  request: PaymentOrderInput,
  reply: PaymentOrder,
});
export const getPaymentOrder = defineContract({
  subject: 'invoicing.payment-orders.get',
  request: z.object({ id: Guid() }),
  reply: PaymentOrder.extend({ document: z.string() }),
});
export const cancelPaymentOrder = defineContract({
  subject: 'invoicing.payment-orders.cancel',
  request: z.object({ id: Guid() }),
  reply: PaymentOrder,
});
