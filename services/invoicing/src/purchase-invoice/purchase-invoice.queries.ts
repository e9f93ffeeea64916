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
import { type Ctx, entryDtos } from '@bm/service-kit';
import { findArchived, receivedBytesOf } from '../e-invoice-archive/index.js';
import { invoiceListFilter } from '../references/index.js';
import {
  AccountingEntryEntity,
  PurchaseInvoiceEntity,
  PurchaseInvoiceRowEntity,
} from '../schema/entities.js';

/** A stored purchase invoice, its rows and entries as the ORM reads them. */
export type Row = InstanceType<typeof PurchaseInvoiceEntity.class>;
export type RowRow = InstanceType<typeof PurchaseInvoiceRowEntity.class>;
export type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

/** The reply of one purchase invoice. */
export function purchaseInvoiceReply(inv: Row, rows: RowRow[], entries: EntryRow[]): PurchaseInvoice {
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
  };
}

/** `GET /1.6/purchase/invoices/{id}` (extension). */
export async function getPurchaseInvoice(ctx: Ctx, id: string): Promise<PurchaseInvoice> {
  const inv = await ctx.em.findOne(PurchaseInvoiceEntity, { id });
  if (!inv) throw notFound('Purchase invoice');
  const [rows, entries] = await Promise.all([
    ctx.em.find(PurchaseInvoiceRowEntity, { invoiceId: id }),
    ctx.em.find(AccountingEntryEntity, { documentId: id }),
  ]);
  return purchaseInvoiceReply(inv, rows, entries);
}

/** `GET /1.6/purchase/invoices/{page}`: 50 a page, newest first, with the partner's name; filters (extension) `dateFrom`, `dateTo` (of `dateCreated`), `partnerId`. */
export async function listPurchaseInvoices(ctx: Ctx, q: PurchaseInvoiceListQuery): Promise<Page<any>> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
  const { where, params } = invoiceListFilter(ctx.companyId!, q);
  const filter = where.join(' and ');
  const [{ count }] = await ctx.em.execute<{ count: string }[]>(
    `select count(*)::text as "count" from "invoicing"."purchase_invoice" where ${filter}`,
    params,
  );
  const ids = await ctx.em.execute<{ id: string }[]>(
    `select "id" from "invoicing"."purchase_invoice" where ${filter}
      order by "date_created" desc, "record_number" desc, "id" limit ? offset ?`,
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
        ...head
      } = purchaseInvoiceReply(r, [], []);
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
