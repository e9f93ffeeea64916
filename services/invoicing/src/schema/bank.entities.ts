/**
 * Payments from the bank (issue #45; DESIGN §6d): bank statements as received (camt.053 bytes, SHA-256),
 * their entries, each stored once per account by the bank's reference (a unique key, so overlapping or
 * repeated imports pay nothing twice), and payment orders (pain.001.001.03 bytes) with their items. A
 * pairing of an entry with an invoice is a row of `payment` with `entry_id` (invoice.entities.ts).
 * Decimals are `numeric`, read as strings; amounts in the account's currency, 2 decimals.
 */
import { companyFilter, tenantColumns } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { SCHEMA } from './schema.js';

const money = () => p.decimal('string').precision(18).scale(2);

/** One imported statement file: the account it belongs to, its number, period and balances, the bytes. */
export const BankStatementEntity = defineEntity({
  name: 'BankStatement',
  tableName: 'bank_statement',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    bankAccountId: p.uuid(),
    /** The bank's `LglSeqNb`, else `ElctrncSeqNb`, else `Stmt/Id`. */
    number: p.string().length(35),
    statementId: p.string().length(35),
    messageId: p.string().length(35),
    /** `camt.053.001.02` … `.08`. */
    format: p.string().length(20),
    periodFrom: p.date(),
    periodTo: p.date(),
    currency: p.string().length(3),
    openingBalance: money().nullable(),
    closingBalance: money().nullable(),
    /** Continuity and other warnings (`[{code, message}]`): the statement is stored, not refused. */
    warnings: p.json<{ code: string; message: string }[]>(),
    entryCount: p.integer(),
    /** Entries this file stored (the rest were stored by an earlier statement). */
    newEntries: p.integer(),
    sha256: p.string().length(64),
    bytes: p.blob(),
    createdAt: p.datetime(),
  },
  uniques: [{ properties: ['companyId', 'sha256'] }],
  indexes: [{ properties: ['companyId', 'bankAccountId', 'periodTo'] }],
});

/**
 * One booked entry of a statement, once per account: `entryKey` is the bank's reference
 * (`AcctSvcrRef`), else booking date + signed amount + EndToEndId. `amount` positive, `direction`
 * `credit` (money in) or `debit`. `status`: `unpaired`, `paired`, `posted` (fees, interest), `ignored`,
 * `reversed`.
 */
export const BankEntryEntity = defineEntity({
  name: 'BankEntry',
  tableName: 'bank_entry',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    bankAccountId: p.uuid(),
    statementId: p.uuid(),
    /** Its place in the statement that stored it (1-based `Ntry` order): a statement lists its entries as the bank did. */
    position: p.integer().default(0),
    entryKey: p.string().length(120),
    accountServicerRef: p.string().length(35).nullable(),
    endToEndId: p.string().length(35).nullable(),
    direction: p.string().length(6),
    amount: money(),
    currency: p.string().length(3),
    bookingDate: p.date(),
    valueDate: p.date().nullable(),
    reversal: p.boolean(),
    bankTransactionCode: p.string().length(40).nullable(),
    counterpartyName: p.string().length(140).nullable(),
    counterpartyIban: p.string().length(34).nullable(),
    remittance: p.text().nullable(),
    reference: p.string().length(35).nullable(),
    symbolVariable: p.string().length(10).nullable(),
    symbolSpecific: p.string().length(10).nullable(),
    symbolConstant: p.string().length(4).nullable(),
    status: p.string().length(10),
    /** How it was paired or posted: `variableSymbol`, `counterpartyAmount`, `manual`, `fee`, `interest`. */
    rule: p.string().length(20).nullable(),
    /** Why it stayed unpaired, and the invoices the rule considered. */
    reason: p.text().nullable(),
    candidates:
      p.json<
        {
          invoiceId: string;
          book: 'sales' | 'purchase';
          recordNumber: string;
          partnerId: string | null;
          open: string;
        }[]
      >(),
    /** A reversal's entry and the entry it reversed point at each other. */
    reversalOf: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
  uniques: [{ properties: ['companyId', 'bankAccountId', 'entryKey'] }],
  indexes: [
    { properties: ['companyId', 'status', 'bookingDate'] },
    { properties: ['companyId', 'statementId'] },
    // A counterparty known from an earlier pairing; a reversal's entry by reference or EndToEndId.
    { properties: ['companyId', 'counterpartyIban'] },
    { properties: ['companyId', 'bankAccountId', 'endToEndId'] },
    { properties: ['companyId', 'bankAccountId', 'accountServicerRef'] },
  ],
});

/** A payment order (SEPA credit transfer, pain.001.001.03): `state` `open`, `done` or `cancelled`. */
export const PaymentOrderEntity = defineEntity({
  name: 'PaymentOrder',
  tableName: 'payment_order',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    bankAccountId: p.uuid(),
    messageId: p.string().length(35),
    executionDate: p.date(),
    currency: p.string().length(3),
    total: money(),
    itemCount: p.integer(),
    state: p.string().length(10),
    sha256: p.string().length(64),
    bytes: p.blob(),
    createdAt: p.datetime(),
    cancelledAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['companyId', 'createdAt'] }],
});

/** One invoice of a payment order; `open` while the order is open and the invoice not paid by a statement. */
export const PaymentOrderItemEntity = defineEntity({
  name: 'PaymentOrderItem',
  tableName: 'payment_order_item',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    orderId: p.uuid().index(),
    invoiceId: p.uuid(),
    amount: money(),
    /** The creditor's IBAN as the order's file names it. */
    iban: p.string().length(34),
    endToEndId: p.string().length(35),
    open: p.boolean(),
  },
  indexes: [
    {
      // An invoice is in at most one open order (issue #45): a unique key, not a check first.
      name: 'payment_order_item_open_invoice_unique',
      expression:
        'create unique index "payment_order_item_open_invoice_unique" on "invoicing"."payment_order_item" ("company_id", "invoice_id") where "open"',
    },
  ],
});
