import { Migration } from '@mikro-orm/migrations';

/**
 * Repost (issue #10, DESIGN §5 "Repost"): an issue card row remembers the input line it was valued from
 * (`line_no`, 0-based), so a replay can value the line anew and split it per cost price again; rows that
 * exist already get their line from consecutive rows of the same item and lot (a FIFO split or a cost-0
 * row beyond stock). Consumptions are found by their document when a later issue is reposted. A valuation
 * layer carries its receipt row's line, so the layers of one receipt are consumed in row order.
 */
export class Migration20261123100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "warehouse"."issue_card_row" add column "line_no" int null;
with x as (
  select "id", "issue_card_id", "row_no", "item_id", "lot_number_id",
         lag("item_id") over w as "prev_item", lag("lot_number_id") over w as "prev_lot"
    from "warehouse"."issue_card_row" window w as (partition by "issue_card_id" order by "row_no")
), y as (
  select "id", sum(case when "prev_item" = "item_id" and "prev_lot" is not distinct from "lot_number_id" then 0 else 1 end)
               over (partition by "issue_card_id" order by "row_no") - 1 as "line"
    from x
)
update "warehouse"."issue_card_row" r set "line_no" = y."line" from y where y."id" = r."id";
alter table "warehouse"."issue_card_row" alter column "line_no" set not null;
create index "layer_consumption_document_id_index" on "warehouse"."layer_consumption" ("document_id");
alter table "warehouse"."valuation_layer" add column "line_no" int not null default 0;
alter table "warehouse"."valuation_layer" alter column "line_no" drop default;
drop index "warehouse"."valuation_layer_open_index";
create index "valuation_layer_open_index" on "warehouse"."valuation_layer" ("company_id", "warehouse_id", "item_id", "lot_key", "date_operation", "seq", "line_no") where "remaining_quantity" > 0;
`);
  }
}
