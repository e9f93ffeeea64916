import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #35: the inbox of received e-invoices (stored before they are booked) and each company's
 * access-point settings (the SAPI-SK client secret only as ciphertext). Documents received before the
 * inbox existed are entered as `booked` records of channel `upload` (their channel was not kept).
 */
export class Migration20261129000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "invoicing"."access_point_settings" ("company_id" uuid not null, "transport" varchar(10) not null, "url" varchar(500) null, "client_id" varchar(200) null, "scope" varchar(500) null, "secret_ciphertext" text null, "last_contact_at" timestamptz null, "last_error" text null, "last_error_at" timestamptz null, "updated_at" timestamptz not null, primary key ("company_id"));`,
    );
    this.addSql(
      `create table "invoicing"."received_e_invoice" ("id" uuid not null, "company_id" uuid not null, "received_at" timestamptz not null, "channel" varchar(12) not null, "provider_document_id" varchar(200) null, "bytes" bytea not null, "sha256" varchar(64) not null, "sender_id" varchar(200) null, "receiver_id" varchar(200) null, "sender_name" varchar(255) null, "invoice_number" varchar(200) null, "issue_date" varchar(10) null, "document_type" varchar(12) null, "total" numeric(18,2) null, "currency" varchar(3) null, "status" varchar(20) not null, "purchase_invoice_id" uuid null, "problems" jsonb not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "received_e_invoice_company_id_status_received_at_index" on "invoicing"."received_e_invoice" ("company_id", "status", "received_at");`,
    );
    this.addSql(
      `alter table "invoicing"."received_e_invoice" add constraint "received_e_invoice_company_id_sha256_unique" unique ("company_id", "sha256");`,
    );
    this.addSql(
      `alter table "invoicing"."received_e_invoice" add constraint "received_e_invoice_company_id_channel_provider_do_931c5_unique" unique ("company_id", "channel", "provider_document_id");`,
    );
    this.addSql(
      `insert into "invoicing"."received_e_invoice" ("id", "company_id", "received_at", "channel", "provider_document_id", "bytes", "sha256", "sender_id", "receiver_id", "sender_name", "invoice_number", "issue_date", "document_type", "total", "currency", "status", "purchase_invoice_id", "problems", "updated_at")
       select gen_random_uuid(), d."company_id", d."created_at", 'upload', null, d."bytes", d."sha256", d."sender_id", d."receiver_id", split_part(coalesce(pi."partner", ''), E'\\n', 1), d."external_number", to_char(pi."date_created", 'YYYY-MM-DD'), d."document_type", pi."sum_total", pi."currency1", 'booked', d."document_id", '[]'::jsonb, d."created_at"
       from "invoicing"."e_invoice_document" d left join "invoicing"."purchase_invoice" pi on pi."id" = d."document_id"
       where d."direction" = 'received' on conflict do nothing;`,
    );
  }
}
