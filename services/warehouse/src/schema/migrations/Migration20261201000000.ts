import { Migration } from '@mikro-orm/migrations';

/**
 * Storno of stock cards (issue #38): a reversal card points at the card it reverses (`reversal_of`, one
 * reversal per card at most) and the reversed card at its reversal (`reversal_id`).
 */
export class Migration20261201000000 extends Migration {
  override async up(): Promise<void> {
    for (const table of ['issue_card', 'receipt_card']) {
      this.addSql(
        `alter table "warehouse"."${table}" add column "reversal_of" uuid null, add column "reversal_id" uuid null;`,
      );
      this.addSql(
        `alter table "warehouse"."${table}" add constraint "${table}_reversal_of_unique" unique ("reversal_of");`,
      );
    }
  }
}
