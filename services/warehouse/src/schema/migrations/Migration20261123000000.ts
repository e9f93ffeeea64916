import { Migration } from '@mikro-orm/migrations';

/** List indexes of issue cards and receipt cards (newest first by dateOperation, stable). */
export class Migration20261123000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create index "issue_card_list_index" on "warehouse"."issue_card" ("company_id", "date_operation" desc, "record_number" desc, "id");
create index "receipt_card_list_index" on "warehouse"."receipt_card" ("company_id", "date_operation" desc, "record_number" desc, "id");
`);
  }
}
