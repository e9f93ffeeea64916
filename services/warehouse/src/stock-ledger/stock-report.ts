/**
 * Stock report (DESIGN §4): quantity and value per item and lot as of the end of a date, summed from the
 * stock ledger, so it equals what the accounting entries say.
 */
import type { StockReport } from '@bm/contracts';
import { notFound } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import { WarehouseEntity } from '../schema/entities.js';
import { lotOf } from './balances.js';

/** `GET /1.6/warehouses/{id}/stock?date=&itemId=`; 404 for an unknown warehouse. */
export async function stockReport(
  ctx: Ctx,
  warehouseId: string,
  date: string | undefined,
  itemId: string | undefined,
): Promise<StockReport> {
  if (!(await ctx.em.count(WarehouseEntity, { id: warehouseId }))) throw notFound('Warehouse');
  const asOf = date ?? todayIn(ctx.timeZone);
  const rows = await ctx.em.execute<
    { item_id: string; code: string; lot_key: string; quantity: string; value: string }[]
  >(
    `select m."item_id", i."code", m."lot_key", sum(m."quantity")::text as "quantity", sum(m."value")::text as "value"
       from "warehouse"."stock_movement" m
       join "warehouse"."item" i on i."id" = m."item_id"
      where m."company_id" = ? and m."warehouse_id" = ? and m."date_operation" <= ? ${itemId ? 'and m."item_id" = ?' : ''}
      group by m."item_id", i."code", m."lot_key"
     having sum(m."quantity") <> 0 or sum(m."value") <> 0
      order by i."code", m."lot_key"`,
    [ctx.companyId, warehouseId, asOf, ...(itemId ? [itemId] : [])],
  );
  return {
    date: asOf,
    warehouseId,
    items: rows.map((r) => ({
      itemId: r.item_id,
      code: r.code,
      lotNumberID: lotOf(r.lot_key),
      quantity: r.quantity,
      value: r.value,
    })),
  };
}
