/**
 * Reads of purchase invoices (INTERFACE §4.2; DESIGN §2 "Single records", §6): one invoice with rows and
 * entries, the list, and the archived bytes of one booked from a received e-invoice (issue #21); and the
 * reply mapper the create shares.
 */
import {
  DEFAULT_PAGE_SIZE,
  type Page,
  type PurchaseInvoice,
  type PurchaseInvoiceListQuery,
} from '@bm/contracts';
import { notFound } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { dec, fmt, sum } from '@bm/money';
import { type Ctx, entryDtos } from '@bm/service-kit';
import { findArchived, receivedBytesOf } from '../e-invoice-archive/index.js';
import { paymentStatusOf } from '../payment-rules/index.js';
import { invoiceListFilter } from '../references/index.js';
import {
  AccountingEntryEntity,
  PaymentEntity,
  PaymentOrderItemEntity,
  PurchaseInvoiceEntity,
  PurchaseInvoiceRowEntity,
} from '../schema/entities.js';

/** A stored purchase invoice, its rows and entries as the ORM reads them. */
export type Row = InstanceType<typeof PurchaseInvoiceEntity.class>;
export type RowRow = InstanceType<typeof PurchaseInvoiceRowEntity.class>;
export type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;
type PaymentRow = InstanceType<typeof PaymentEntity.class>;

/** How a purchase invoice was paid (issue #45): its payments, the open order it is in. */
export interface PurchasePayments {
  payments: PaymentRow[];
  paymentOrderId: string | null;
  today: string;
}

/** The reply of one purchase invoice; `paid` its payments (none: nothing paid), balance as of `paid.today`. */
export function purchaseInvoiceReply(
  inv: Row,
  rows: RowRow[],
  entries: EntryRow[],
  paid: PurchasePayments = { payments: [], paymentOrderId: null, today: '9999-12-31' },
): PurchaseInvoice {
  const total = sum(paid.payments.map((p) => p.amount));
  const toDate = sum(paid.payments.filter((p) => String(p.date) <= paid.today).map((p) => p.amount));
  return {
    id: inv.id,
    partnerId: inv.partnerId,
    ordnerId: inv.ordnerId,
    dateCreated: inv.dateCreated,
    recordNumber: inv.recordNumber,
    externalRecordNumber: inv.externalRecordNumber ?? null,
    partner: inv.partner ?? null,
    dateValidTo: inv.dateValidTo ?? null,
    dateAccounting: inv.dateAccounting,
    dateDelivery: inv.dateDelivery ?? null,
    periodId: inv.periodId,
    currency1: inv.currency1,
    rows: rows
      .sort((a, b) => a.rowNo - b.rowNo)
      .map((r) => ({
        id: r.id,
        itemId: r.itemId ?? null,
        itemsAmount: r.itemsAmount,
        code: r.code ?? null,
        name: r.name,
        description: r.description ?? null,
        bonus: r.bonus ?? null,
        bonusPercent: r.bonusPercent ?? null,
        price: r.price,
        localSum: r.localSum,
        sum: r.sum,
        vatRate: r.vatRate ?? null,
        vatID: r.vatId ?? null,
        vatCode: r.vatCode ?? null,
        deductiblePercent: r.deductiblePercent ?? '100',
      })),
    PeriodYear: inv.vatPeriod.slice(0, 4),
    Period: inv.vatPeriod,
    sum: inv.sum,
    localSum: inv.localSum,
    sumVat: inv.sumVat,
    sumTotal: inv.sumTotal,
    vatSummary: inv.vatSummary as PurchaseInvoice['vatSummary'],
    taxPoint: inv.taxPoint ?? inv.dateDelivery ?? inv.dateCreated,
    dateReceived: inv.dateReceived ?? inv.dateAccounting,
    deductionPeriod: inv.deductionPeriod ?? inv.vatPeriod,
    simplified: inv.simplified ?? false,
    correctedInvoiceId: inv.correctedInvoiceId ?? null,
    correctedRecordNumber: inv.correctedRecordNumber ?? null,
    exchangeRate: inv.exchangeRate ?? null,
    inputVat: (inv.inputVat ?? []) as PurchaseInvoice['inputVat'],
    source: inv.source as PurchaseInvoice['source'],
    accountingEntries: entryDtos(entries),
    iban: inv.iban ?? null,
    symbolVariable: inv.symbolVariable ?? null,
    symbolSpecific: inv.symbolSpecific ?? null,
    symbolConstant: inv.symbolConstant ?? null,
    payments: paid.payments
      .sort((a, b) => (String(a.date) < String(b.date) ? -1 : 1))
      .map((p) => ({
        id: p.id,
        amount: p.amount,
        date: String(p.date).slice(0, 10),
        entryId: p.entryId ?? null,
        overpayment: fmt(p.overpayment ?? '0'),
      })),
    balance: fmt(dec(inv.sumTotal).minus(toDate)),
    paymentStatus: paymentStatusOf(inv.sumTotal, fmt(total)),
    paymentOrderId: paid.paymentOrderId,
  };
}

