/**
 * Purchase invoices (INTERFACE §2.3, §4.2; DESIGN §6): create, get and list.
 * Row `sum` defaults to round(itemsAmount × (price − bonus) × (1 − bonusPercent / 100)); `localSum` is
 * the same in the company currency and is required for another `currency1`. The VAT period `Period`
 * (`YYYY-MM`) defaults to the month of `dateDelivery`, else of `dateCreated`; `PeriodYear` must agree.
 */
import {
  DEFAULT_PAGE_SIZE,
  type InvoiceEvent,
  InvoiceEventSubjects,
  type Page,
  type PurchaseInvoice,
  type PurchaseInvoiceInput,
  type PurchaseInvoiceListQuery,
} from '@bm/contracts';
import {
  AppError,
  ErrorCode,
  ErrorKind,
  type FieldError,
  notFound,
  referenceNotFound,
  validationFailed,
} from '@bm/errors';
import { dec, fmt, round2, sum } from '@bm/money';
import { addEntries, type Ctx, enqueueEvent, entryDtos, recordNumbering } from '@bm/service-kit';
import { purchaseEntries } from '../domain/invoice-accounting.js';
import { purchaseRowSum } from '../domain/invoice-calculation.js';
import {
  AccountingEntryEntity,
  EInvoiceDocumentEntity,
  OutboxEntity,
  PurchaseInvoiceEntity,
  PurchaseInvoiceRowEntity,
} from '../persistence/entities.js';
import {
  companyProfile,
  invoiceListFilter,
  lockOpenPeriod,
  resolveOrdner,
  resolvePartner,
  resolvePeriodLocal,
  resolveRowsCatalog,
} from './references.js';
import type { InvoicingDeps } from './sales-invoice.service.js';

type Row = InstanceType<typeof PurchaseInvoiceEntity.class>;
type RowRow = InstanceType<typeof PurchaseInvoiceRowEntity.class>;
type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

function dto(inv: Row, rows: RowRow[], entries: EntryRow[]): PurchaseInvoice {
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
      })),
    PeriodYear: inv.vatPeriod.slice(0, 4),
    Period: inv.vatPeriod,
    sum: inv.sum,
    localSum: inv.localSum,
    sumVat: inv.sumVat,
    sumTotal: inv.sumTotal,
    vatSummary: inv.vatSummary as PurchaseInvoice['vatSummary'],
    source: inv.source as PurchaseInvoice['source'],
    accountingEntries: entryDtos(entries),
  };
}

/**
 * Input VAT of rows entered by hand (issue #21): per rate of the rows that carry one,
 * round(Σ row sums × rate / 100), category `S` (`Z` at 0 %).
 */
export function manualVatSummary(
  rows: { sum: string; vatRate?: string | null }[],
): PurchaseInvoice['vatSummary'] {
  const byRate = new Map<string, ReturnType<typeof dec>>();
  for (const r of rows) {
    if (r.vatRate == null) continue;
    const k = fmt(r.vatRate);
    byRate.set(k, (byRate.get(k) ?? dec(0)).plus(dec(r.sum)));
  }
  return [...byRate].map(([rate, base]) => ({
    category: dec(rate).isZero() ? 'Z' : 'S',
    rate,
    base: fmt(base),
    vat: fmt(round2(base.mul(dec(rate)).div(100))),
  }));
}

