/**
 * Reads of sales invoices (INTERFACE §4.3; DESIGN §2 "Single records", §6): one invoice with its rows,
 * payments, entries and e-invoice status, the list view, and the copy source of issue cards; and the reply
 * mapper the writes share.
 */
import {
  DEFAULT_PAGE_SIZE,
  type Page,
  type SalesInvoice,
  type SalesInvoiceCopySource,
  type SalesInvoiceListQuery,
  type z,
} from '@bm/contracts';
import { notFound } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { fmt, sum } from '@bm/money';
import { type Ctx, entryDtos } from '@bm/service-kit';
import { type ArchiveRow, deliveryDto, findArchived } from '../e-invoice-archive/index.js';
import { paymentStatusOf, paymentStatusSql } from '../payment-rules/index.js';
import { invoiceListFilter } from '../references/index.js';
import {
  AccountingEntryEntity,
  PaymentEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
} from '../schema/entities.js';
import { stateOf } from './invoice-state.js';

type InvoiceRow = InstanceType<typeof SalesInvoiceEntity.class>;
type RowRow = InstanceType<typeof SalesInvoiceRowEntity.class>;
type PaymentRow = InstanceType<typeof PaymentEntity.class>;
type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

/**
 * The reply of one sales invoice: stored fields, state and balance as of `today`, and the e-invoice
 * delivery (issue #23: from the issued document when `issued` is given, else `draft`).
 */
export function salesInvoiceReply(
  inv: InvoiceRow,
  rows: RowRow[],
  payments: PaymentRow[],
  entries: EntryRow[],
  today: string,
  issued: ArchiveRow | null = null,
): SalesInvoice {
  const { state, balance } = stateOf(inv, payments, today);
  const paymentStatus = inv.cancelled
    ? 'unpaid'
    : paymentStatusOf(inv.sumTotal, fmt(sum(payments.map((p) => p.amount))));
  return {
    id: inv.id,
    ordnerId: inv.ordnerId,
    warehouseId: inv.warehouseId,
    dateCreated: inv.dateCreated,
    rows: rows
      .sort((a, b) => a.rowNo - b.rowNo)
      .map((r) => ({
        id: r.id,
        quantity: r.quantity,
        price: r.price,
        priceBrutto: r.priceBrutto,
        itemId: r.itemId ?? null,
        unitId: r.unitId ?? null,
        code: r.code ?? null,
        name: r.name ?? null,
        vatID: r.vatId,
        vatCode: r.vatCode,
        vatRate: r.vatRate,
        vatParagraphID: r.vatParagraphId ?? null,
        commodityCode: r.commodityCode ?? null,
        sumBase: r.sumBase,
        sumVat: r.sumVat,
        sumTotal: r.sumTotal,
      })),
    recordNumber: inv.recordNumber,
    tags: inv.tags ?? [],
    partnerId: inv.partnerId ?? null,
    partnerDetail: inv.partnerDetail ?? null,
    partnerAddress: inv.partnerAddress ?? null,
    partnerCountry: inv.partnerCountry ?? null,
    partnerNumber3: inv.partnerNumber3 ?? null,
    deliveryTypeId: inv.deliveryTypeId ?? null,
    paymentTypeId: inv.paymentTypeId ?? null,
    bankAccountId: inv.bankAccountId ?? null,
    symbolVariable: inv.symbolVariable ?? null,
    symbolConstant: inv.symbolConstant ?? null,
    symbolSpecific: inv.symbolSpecific ?? null,
    dateAccounting: inv.dateAccounting,
    dateDelivery: inv.dateDelivery ?? null,
    periodId: inv.periodId,
    dateValidTo: inv.dateValidTo ?? null,
    commentAboveItems: inv.commentAboveItems ?? null,
    commentBelowItems: inv.commentBelowItems ?? null,
    vatID: inv.vatId,
    vatCode: inv.vatCode,
    vatNumber: inv.vatNumber ?? null,
    vatRate: inv.vatRate,
    vatParagraphID: inv.vatParagraphId ?? null,
    bonusPercent: inv.bonusPercent ?? null,
    orderRecordNo: inv.orderRecordNo ?? null,
    warehouseRecordNo: inv.warehouseRecordNo ?? null,
    costCenterId: inv.costCenterId ?? null,
    costUnitId: inv.costUnitId ?? null,
    personId: inv.personId ?? null,
    projectId: inv.projectId ?? null,
    correctedInvoiceId: inv.correctedInvoiceId ?? null,
    mode: inv.mode as 'record' | 'creation',
    currency: inv.currency,
    vatPeriod: inv.vatPeriod,
    sumBase: inv.sumBase,
    sumVat: inv.sumVat,
    sumTotal: inv.sumTotal,
    vatSummary: inv.vatSummary as SalesInvoice['vatSummary'],
    state,
    balance,
    paymentStatus,
    payments: payments
      .sort((a, b) => (a.date < b.date ? -1 : 1))
      .map((p) => ({
        id: p.id,
        amount: p.amount,
        date: p.date,
        entryId: p.entryId ?? null,
        overpayment: fmt(p.overpayment ?? '0'),
      })),
    accountingEntries: entryDtos(entries),
    eInvoice: deliveryDto(issued ?? null),
  };
}

