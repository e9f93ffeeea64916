/**
 * What the filings read of the books (issue #37; DESIGN §6b "built from what invoicing stores, never from a
 * copy"): the period's sales invoices by tax point (not cancelled) with their VAT per code, the rows under a
 * domestic reverse-charge code, and the purchase invoices whose deduction falls in the period with their
 * stored input VAT (EUR). Invoices booked before issue #37 without `input_vat` count their stated domestic
 * VAT as deducted in full.
 */
import type { InputVatLine } from '@bm/contracts';
import { type DecLike, dec, sum } from '@bm/money';

/** An amount with exactly 2 decimals (EUR). */
const m2 = (v: DecLike): string => dec(v).toFixed(2);

import type { EntityManager } from '@mikro-orm/postgresql';
import type { PurchaseDoc, SalesDoc } from './classify.js';

type Sale = Omit<SalesDoc, 'reverseCharge'> & {
  reverseCharge: (SalesDoc['reverseCharge'][number] & { unitId: string | null })[];
};

/** The units of the period's rows under a domestic reverse-charge code (the statement's MJ), each once. */
export async function reverseChargeUnitIds(
  em: EntityManager,
  companyId: string,
  months: string[],
): Promise<string[]> {
  const rows = await em.execute<{ unitId: string }[]>(
    `select distinct r."unit_id" as "unitId"
       from "invoicing"."sales_invoice_row" r
       join "invoicing"."sales_invoice" s on s."id" = r."invoice_id"
       join "invoicing"."vat_code" v on v."id" = r."vat_id"
      where s."company_id" = ? and s."vat_period" in (${months.map(() => '?').join(',')})
        and s."state" <> 'cancelled' and v."kind" = 'domesticReverseCharge' and r."unit_id" is not null`,
    [companyId, ...months],
  );
  return rows.map((r) => r.unitId);
}

/** The period's sales invoices (`months` of their tax point), oldest first. */
export async function readSales(em: EntityManager, companyId: string, months: string[]): Promise<Sale[]> {
  const codes = await em.execute<{ id: string; kind: string; letter: string | null }[]>(
    `select "id", "kind", "reverse_charge_letter" as "letter" from "invoicing"."vat_code" where "company_id" = ?`,
    [companyId],
  );
  const byId = new Map(codes.map((c) => [c.id, c]));
  const inv = await em.execute<any[]>(
    `select s."id", s."record_number" as "number", to_char(coalesce(s."date_delivery", s."date_created"), 'YYYY-MM-DD') as "taxPoint",
            s."partner_number3" as "buyer", s."sum_total"::text as "total", s."vat_summary" as "summary", o."record_number" as "corrected"
       from "invoicing"."sales_invoice" s left join "invoicing"."sales_invoice" o on o."id" = s."corrected_invoice_id"
      where s."company_id" = ? and s."vat_period" in (${months.map(() => '?').join(',')}) and s."state" <> 'cancelled'
      order by 3, 2, 1`,
    [companyId, ...months],
  );
  const rcIds = codes.filter((c) => c.kind === 'domesticReverseCharge').map((c) => c.id);
  const rows =
    inv.length && rcIds.length
      ? await em.execute<any[]>(
          `select "invoice_id" as "invoiceId", "vat_id" as "vatId", "commodity_code" as "commodityCode", "quantity"::text as "quantity",
                "sum_base"::text as "base", "unit_id" as "unitId"
           from "invoicing"."sales_invoice_row" where "invoice_id" in (${inv.map(() => '?').join(',')})
            and "vat_id" in (${rcIds.map(() => '?').join(',')}) order by "row_no"`,
          [...inv.map((i) => i.id), ...rcIds],
        )
      : [];
  const parts = await intraCommunityParts(
    em,
    inv.map((i) => i.id),
  );
  return inv.map((i) => ({
    id: i.id,
    number: i.number,
    taxPoint: i.taxPoint,
    buyerVatNumber: i.buyer || null,
    creditNote: dec(i.total).isNegative(),
    correctedNumber: i.corrected ?? null,
    lines: (i.summary as { vatID: string; rate: string; base: string; vat: string }[]).flatMap((l) =>
      splitServices(
        { kind: byId.get(l.vatID)?.kind ?? 'standard', rate: l.rate, base: l.base, vat: l.vat },
        parts.get(i.id),
      ),
    ),
    reverseCharge: rows
      .filter((r) => r.invoiceId === i.id)
      .map((r) => ({
        letter: byId.get(r.vatId)?.letter ?? null,
        commodityCode: r.commodityCode,
        quantity: r.quantity,
        unit: null,
        unitId: r.unitId,
        base: r.base,
      })),
  }));
}

