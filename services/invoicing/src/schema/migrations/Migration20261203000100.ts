import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #44: the paragraph `IC-TRIANGULAR` (the middle party's supply in a triangular trade, §45 of Act
 * 222/2004) on every company's intra-community code (`<home>0-IC`), as `vatCodeCatalogue` seeds it for a
 * new company; the text in Slovak for a Slovak company, else in English, as the catalogue has it.
 */
export class Migration20261203000100 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `insert into "invoicing"."vat_paragraph" ("id", "company_id", "vat_code_id", "code", "text", "is_default")
       select gen_random_uuid(), v."company_id", v."id", 'IC-TRIANGULAR',
              case when v."country" = 'SK'
                then 'Trojstranný obchod podľa § 45 zákona č. 222/2004 Z. z.; daň platí posledný odberateľ (čl. 141 a 197 smernice 2006/112/ES)'
                else 'Triangulation: simplified triangular transaction, VAT due by the recipient, Articles 141 and 197 of Directive 2006/112/EC' end,
              false
         from "invoicing"."vat_code" v
        where v."kind" = 'intraCommunity' and v."code" = v."country" || '0-IC'
          and not exists (select 1 from "invoicing"."vat_paragraph" p where p."vat_code_id" = v."id" and p."code" = 'IC-TRIANGULAR');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "invoicing"."vat_paragraph" where "code" = 'IC-TRIANGULAR';`);
  }
}
