import { Migration } from '@mikro-orm/migrations';

/** Idempotency keys of creating requests (issue #12). */
export class Migration20261123000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "identity"."idempotency_key" ("company_id" uuid not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "state" varchar(10) not null, "locked_until" timestamptz not null, "status" int null, "content_type" varchar(100) null, "body" text null, "created_at" timestamptz not null, primary key ("company_id", "key"));
create index "idempotency_key_created_at_index" on "identity"."idempotency_key" ("created_at");
`);
  }
}
