import { Migration } from '@mikro-orm/migrations';

/**
 * Stock ledger and documents: receipt and issue cards, stock balances, movements, FIFO valuation layers
 * and their consumption, ordner counters, accounting entries, the outbox, and the ledger sequence that
 * orders movements created on the same date.
 */
export class Migration20261122000100 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "warehouse"."accounting_entry" ("id" uuid not null, "company_id" uuid not null, "document_id" uuid not null, "line_no" int not null, "debit_account" varchar(20) not null, "credit_account" varchar(20) not null, "amount" numeric(18,2) not null, "description" varchar(255) not null, primary key ("id"));
create index "accounting_entry_document_id_index" on "warehouse"."accounting_entry" ("document_id");
create table "warehouse"."issue_card" ("id" uuid not null, "company_id" uuid not null, "ordner_id" uuid not null, "warehouse_id" uuid not null, "partner_id" uuid not null, "record_number" varchar(30) not null, "tags" text[] not null, "partner_address" text null, "date_created" date not null, "date_accounting" date not null, "date_operation" date not null, "period_id" uuid null, "items_comment" text null, "report_id" uuid null, "total_cost" numeric(18,2) not null, "source_id" uuid null, "source_type" varchar(20) null, "created_at" timestamptz not null, primary key ("id"));
alter table "warehouse"."issue_card" add constraint "issue_card_company_id_record_number_unique" unique ("company_id", "record_number");
create table "warehouse"."issue_card_row" ("id" uuid not null, "company_id" uuid not null, "issue_card_id" uuid not null, "row_no" int not null, "item_id" uuid not null, "code" varchar(30) null, "name" varchar(255) null, "unit_id" uuid null, "lot_number_id" uuid null, "quantity" numeric(18,4) not null, "sell_price" numeric(18,4) not null, "cost_price" numeric(18,4) not null, "amount" numeric(18,2) not null, primary key ("id"));
create index "issue_card_row_issue_card_id_index" on "warehouse"."issue_card_row" ("issue_card_id");
create table "warehouse"."layer_consumption" ("id" uuid not null, "company_id" uuid not null, "layer_id" uuid not null, "document_id" uuid not null, "date_operation" date not null, "quantity" numeric(18,4) not null, "value" numeric(18,2) not null, primary key ("id"));
create index "layer_consumption_layer_id_date_operation_index" on "warehouse"."layer_consumption" ("layer_id", "date_operation");
create table "warehouse"."ordner_counter" ("ordner_id" uuid not null, "year" int not null, "company_id" uuid not null, "last_value" int not null, primary key ("ordner_id", "year"));
create table "warehouse"."outbox" ("id" uuid not null, "company_id" uuid not null, "subject" varchar(255) not null, "payload" jsonb not null, "created_at" timestamptz not null, "published_at" timestamptz null, primary key ("id"));
create index "outbox_unpublished_index" on "warehouse"."outbox" ("created_at") where "published_at" is null;
create table "warehouse"."receipt_card" ("id" uuid not null, "company_id" uuid not null, "ordner_id" uuid not null, "warehouse_id" uuid not null, "partner_id" uuid null, "record_number" varchar(30) not null, "date_operation" date not null, "date_accounting" date not null, "period_id" uuid null, "total_cost" numeric(18,2) not null, "created_at" timestamptz not null, primary key ("id"));
alter table "warehouse"."receipt_card" add constraint "receipt_card_company_id_record_number_unique" unique ("company_id", "record_number");
create table "warehouse"."receipt_card_row" ("id" uuid not null, "company_id" uuid not null, "receipt_card_id" uuid not null, "row_no" int not null, "item_id" uuid not null, "lot_number_id" uuid null, "quantity" numeric(18,4) not null, "cost_price" numeric(18,4) not null, "amount" numeric(18,2) not null, primary key ("id"));
create index "receipt_card_row_receipt_card_id_index" on "warehouse"."receipt_card_row" ("receipt_card_id");
create table "warehouse"."stock_balance" ("id" uuid not null, "company_id" uuid not null, "warehouse_id" uuid not null, "item_id" uuid not null, "lot_key" uuid not null, "quantity" numeric(18,4) not null, "value" numeric(18,2) not null, "last_date" date null, primary key ("id"));
alter table "warehouse"."stock_balance" add constraint "stock_balance_company_id_warehouse_id_item_id_lot_key_unique" unique ("company_id", "warehouse_id", "item_id", "lot_key");
create table "warehouse"."stock_movement" ("id" uuid not null, "company_id" uuid not null, "warehouse_id" uuid not null, "item_id" uuid not null, "lot_key" uuid not null, "date_operation" date not null, "seq" bigint not null, "quantity" numeric(18,4) not null, "value" numeric(18,2) not null, "document_type" varchar(30) not null, "document_id" uuid not null, primary key ("id"));
create index "stock_movement_company_id_warehouse_id_item_id_lot_d1b6b_index" on "warehouse"."stock_movement" ("company_id", "warehouse_id", "item_id", "lot_key", "date_operation", "seq");
create table "warehouse"."valuation_layer" ("id" uuid not null, "company_id" uuid not null, "warehouse_id" uuid not null, "item_id" uuid not null, "lot_key" uuid not null, "date_operation" date not null, "seq" bigint not null, "quantity" numeric(18,4) not null, "unit_cost" numeric(18,4) not null, "amount" numeric(18,2) not null, "remaining_quantity" numeric(18,4) not null, "remaining_value" numeric(18,2) not null, primary key ("id"));
create index "valuation_layer_open_index" on "warehouse"."valuation_layer" ("company_id", "warehouse_id", "item_id", "lot_key", "date_operation", "seq") where "remaining_quantity" > 0;
create index "valuation_layer_company_id_warehouse_id_item_id_lo_762e1_index" on "warehouse"."valuation_layer" ("company_id", "warehouse_id", "item_id", "lot_key", "date_operation");
create sequence if not exists "warehouse"."ledger_seq";
`);
  }
}