/** `GET /1.6/sales/invoices/{id}`: 404 for an unknown or another company's id. */
export async function getSalesInvoice(ctx: Ctx, id: string): Promise<SalesInvoice> {
  const inv = await ctx.em.findOne(SalesInvoiceEntity, { id });
  if (!inv) throw notFound('Sales invoice');
  const [rows, payments, entries, issued] = await Promise.all([
    ctx.em.find(SalesInvoiceRowEntity, { invoiceId: id }),
    ctx.em.find(PaymentEntity, { invoiceId: id }),
    ctx.em.find(AccountingEntryEntity, { documentId: id }),
    findArchived(ctx.em, 'issued', id),
  ]);
  return salesInvoiceReply(inv, rows, payments, entries, todayIn(ctx.timeZone), issued);
}

/**
 * The list view (INTERFACE §4.3; DESIGN §6): header fields with the invoice's own partner snapshot
 * (`partnerDetail`, `partnerNumber3`), joined with the ordner (code) and the bank account (IBAN), VAT
 * totals and summary, balance as of today and the stored state; newest first (`dateCreated` desc, `recordNumber` desc, `id`). The page's
 * ids come from an index-only walk of `sales_invoice_list_index`; the 50 rows are then joined in one
 * query, with their payments summed in the same query (no per-row queries).
 */
