import { Migration } from '@mikro-orm/migrations';

/** Outbox failures are counted per event, so one event that cannot be published does not hold up the others (issue #12). */
export class Migration20261124000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "invoicing"."outbox" add column "attempts" int not null default 0, add column "last_error" text null;
`);
  }
}
