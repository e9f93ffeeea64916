import { Migration } from '@mikro-orm/migrations';

/** Master data of the warehouse service: warehouses, units, items, lot numbers, ordners. */
export class Migration20261122000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "warehouse"."item" ("id" uuid not null, "company_id" uuid not null, "code" varchar(30) not null, "name" varchar(255) not null, "unit_id" uuid null, "sell_price" numeric(18,4) not null, "vat_rate" numeric(5,2) null, "kind" varchar(10) not null, "has_lot_numbers" boolean not null, primary key ("id"));
alter table "warehouse"."item" add constraint "item_company_id_code_unique" unique ("company_id", "code");
create table "warehouse"."lot_number" ("id" uuid not null, "company_id" uuid not null, "item_id" uuid not null, "number" varchar(50) not null, "expiry_date" date null, primary key ("id"));
alter table "warehouse"."lot_number" add constraint "lot_number_company_id_item_id_number_unique" unique ("company_id", "item_id", "number");
create table "warehouse"."ordner" ("id" uuid not null, "company_id" uuid not null, "code" varchar(20) not null, "name" varchar(255) not null, "document_type" varchar(20) not null, "number_format" varchar(50) not null, "report_id" uuid null, primary key ("id"));
alter table "warehouse"."ordner" add constraint "ordner_company_id_code_unique" unique ("company_id", "code");
create table "warehouse"."unit" ("id" uuid not null, "company_id" uuid not null, "code" varchar(30) not null, "name" varchar(255) not null, primary key ("id"));
alter table "warehouse"."unit" add constraint "unit_company_id_code_unique" unique ("company_id", "code");
create table "warehouse"."warehouse" ("id" uuid not null, "company_id" uuid not null, "code" varchar(20) not null, "name" varchar(255) not null, "valuation_method" varchar(20) not null, "allow_negative_stock" boolean not null, "accounted" boolean not null, "stock_account" varchar(20) not null, "expense_account" varchar(20) not null, primary key ("id"));
alter table "warehouse"."warehouse" add constraint "warehouse_company_id_code_unique" unique ("company_id", "code");
`);
  }
}