export async function listSalesInvoices(
  ctx: Ctx,
  q: z.infer<typeof SalesInvoiceListQuery>,
): Promise<Page<any>> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
  const today = todayIn(ctx.timeZone);
  const { where, params } = invoiceListFilter(ctx.companyId!, q, 'i.', today);
  const paidJoin = `left join lateral (select sum(x."amount") as "paid", sum(x."amount") filter (where x."date" <= ?) as "paid_to_date"
      from "invoicing"."payment" x where x."invoice_id" = i."id" and x."company_id" = i."company_id") p on true`;
  const fromSql = `from "invoicing"."sales_invoice" i`;
  if (q.state) {
    // The stored state (sales-invoice/invoice-state.ts keeps it current): one rule for the list and the detail.
    where.push(`i."state" = ?`);
    params.push(q.state);
  }
  const eInvoiceStatusSql = `coalesce((select d."delivery_status" from "invoicing"."e_invoice_document" d
      where d."company_id" = i."company_id" and d."direction" = 'issued' and d."document_id" = i."id"), 'draft')`;
  if (q.eInvoiceStatus) {
    where.push(`${eInvoiceStatusSql} = ?`);
    params.push(q.eInvoiceStatus);
  }
  const whereSql = where.join(' and ');
  const [{ count }] = await ctx.em.execute<{ count: string }[]>(
    `select count(*)::text as "count" ${fromSql} where ${whereSql}`,
    params,
  );
  const rows = await ctx.em.execute<Record<string, any>[]>(
    `with page as (
       select i."id" ${fromSql} where ${whereSql}
        order by i."date_created" desc, i."record_number" desc, i."id" limit ? offset ?)
     select i."id", i."record_number", i."ordner_id", o."code" as "ordner_code", i."warehouse_id", i."partner_id",
            i."partner_detail", i."partner_country", i."partner_number3",
            to_char(i."date_created", 'YYYY-MM-DD') as "date_created", to_char(i."date_accounting", 'YYYY-MM-DD') as "date_accounting",
            to_char(i."date_delivery", 'YYYY-MM-DD') as "date_delivery", to_char(i."date_valid_to", 'YYYY-MM-DD') as "date_valid_to",
            i."symbol_variable", i."warehouse_record_no", i."currency", i."bank_account_id", ba."iban", i."vat_code",
            i."sum_base"::text, i."sum_vat"::text, i."sum_total"::text, i."vat_summary",
            case when i."cancelled" then '0' else (i."sum_total" - coalesce(p."paid_to_date", 0))::text end as "balance",
            i."state", ${eInvoiceStatusSql} as "e_invoice_status",
            case when i."cancelled" then 'unpaid' else ${paymentStatusSql('i."sum_total"', 'coalesce(p."paid", 0)')} end as "payment_status"
       from page join "invoicing"."sales_invoice" i on i."id" = page."id"
       join "invoicing"."ordner" o on o."id" = i."ordner_id"
       left join "invoicing"."bank_account" ba on ba."id" = i."bank_account_id"
       ${paidJoin}
      order by i."date_created" desc, i."record_number" desc, i."id"`,
    [...params, pageSize, (page - 1) * pageSize, today],
  );
  return {
    page,
    pageSize,
    totalCount: Number(count),
    items: rows.map((r) => ({
      id: r.id,
      recordNumber: r.record_number,
      ordnerId: r.ordner_id,
      ordnerCode: r.ordner_code,
      warehouseId: r.warehouse_id,
      partnerId: r.partner_id,
      partnerDetail: r.partner_detail,
      partnerName: r.partner_detail?.split('\n')[0] || null,
      partnerCountry: r.partner_country,
      partnerNumber3: r.partner_number3,
      dateCreated: r.date_created,
      dateAccounting: r.date_accounting,
      dateDelivery: r.date_delivery,
      dateValidTo: r.date_valid_to,
      symbolVariable: r.symbol_variable,
      warehouseRecordNo: r.warehouse_record_no,
      currency: r.currency,
      bankAccountId: r.bank_account_id,
      iban: r.iban,
      vatCode: r.vat_code,
      sumBase: r.sum_base,
      sumVat: r.sum_vat,
      sumTotal: r.sum_total,
      vatSummary: r.vat_summary,
      balance: r.balance,
      state: r.state,
      paymentStatus: r.payment_status,
      eInvoiceStatus: r.e_invoice_status,
    })),
  };
}

/** A sales invoice as the source of an issue-card copy (DESIGN §5 "Copy"). */
export async function copySource(ctx: Ctx, id: string): Promise<SalesInvoiceCopySource> {
  const inv = await ctx.em.findOne(SalesInvoiceEntity, { id });
  if (!inv) throw notFound('Sales invoice');
  const rows = await ctx.em.find(SalesInvoiceRowEntity, { invoiceId: id }, { orderBy: { rowNo: 'asc' } });
  return {
    id: inv.id,
    recordNumber: inv.recordNumber,
    ordnerId: inv.ordnerId,
    warehouseId: inv.warehouseId,
    partnerId: inv.partnerId ?? null,
    partnerAddress: inv.partnerAddress ?? null,
    cancelled: inv.cancelled,
    rows: rows.map((r) => ({
      itemId: r.itemId ?? null,
      code: r.code ?? null,
      name: r.name ?? null,
      unitId: r.unitId ?? null,
      quantity: r.quantity,
      price: r.price,
    })),
  };
}
