import { Migration } from '@mikro-orm/migrations';

/** Report definitions. */
export class Migration20261122000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "reporting"."report" ("id" uuid not null, "company_id" uuid not null, "code" varchar(30) not null, "name" varchar(255) not null, "document_type" varchar(20) not null, "built_in" boolean not null, primary key ("id"));
alter table "reporting"."report" add constraint "report_company_id_code_unique" unique ("company_id", "code");
`);
  }
}