/** `GET /1.6/purchase/invoices/{id}` (extension). */
export async function getPurchaseInvoice(ctx: Ctx, id: string): Promise<PurchaseInvoice> {
  const inv = await ctx.em.findOne(PurchaseInvoiceEntity, { id });
  if (!inv) throw notFound('Purchase invoice');
  const [rows, entries, payments, order] = await Promise.all([
    ctx.em.find(PurchaseInvoiceRowEntity, { invoiceId: id }),
    ctx.em.find(AccountingEntryEntity, { documentId: id }),
    ctx.em.find(PaymentEntity, { invoiceId: id }),
    ctx.em.findOne(PaymentOrderItemEntity, { invoiceId: id, open: true }),
  ]);
  return purchaseInvoiceReply(inv, rows, entries, {
    payments,
    paymentOrderId: order?.orderId ?? null,
    today: todayIn(ctx.timeZone),
  });
}

/** `GET /1.6/purchase/invoices/{page}`: 50 a page, newest first, with the partner's name; filters (extension) `dateFrom`, `dateTo` (of `dateCreated`), `partnerId`. */
export async function listPurchaseInvoices(ctx: Ctx, q: PurchaseInvoiceListQuery): Promise<Page<any>> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
  const today = todayIn(ctx.timeZone);
  const { where, params } = invoiceListFilter(ctx.companyId!, q, 'i.', today);
  const filter = where.join(' and ');
  const [{ count }] = await ctx.em.execute<{ count: string }[]>(
    `select count(*)::text as "count" from "invoicing"."purchase_invoice" i where ${filter}`,
    params,
  );
  const ids = await ctx.em.execute<{ id: string }[]>(
    `select i."id" from "invoicing"."purchase_invoice" i where ${filter}
      order by i."date_created" desc, i."record_number" desc, i."id" limit ? offset ?`,
    [...params, pageSize, (page - 1) * pageSize],
  );
  const rows = ids.length
    ? await ctx.em.find(PurchaseInvoiceEntity, { id: { $in: ids.map((r) => r.id) } })
    : [];
  const partners = rows.length
    ? await ctx.em.execute<{ id: string; name: string }[]>(
        `select "id", "name" from "invoicing"."partner" where "id" in (${rows.map(() => '?').join(',')})`,
        rows.map((r) => r.partnerId),
      )
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const pageIds = rows.map((r) => r.id);
  const [payments, orders] = pageIds.length
    ? await Promise.all([
        ctx.em.find(PaymentEntity, { invoiceId: { $in: pageIds } }),
        ctx.em.find(PaymentOrderItemEntity, { invoiceId: { $in: pageIds }, open: true }),
      ])
    : [[], []];
  return {
    page,
    pageSize,
    totalCount: Number(count),
    items: ids.map(({ id }) => {
      const r = byId.get(id)!;
      const {
        rows: _rows,
        accountingEntries: _e,
        vatSummary: _v,
        inputVat: _i,
        payments: _p,
        ...head
      } = purchaseInvoiceReply(r, [], [], {
        payments: payments.filter((p) => p.invoiceId === id),
        paymentOrderId: orders.find((o) => o.invoiceId === id)?.orderId ?? null,
        today,
      });
      return { ...head, partnerName: partners.find((p) => p.id === r.partnerId)?.name ?? null };
    }),
  };
}

/** `GET /1.6/purchase/invoices/{id}/e-invoice`: the received bytes (404 for an invoice entered by hand). */
export async function getPurchaseEInvoice(
  ctx: Ctx,
  id: string,
): Promise<{ document: string; sha256: string; receivedAt: string }> {
  const a = await findArchived(ctx.em, 'received', id);
  const bytes = a && (await receivedBytesOf(ctx.em, a));
  if (!a || !bytes) throw notFound('Received e-invoice');
  return {
    document: bytes.toString('base64'),
    sha256: a.sha256,
    receivedAt: new Date(a.createdAt).toISOString(),
  };
}
