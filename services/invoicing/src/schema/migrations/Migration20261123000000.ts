import { Migration } from '@mikro-orm/migrations';

/** Sales-invoice rows remember whether the gross price was the entered one (kept across updates). */
export class Migration20261123000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "invoicing"."sales_invoice_row" add "gross_entered" boolean not null default false;`,
    );
  }
}
