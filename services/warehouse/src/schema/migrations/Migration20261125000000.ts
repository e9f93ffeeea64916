import { Migration } from '@mikro-orm/migrations';

/**
 * Units carry their UN/ECE Recommendation 20/21 code for e-invoices (issue #21); the seeded units of
 * existing companies get theirs.
 */
export class Migration20261125000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "warehouse"."unit" add column "unece_code" varchar(3) null;
update "warehouse"."unit" set "unece_code" = case "code"
  when 'ks' then 'H87' when 'kg' then 'KGM' when 'l' then 'LTR' when 'm' then 'MTR' when 'h' then 'HUR' end
 where "unece_code" is null;
`);
  }
}
