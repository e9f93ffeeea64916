import { Migration } from '@mikro-orm/migrations';

/**
 * Sales invoices store their state (issue #11): one rule (domain/invoice-state.ts) sets it whenever the
 * total, the payments or the cancellation change; the list and its filter read it. Existing invoices get it
 * from their payments once, here: payments of the total's sign at least its size settle it, a zero total
 * is paid.
 */
export class Migration20261123400000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "invoicing"."sales_invoice" add column "state" varchar(20) null;
update "invoicing"."sales_invoice" i set "state" = case
    when i."cancelled" then 'cancelled'
    when i."sum_total" = 0 then 'paid'
    when coalesce(p."paid", 0) = 0 then 'issued'
    when abs(p."paid") >= abs(i."sum_total") then 'paid'
    else 'partiallyPaid' end
  from (select s."id", (select sum(x."amount") from "invoicing"."payment" x where x."invoice_id" = s."id") as "paid"
          from "invoicing"."sales_invoice" s) p
 where p."id" = i."id";
alter table "invoicing"."sales_invoice" alter column "state" set not null;
`);
  }
}
