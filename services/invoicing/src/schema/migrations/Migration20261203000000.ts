import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #44: what the VAT return's header needs of the company beyond its address: the house number apart
 * from the street (`cislo`), the tax office (`danovyUrad`) and the person authorised to file
 * (`opravnenaOsoba`: name, phone, e-mail). Existing companies have none of them until `PUT /1.6/company`.
 */
export class Migration20261203000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "invoicing"."company_profile" add column "street_number" varchar(20) null, add column "tax_office" varchar(100) null, add column "authorized_person_name" varchar(100) null, add column "authorized_person_phone" varchar(50) null, add column "authorized_person_email" varchar(255) null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "invoicing"."company_profile" drop column "street_number", drop column "tax_office", drop column "authorized_person_name", drop column "authorized_person_phone", drop column "authorized_person_email";`,
    );
  }
}
