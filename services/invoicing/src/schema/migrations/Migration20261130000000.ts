import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #37: what the VAT filings need of the books. Input VAT codes and shares on purchase rows, the tax
 * point, receipt, deduction period, simplified flag, correction reference, exchange rate and input VAT (EUR)
 * of purchase invoices (existing ones: received on their accounting date, their VAT deductible in full at
 * their stated rates); the commodity code of sales rows; the company's filing period; the filings and the
 * user's D.1/D.2 figures; and, for every company, the self-assessed input codes of each of its deductible
 * rates (`I-SK23-RC`, `-IC`, `-SV`, `-IN`) and, for Slovak companies, the domestic reverse-charge output
 * codes of §69(12) (`SK0-RC-a` … `SK0-RC-j`), as `vatCodeCatalogue` seeds them for a new company.
 */
export class Migration20261130000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "invoicing"."vat_code" alter column "kind" type varchar(30);`);
    this.addSql(`alter table "invoicing"."vat_code" add column "reverse_charge_letter" varchar(1) null;`);
    this.addSql(
      `alter table "invoicing"."company_profile" add column "vat_period" varchar(7) not null default 'month';`,
    );
    this.addSql(`alter table "invoicing"."sales_invoice_row" add column "commodity_code" varchar(10) null;`);
    this.addSql(
      `alter table "invoicing"."purchase_invoice" add column "tax_point" date null, add column "date_received" date null, add column "deduction_period" varchar(7) null, add column "simplified" boolean not null default false, add column "corrected_invoice_id" uuid null, add column "corrected_record_number" varchar(50) null, add column "exchange_rate" numeric(14,6) null, add column "input_vat" jsonb not null default '[]';`,
    );
    this.addSql(
      `alter table "invoicing"."purchase_invoice_row" add column "vat_id" uuid null, add column "vat_code" varchar(20) null, add column "deductible_percent" numeric(5,2) not null default 100;`,
    );
    this.addSql(
      `create table "invoicing"."vat_filing" ("id" uuid not null, "company_id" uuid not null, "form" varchar(5) not null, "period" varchar(7) not null, "kind" varchar(1) not null, "seq" int not null, "filed_at" timestamptz not null, "xml" bytea not null, "sha256" varchar(64) not null, "state" jsonb not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "invoicing"."vat_filing" add constraint "vat_filing_company_id_form_period_seq_unique" unique ("company_id", "form", "period", "seq");`,
    );
    this.addSql(
      `create table "invoicing"."vat_manual_figures" ("id" uuid not null, "company_id" uuid not null, "period" varchar(7) not null, "figures" jsonb not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "invoicing"."vat_manual_figures" add constraint "vat_manual_figures_company_id_period_unique" unique ("company_id", "period");`,
    );
    // Existing purchase invoices: tax point, receipt on the accounting date, their stated VAT deductible in full.
    this.addSql(
      `update "invoicing"."purchase_invoice" set "tax_point" = coalesce("date_delivery", "date_created"), "date_received" = "date_accounting", "deduction_period" = to_char(greatest(coalesce("date_delivery", "date_created"), "date_accounting"), 'YYYY-MM');`,
    );
    // Self-assessed input codes of every deductible input rate, and the §69(12) output codes of Slovak companies.
    for (const [suffix, kind, name] of [
      ['RC', 'domesticReverseCharge', 'domestic reverse charge §69(12), self-assessed'],
      ['IC', 'intraCommunityAcquisition', 'intra-community acquisition §11, self-assessed'],
      ['SV', 'foreignServices', 'services from abroad §69(3), self-assessed'],
      ['IN', 'installation', 'goods installed by a foreign supplier §69(2), self-assessed'],
    ]) {
      this.addSql(
        `insert into "invoicing"."vat_code" ("id", "company_id", "code", "name", "type", "country", "rate", "valid_from", "valid_to", "kind")
         select gen_random_uuid(), "company_id", "code" || '-${suffix}', "country" || ' ' || trim(to_char("rate", 'FM990.99'), '.') || ' % ${name}', 'I', "country", "rate", "valid_from", "valid_to", '${kind}'
         from "invoicing"."vat_code" where "type" = 'I' and "kind" in ('standard', 'reduced') and "code" like 'I-%' and "code" !~ '-(RC|IC|SV|IN)$'
         on conflict do nothing;`,
      );
    }
    this.addSql(
      `insert into "invoicing"."vat_code" ("id", "company_id", "code", "name", "type", "country", "rate", "valid_from", "valid_to", "kind", "reverse_charge_letter")
       select gen_random_uuid(), v."company_id", 'SK0-RC-' || l, 'Domestic reverse charge §69(12)(' || l || ')', 'O', 'SK', 0, '1970-01-01', null, 'domesticReverseCharge', l
       from "invoicing"."vat_code" v cross join unnest(array['a','b','c','d','e','f','g','h','i','j']) as l
       where v."code" = 'SK0-IC' on conflict do nothing;`,
    );
  }
}