/**
 * The base of each invoice's rows under the intra-community paragraphs that are not a supply of goods
 * under §43: services (`IC-SERVICES`, §15(1) of Act 222/2004: the place of supply is the customer's
 * state) and, issue #44, the middle party's supply in a triangular trade (`IC-TRIANGULAR`, §45), by
 * invoice id.
 */
async function intraCommunityParts(
  em: EntityManager,
  ids: string[],
): Promise<Map<string, { services?: string; triangular?: string }>> {
  const out = new Map<string, { services?: string; triangular?: string }>();
  if (!ids.length) return out;
  const rows = await em.execute<{ id: string; code: string; base: string }[]>(
    `select r."invoice_id" as "id", p."code", sum(r."sum_base")::text as "base"
       from "invoicing"."sales_invoice_row" r join "invoicing"."vat_paragraph" p on p."id" = r."vat_paragraph_id"
      where r."invoice_id" in (${ids.map(() => '?').join(',')}) and p."code" in ('IC-SERVICES', 'IC-TRIANGULAR')
      group by r."invoice_id", p."code"`,
    ids,
  );
  for (const r of rows)
    out.set(r.id, { ...out.get(r.id), [r.code === 'IC-SERVICES' ? 'services' : 'triangular']: r.base });
  return out;
}

/**
 * An intra-community summary line with its services (kind `intraCommunityServices`) and its triangular
 * supplies (`intraCommunityTriangular`) apart: neither is in the control statement nor an exempt supply of
 * the return (their place of supply is the customer's state), only in the recapitulative statement; any
 * other line as is.
 */
function splitServices(
  l: SalesDoc['lines'][number],
  parts: { services?: string; triangular?: string } | undefined,
): SalesDoc['lines'] {
  if (l.kind !== 'intraCommunity' || !parts) return [l];
  const services = dec(parts.services ?? 0);
  const triangular = dec(parts.triangular ?? 0);
  const goods = dec(l.base).minus(services).minus(triangular);
  return [
    ...(goods.isZero() ? [] : [{ ...l, base: m2(goods) }]),
    ...(services.isZero() ? [] : [{ ...l, kind: 'intraCommunityServices', base: m2(services) }]),
    ...(triangular.isZero() ? [] : [{ ...l, kind: 'intraCommunityTriangular', base: m2(triangular) }]),
  ];
}

/** The purchase invoices whose input VAT is deducted in `months` (§51), oldest first. */
export async function readPurchases(
  em: EntityManager,
  companyId: string,
  months: string[],
): Promise<PurchaseDoc[]> {
  const inv = await em.execute<any[]>(
    `select p."id", coalesce(p."external_record_number", p."record_number") as "number",
            to_char(coalesce(p."tax_point", p."date_delivery", p."date_created"), 'YYYY-MM-DD') as "taxPoint",
            pa."vat_number" as "supplier", p."simplified", p."local_sum"::text as "localSum", p."input_vat" as "inputVat",
            p."vat_summary" as "summary", coalesce(p."corrected_record_number", o."external_record_number", o."record_number") as "corrected"
       from "invoicing"."purchase_invoice" p join "invoicing"."partner" pa on pa."id" = p."partner_id"
       left join "invoicing"."purchase_invoice" o on o."id" = p."corrected_invoice_id"
      where p."company_id" = ? and coalesce(p."deduction_period", p."vat_period") in (${months.map(() => '?').join(',')})
      order by 3, 2, 1`,
    [companyId, ...months],
  );
  return inv.map((i) => {
    const stored = i.inputVat as InputVatLine[];
    const inputVat: InputVatLine[] = stored.length ? stored : legacy(i.summary);
    return {
      id: i.id,
      number: i.number,
      taxPoint: i.taxPoint,
      supplierVatNumber: i.supplier || null,
      simplified: !!i.simplified,
      total: m2(dec(i.localSum).plus(sum(inputVat.filter((l) => !l.selfAssessed).map((l) => l.vat)))),
      creditNote: dec(i.localSum).isNegative(),
      correctedNumber: i.corrected ?? null,
      inputVat,
    };
  });
}

/** An invoice booked before issue #37: its stated domestic VAT (category S), deducted in full. */
function legacy(summary: { category: string; rate: string; base: string; vat: string }[]): InputVatLine[] {
  return summary
    .filter((s) => s.category === 'S' && !dec(s.vat).isZero())
    .map((s) => ({
      vatID: '00000000-0000-0000-0000-000000000000',
      vatCode: '',
      kind: 'standard',
      rate: s.rate,
      selfAssessed: false,
      deductiblePercent: '100.00',
      base: s.base,
      vat: s.vat,
      deducted: s.vat,
    }));
}
