import { Migration } from '@mikro-orm/migrations';

/**
 * E-invoice delivery (issue #23): the delivery state of each issued document, the history of its
 * changes, and one company per `peppolId`. Documents issued before get status `issued`, attempt 1 and
 * one history row.
 */
export class Migration20261126000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "invoicing"."e_invoice_document" add column "delivery_status" varchar(12) null, add column "attempt" int not null default 0, add column "transmission_id" varchar(100) null, add column "delivered_at" timestamptz null, add column "mls" varchar(2) null, add column "reasons" jsonb null, add column "status_at" timestamptz null;
update "invoicing"."e_invoice_document" set "delivery_status" = 'issued', "attempt" = 1, "status_at" = "created_at" where "direction" = 'issued';
create table "invoicing"."e_invoice_status_change" ("id" uuid not null, "company_id" uuid not null, "invoice_id" uuid not null, "seq" int not null, "attempt" int not null, "status" varchar(12) not null, "transmission_id" varchar(100) null, "mls" varchar(2) null, "reasons" jsonb not null, "at" timestamptz not null, primary key ("id"));
alter table "invoicing"."e_invoice_status_change" add constraint "e_invoice_status_change_company_id_invoice_id_seq_unique" unique ("company_id", "invoice_id", "seq");
insert into "invoicing"."e_invoice_status_change" ("id", "company_id", "invoice_id", "seq", "attempt", "status", "reasons", "at")
  select gen_random_uuid(), "company_id", "document_id", 1, 1, 'issued', '[]'::jsonb, "created_at" from "invoicing"."e_invoice_document" where "direction" = 'issued';
alter table "invoicing"."company_profile" add constraint "company_profile_peppol_id_unique" unique ("peppol_id");
`);
  }
}
