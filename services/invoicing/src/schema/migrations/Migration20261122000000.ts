import { Migration } from '@mikro-orm/migrations';

/** Master data of the invoicing service: tax profile, partners, VAT codes, periods, bank accounts, code lists, ordners. */
export class Migration20261122000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "invoicing"."bank_account" ("id" uuid not null, "company_id" uuid not null, "code" varchar(20) not null, "name" varchar(255) not null, "iban" varchar(34) not null, "bic" varchar(11) null, "currency" varchar(3) not null, "is_default" boolean not null, primary key ("id"));
alter table "invoicing"."bank_account" add constraint "bank_account_company_id_code_unique" unique ("company_id", "code");
create table "invoicing"."code_list_entry" ("id" uuid not null, "company_id" uuid not null, "list" varchar(20) not null, "code" varchar(30) not null, "name" varchar(255) not null, primary key ("id"));
alter table "invoicing"."code_list_entry" add constraint "code_list_entry_company_id_list_code_unique" unique ("company_id", "list", "code");
create table "invoicing"."company_profile" ("id" uuid not null, "company_id" uuid not null, "name" varchar(255) not null, "country" varchar(2) not null, "vat_number" varchar(20) null, "company_number" varchar(30) null, "address" text null, "oss_registered" boolean not null, "currency" varchar(3) not null, "time_zone" varchar(50) not null, "default_due_days" int not null, primary key ("id"));
alter table "invoicing"."company_profile" add constraint "company_profile_company_id_unique" unique ("company_id");
create table "invoicing"."ordner" ("id" uuid not null, "company_id" uuid not null, "code" varchar(20) not null, "name" varchar(255) not null, "document_type" varchar(20) not null, "number_format" varchar(50) not null, "report_id" uuid null, primary key ("id"));
alter table "invoicing"."ordner" add constraint "ordner_company_id_code_unique" unique ("company_id", "code");
create table "invoicing"."partner" ("id" uuid not null, "company_id" uuid not null, "code" varchar(30) not null, "name" varchar(255) not null, "address" text null, "delivery_address" text null, "country" varchar(2) null, "company_number" varchar(30) null, "vat_number" varchar(20) null, "due_days" int not null, primary key ("id"));
alter table "invoicing"."partner" add constraint "partner_company_id_code_unique" unique ("company_id", "code");
create table "invoicing"."period" ("id" uuid not null, "company_id" uuid not null, "code" varchar(20) not null, "date_from" date not null, "date_to" date not null, "closed" boolean not null, primary key ("id"));
alter table "invoicing"."period" add constraint "period_company_id_code_unique" unique ("company_id", "code");
create table "invoicing"."vat_code" ("id" uuid not null, "company_id" uuid not null, "code" varchar(20) not null, "name" varchar(255) null, "type" varchar(1) not null, "country" varchar(2) not null, "rate" numeric(5,2) not null, "valid_from" date not null, "valid_to" date null, "kind" varchar(20) not null, primary key ("id"));
alter table "invoicing"."vat_code" add constraint "vat_code_company_id_code_unique" unique ("company_id", "code");
create table "invoicing"."vat_paragraph" ("id" uuid not null, "company_id" uuid not null, "vat_code_id" uuid not null, "code" varchar(30) not null, "text" varchar(500) not null, "is_default" boolean not null, primary key ("id"));
alter table "invoicing"."vat_paragraph" add constraint "vat_paragraph_company_id_vat_code_id_code_unique" unique ("company_id", "vat_code_id", "code");
`);
  }
}
