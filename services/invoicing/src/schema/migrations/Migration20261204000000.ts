import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #45, payments: bank statements (bytes as received) and their entries (unique per account by the
 * bank's reference), payment orders and their items (an invoice in at most one open order), pairings as
 * payments with their entry, purchase invoices payable (IBAN, symbols), partners' IBANs, each bank
 * account's ledger, fee and interest accounts; indexes that find invoices by variable symbol and partner.
 */
export class Migration20261204000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "invoicing"."bank_entry" ("id" uuid not null, "company_id" uuid not null, "bank_account_id" uuid not null, "statement_id" uuid not null, "position" int not null default 0, "entry_key" varchar(120) not null, "account_servicer_ref" varchar(35) null, "end_to_end_id" varchar(35) null, "direction" varchar(6) not null, "amount" numeric(18,2) not null, "currency" varchar(3) not null, "booking_date" date not null, "value_date" date null, "reversal" boolean not null, "bank_transaction_code" varchar(40) null, "counterparty_name" varchar(140) null, "counterparty_iban" varchar(34) null, "remittance" text null, "reference" varchar(35) null, "symbol_variable" varchar(10) null, "symbol_specific" varchar(10) null, "symbol_constant" varchar(4) null, "status" varchar(10) not null, "rule" varchar(20) null, "reason" text null, "candidates" jsonb not null, "reversal_of" uuid null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "bank_entry_company_id_status_booking_date_index" on "invoicing"."bank_entry" ("company_id", "status", "booking_date");`,
    );
    this.addSql(
      `create index "bank_entry_company_id_statement_id_index" on "invoicing"."bank_entry" ("company_id", "statement_id");`,
    );
    this.addSql(
      `create index "bank_entry_company_id_counterparty_iban_index" on "invoicing"."bank_entry" ("company_id", "counterparty_iban");`,
    );
    this.addSql(
      `create index "bank_entry_company_id_bank_account_id_end_to_end_id_index" on "invoicing"."bank_entry" ("company_id", "bank_account_id", "end_to_end_id");`,
    );
    this.addSql(
      `create index "bank_entry_company_id_bank_account_id_account_serv_81ac6_index" on "invoicing"."bank_entry" ("company_id", "bank_account_id", "account_servicer_ref");`,
    );
    this.addSql(
      `alter table "invoicing"."bank_entry" add constraint "bank_entry_company_id_bank_account_id_entry_key_unique" unique ("company_id", "bank_account_id", "entry_key");`,
    );
    this.addSql(
      `create table "invoicing"."bank_statement" ("id" uuid not null, "company_id" uuid not null, "bank_account_id" uuid not null, "number" varchar(35) not null, "statement_id" varchar(35) not null, "message_id" varchar(35) not null, "format" varchar(20) not null, "period_from" date not null, "period_to" date not null, "currency" varchar(3) not null, "opening_balance" numeric(18,2) null, "closing_balance" numeric(18,2) null, "warnings" jsonb not null, "entry_count" int not null, "new_entries" int not null, "sha256" varchar(64) not null, "bytes" bytea not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "bank_statement_company_id_bank_account_id_period_to_index" on "invoicing"."bank_statement" ("company_id", "bank_account_id", "period_to");`,
    );
    this.addSql(
      `alter table "invoicing"."bank_statement" add constraint "bank_statement_company_id_sha256_unique" unique ("company_id", "sha256");`,
    );
    this.addSql(
      `create table "invoicing"."payment_order" ("id" uuid not null, "company_id" uuid not null, "bank_account_id" uuid not null, "message_id" varchar(35) not null, "execution_date" date not null, "currency" varchar(3) not null, "total" numeric(18,2) not null, "item_count" int not null, "state" varchar(10) not null, "sha256" varchar(64) not null, "bytes" bytea not null, "created_at" timestamptz not null, "cancelled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "payment_order_company_id_created_at_index" on "invoicing"."payment_order" ("company_id", "created_at");`,
    );
    this.addSql(
      `create table "invoicing"."payment_order_item" ("id" uuid not null, "company_id" uuid not null, "order_id" uuid not null, "invoice_id" uuid not null, "amount" numeric(18,2) not null, "iban" varchar(34) not null, "end_to_end_id" varchar(35) not null, "open" boolean not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "payment_order_item_order_id_index" on "invoicing"."payment_order_item" ("order_id");`,
    );
    this.addSql(
      `create unique index "payment_order_item_open_invoice_unique" on "invoicing"."payment_order_item" ("company_id", "invoice_id") where "open";`,
    );
    this.addSql(
      `alter table "invoicing"."bank_account" add "account_code" varchar(10) not null default '221', add "fee_account" varchar(10) not null default '568', add "interest_account" varchar(10) not null default '662';`,
    );
    this.addSql(`alter table "invoicing"."partner" add "iban" text[] not null default '{}';`);
    this.addSql(`create index "partner_iban_index" on "invoicing"."partner" using gin ("iban");`);
    this.addSql(
      `alter table "invoicing"."payment" add "entry_id" uuid null, add "book" varchar(8) not null default 'sales', add "partner_id" uuid null, add "overpayment" numeric(18,2) not null default '0';`,
    );
    this.addSql(`create index "payment_entry_id_index" on "invoicing"."payment" ("entry_id");`);
    this.addSql(
      `alter table "invoicing"."purchase_invoice" add "iban" varchar(34) null, add "symbol_variable" varchar(10) null, add "symbol_specific" varchar(10) null, add "symbol_constant" varchar(4) null;`,
    );
    this.addSql(
      `create index "purchase_invoice_company_id_symbol_variable_index" on "invoicing"."purchase_invoice" ("company_id", "symbol_variable");`,
    );
    this.addSql(
      `create index "purchase_invoice_company_id_partner_id_index" on "invoicing"."purchase_invoice" ("company_id", "partner_id");`,
    );
    this.addSql(
      `create index "sales_invoice_company_id_symbol_variable_index" on "invoicing"."sales_invoice" ("company_id", "symbol_variable");`,
    );
    this.addSql(
      `create index "sales_invoice_company_id_partner_id_index" on "invoicing"."sales_invoice" ("company_id", "partner_id");`,
    );
  }

  override async down(): Promise<void> {
    for (const t of ['bank_statement', 'bank_entry', 'payment_order', 'payment_order_item'])
      this.addSql(`drop table if exists "invoicing"."${t}";`);
    this.addSql(
      `alter table "invoicing"."bank_account" drop column "account_code", drop column "fee_account", drop column "interest_account";`,
    );
    this.addSql(`alter table "invoicing"."partner" drop column "iban";`);
    this.addSql(
      `alter table "invoicing"."payment" drop column "entry_id", drop column "book", drop column "partner_id", drop column "overpayment";`,
    );
    this.addSql(
      `alter table "invoicing"."purchase_invoice" drop column "iban", drop column "symbol_variable", drop column "symbol_specific", drop column "symbol_constant";`,
    );
    for (const i of [
      'sales_invoice_company_id_symbol_variable_index',
      'sales_invoice_company_id_partner_id_index',
      'purchase_invoice_company_id_symbol_variable_index',
      'purchase_invoice_company_id_partner_id_index',
    ])
      this.addSql(`drop index if exists "invoicing"."${i}";`);
  }
}