/** What a purchase invoice booked from a received e-invoice adds (issue #21): its VAT as stated and the archived bytes. */
export interface ReceivedExtras {
  vatSummary: PurchaseInvoice['vatSummary'];
  sumVat: string;
  sumTotal: string;
  vatPeriod: string;
  archive: {
    bytes: Buffer;
    sha256: string;
    documentType: string;
    senderId: string | null;
    receiverId: string | null;
    partyKey: string;
    externalNumber: string;
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
  return dto(inv, rows, entries);
}

/**
 * `POST /1.6/purchase/invoices`. Errors: 400 ValidationFailed (localSum missing for a foreign currency,
 * PeriodYear not agreeing with Period); 409 DuplicateRecordNumber; 422 ReferenceNotFound, PeriodNotFound, PeriodClosed.
 */
export async function createPurchaseInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  input: PurchaseInvoiceInput,
  received?: ReceivedExtras,
): Promise<PurchaseInvoice> {
  const em = ctx.em;
  const profile = await companyProfile(em);
  const currency = input.currency1 ?? profile.currency;
  const rowsIn = input.rows ?? [];
  const errors: FieldError[] = [];
  const vatPeriod =
    received?.vatPeriod ?? input.Period ?? (input.dateDelivery ?? input.dateCreated).slice(0, 7);
  if (input.PeriodYear && input.PeriodYear !== vatPeriod.slice(0, 4)) {
    errors.push({ path: 'PeriodYear', message: `must be the year of Period ${vatPeriod}` });
  }
  const rows = rowsIn.map((r, i) => {
    const s = r.sum ?? purchaseRowSum(r.itemsAmount, r.price, r.bonus, r.bonusPercent);
    let localSum = r.localSum ?? null;
    if (currency === profile.currency) {
      if (localSum !== null && !dec(localSum).eq(dec(s)))
        errors.push({ path: `rows.${i}.localSum`, message: `must equal sum (${s}) in the company currency` });
      localSum = s;
    } else if (localSum === null) {
      errors.push({
        path: `rows.${i}.localSum`,
        message: `required: the invoice is in ${currency}, the company books in ${profile.currency}`,
      });
    }
    return { ...r, sum: s, localSum: localSum ?? '0' };
  });
  if (errors.length) throw validationFailed(errors);
  const partner = await resolvePartner(em, input.partnerId);
  if (!partner) throw referenceNotFound('partnerId', 'partner');
  const ordner = await resolveOrdner(em, input.ordnerId, undefined, 'PurchaseInvoice');
  const dateAccounting = input.dateAccounting ?? input.dateCreated;
  const period = await resolvePeriodLocal(em, input.periodId, dateAccounting);
  const catalog = await resolveRowsCatalog(
    deps.kit,
    ctx,
    rowsIn.map((r) => ({ itemId: r.itemId })),
  );
  const companyId = ctx.companyId!;
  const now = new Date();
  const id = crypto.randomUUID();
  const saved = await em.transactional(async (tx) => {
    const numbering = recordNumbering(tx, {
      schema: 'invoicing',
      companyId,
      ordner,
      date: input.dateCreated,
      given: input.recordNumber,
      exists: async (n) => (await tx.count(PurchaseInvoiceEntity, { recordNumber: n })) > 0,
    });
    await numbering.check();
    await lockOpenPeriod(tx, period.id, input.periodId ? 'periodId' : 'dateAccounting');
    const rowEntities = rows.map((r, i) => {
      return tx.create(PurchaseInvoiceRowEntity, {
        id: crypto.randomUUID(),
        companyId,
        invoiceId: id,
        rowNo: i + 1,
        itemId: catalog[i].item?.id ?? null,
        itemsAmount: r.itemsAmount,
        code: r.code ?? catalog[i].item?.code ?? null,
        name: r.name,
        description: r.description ?? null,
        bonus: r.bonus ?? null,
        bonusPercent: r.bonusPercent ?? null,
        price: r.price,
        localSum: r.localSum,
        sum: r.sum,
        vatRate: r.vatRate ?? null,
      });
    });
    const recordNumber = await numbering.assign();
    const totalLocal = sum(rows.map((r) => r.localSum));
    const net = fmt(sum(rows.map((r) => r.sum)));
    const vatSummary = received?.vatSummary ?? manualVatSummary(rows);
    const sumVat = received?.sumVat ?? fmt(sum(vatSummary.map((v) => v.vat)));
    if (received) {
      // A second delivery of the same supplier's document is refused by the archive's unique key as well.
      if (
        await tx.count(EInvoiceDocumentEntity, {
          direction: 'received',
          partyKey: received.archive.partyKey,
          externalNumber: received.archive.externalNumber,
        })
      )
        throw new AppError(
          ErrorKind.conflict,
          ErrorCode.DuplicateRecordNumber,
          `invoice ${received.archive.externalNumber} of this supplier was already received`,
          { errors: [{ path: 'ID', message: 'already received from this supplier' }] },
        );
      tx.create(EInvoiceDocumentEntity, {
        id: crypto.randomUUID(),
        companyId,
        documentId: id,
        direction: 'received',
        ...received.archive,
        createdAt: now,
      });
    }
    const inv = tx.create(PurchaseInvoiceEntity, {
      id,
      companyId,
      partnerId: partner.id,
      ordnerId: ordner.id,
      dateCreated: input.dateCreated,
      recordNumber,
      externalRecordNumber: input.externalRecordNumber ?? null,
      partner: input.partner ?? [partner.name, partner.address].filter(Boolean).join('\n'),
      dateValidTo: input.dateValidTo ?? null,
      dateAccounting,
      dateDelivery: input.dateDelivery ?? null,
      periodId: period.id,
      currency1: currency,
      vatPeriod,
      sum: net,
      localSum: fmt(totalLocal),
      sumVat,
      sumTotal: received?.sumTotal ?? fmt(dec(net).plus(dec(sumVat))),
      vatSummary,
      source: received ? 'eInvoice' : 'manual',
      createdAt: now,
    });
    const posted = rows.map((r, i) => ({ stockItem: catalog[i].item?.kind === 'stock', amount: r.localSum }));
    const entries = addEntries(
      tx,
      AccountingEntryEntity,
      companyId,
      id,
      // Input VAT is posted when it is known in the company currency.
      purchaseEntries(posted, recordNumber, currency === profile.currency ? sumVat : '0'),
    );
    const event: InvoiceEvent = {
      eventId: crypto.randomUUID(),
      companyId,
      invoiceId: id,
      recordNumber,
      sumTotal: fmt(totalLocal),
    };
    enqueueEvent(tx, OutboxEntity, companyId, InvoiceEventSubjects.purchaseInvoiceCreated, event);
    return { inv, rowEntities, entries };
  });
  deps.kickOutbox();
  return dto(saved.inv, saved.rowEntities, saved.entries);
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
      const { rows: _rows, accountingEntries: _e, vatSummary: _v, ...head } = dto(r, [], []);
      return { ...head, partnerName: partners.find((p) => p.id === r.partnerId)?.name ?? null };
    }),
  };
}

/** `GET /1.6/purchase/invoices/{id}/e-invoice`: the received bytes (404 for an invoice entered by hand). */
export async function getPurchaseEInvoice(
  ctx: Ctx,
  id: string,
): Promise<{ document: string; sha256: string; receivedAt: string }> {
  const a = await ctx.em.findOne(EInvoiceDocumentEntity, { direction: 'received', documentId: id });
  if (!a) throw notFound('Received e-invoice');
  return {
    document: Buffer.from(a.bytes).toString('base64'),
    sha256: a.sha256,
    receivedAt: new Date(a.createdAt).toISOString(),
  };
}
