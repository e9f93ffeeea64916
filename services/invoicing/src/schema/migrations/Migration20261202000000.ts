import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #43: a received document is identified by its bytes, not by the provider's id (which may repeat
 * across senders): the unique key on (company, channel, provider document id) becomes a plain index.
 * Bookings that fail for another reason than a refusal are counted (`booking_attempts`). A received
 * document's bytes are kept once: the archive row of a purchase invoice booked from an inbox record refers
 * to it (`received_id`) and its own copy is dropped (the digests must agree; others keep theirs).
 */
export class Migration20261202000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "invoicing"."received_e_invoice" drop constraint "received_e_invoice_company_id_channel_provider_do_931c5_unique";`,
    );
    this.addSql(
      `create index "received_e_invoice_company_id_channel_provider_doc_b54f6_index" on "invoicing"."received_e_invoice" ("company_id", "channel", "provider_document_id");`,
    );
    this.addSql(
      `alter table "invoicing"."received_e_invoice" add column "booking_attempts" int not null default 0;`,
    );
    this.addSql(
      `alter table "invoicing"."e_invoice_document" alter column "bytes" drop not null, add column "received_id" uuid null;`,
    );
    this.addSql(
      `update "invoicing"."e_invoice_document" d set "received_id" = r."id", "bytes" = null
         from "invoicing"."received_e_invoice" r
        where d."direction" = 'received' and r."company_id" = d."company_id"
          and r."purchase_invoice_id" = d."document_id" and r."sha256" = d."sha256"
          and r."status" = 'booked';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `update "invoicing"."e_invoice_document" d set "bytes" = r."bytes"
         from "invoicing"."received_e_invoice" r where d."received_id" = r."id" and d."bytes" is null;`,
    );
    this.addSql(
      `alter table "invoicing"."e_invoice_document" drop column "received_id", alter column "bytes" set not null;`,
    );
    this.addSql(`alter table "invoicing"."received_e_invoice" drop column "booking_attempts";`);
    this.addSql(`drop index "invoicing"."received_e_invoice_company_id_channel_provider_doc_b54f6_index";`);
    this.addSql(
      `alter table "invoicing"."received_e_invoice" add constraint "received_e_invoice_company_id_channel_provider_do_931c5_unique" unique ("company_id", "channel", "provider_document_id");`,
    );
  }
}
