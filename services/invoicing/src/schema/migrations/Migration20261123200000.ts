import { Migration } from '@mikro-orm/migrations';

/**
 * One explicit default ordner per document type (issue #10, DESIGN §5): until now the default was the
 * ordner with the lowest code, so a new ordner could divert documents. Existing companies keep what
 * they had: the lowest code of each type becomes the flagged default.
 */
export class Migration20261123200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "invoicing"."ordner" add column "is_default" boolean not null default false;
update "invoicing"."ordner" o set "is_default" = true
  where o."id" in (select distinct on ("company_id", "document_type") "id" from "invoicing"."ordner"
                    order by "company_id", "document_type", "code");
alter table "invoicing"."ordner" alter column "is_default" drop default;
create unique index "ordner_default_unique" on "invoicing"."ordner" ("company_id", "document_type") where "is_default";
`);
  }
}
