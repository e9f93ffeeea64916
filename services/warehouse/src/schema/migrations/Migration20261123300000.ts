import { Migration } from '@mikro-orm/migrations';

/** The warehouse's copy of each accounting period's state, share-locked by cards (DESIGN §5 "Period"). */
export class Migration20261123300000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "warehouse"."period_state" ("id" uuid not null, "company_id" uuid not null, "closed" boolean not null, primary key ("id"));
`);
  }
}
