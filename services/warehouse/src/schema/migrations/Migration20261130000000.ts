import { Migration } from '@mikro-orm/migrations';

/** Items carry their customs-tariff code (issue #37: TK of a domestic reverse-charge supply, §69(12)). */
export class Migration20261130000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "warehouse"."item" add column "commodity_code" varchar(10) null;`);
  }
}
