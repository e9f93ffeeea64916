import { Migration } from '@mikro-orm/migrations';

/**
 * E-invoicing (issue #21): the seller's and buyer's data an e-invoice needs, the corrected invoice of a
 * credit note, input VAT of purchase invoices, and the archive of issued and received e-invoices.
 */
export class Migration20261125000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "invoicing"."company_profile"
  add column "tax_number" varchar(20) null, add column "street" varchar(255) null,
  add column "city" varchar(100) null, add column "postal_code" varchar(20) null,
  add column "registration" varchar(500) null, add column "email" varchar(255) null,
  add column "phone" varchar(50) null, add column "peppol_id" varchar(60) null;
alter table "invoicing"."partner"
  add column "street" varchar(255) null, add column "city" varchar(100) null,
  add column "postal_code" varchar(20) null, add column "tax_number" varchar(20) null,
  add column "email" varchar(255) null, add column "peppol_id" varchar(60) null;
alter table "invoicing"."sales_invoice" add column "corrected_invoice_id" uuid null;
alter table "invoicing"."purchase_invoice"
  add column "sum_vat" numeric(18,2) not null default '0', add column "sum_total" numeric(18,2) not null default '0',
  add column "vat_summary" jsonb not null default '[]', add column "source" varchar(10) not null default 'manual';
update "invoicing"."purchase_invoice" set "sum_total" = "sum";
alter table "invoicing"."purchase_invoice_row" add column "vat_rate" numeric(5,2) null;
create table "invoicing"."e_invoice_document" (
  "id" uuid not null, "company_id" uuid not null, "document_id" uuid not null,
  "direction" varchar(10) not null, "document_type" varchar(12) not null, "bytes" bytea not null,
  "sha256" varchar(64) not null, "sender_id" varchar(60) null, "receiver_id" varchar(60) null,
  "party_key" varchar(60) null, "external_number" varchar(50) null, "created_at" timestamptz not null,
  constraint "e_invoice_document_pkey" primary key ("id"));
alter table "invoicing"."e_invoice_document" add constraint "e_invoice_document_company_id_direction_document_id_unique" unique ("company_id", "direction", "document_id");
alter table "invoicing"."e_invoice_document" add constraint "e_invoice_document_company_id_direction_party_key_bcc46_unique" unique ("company_id", "direction", "party_key", "external_number");
`);
  }
}
