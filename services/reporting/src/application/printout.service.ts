/**
 * Printouts (INTERFACE §4.3 "Get invoice printout"; DESIGN §7): find the report (GUID or code), ask the
 * record's owner for the record and what the printout shows (company, partner, bank account, units,
 * VAT paragraph) over NATS, render it in the worker pool, and leave the PDF in the object store bucket
 * `printouts` for the gateway (the PDF may exceed the NATS message limit).
 */
import {
  bankAccounts,
  deliveryTypes,
  getCompanyProfile,
  getIssueCard,
  getReceivedEInvoiceView,
  getSalesInvoice,
  isGuid,
  PRINTOUT_BUCKET,
  PRINTOUT_TTL_MS,
  partners,
  paymentTypes,
  resolveCatalog,
  vatCodes,
  warehouses,
} from '@bm/contracts';
import { AppError, ErrorCode, notFound } from '@bm/errors';
import { jetStreamReplicas, type RequestContext, request } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { type ObjectStore, Objm } from '@nats-io/obj';
import type { Piscina } from 'piscina';
import type { InvoicePrint, IssueCardPrint, Party } from '../domain/print-model.js';
import { ReportEntity } from '../persistence/entities.js';
import type { RenderTask } from '../rendering/render.worker.js';
import type { RenderAdmission } from './render-admission.js';
import { type RenderCancellations, renderCancelled } from './render-cancellation.js';
import { renderTask } from './render-task.js';

export interface ReportingDeps {
  kit: ServiceKit;
  /** The worker pool; null renders in the service's own thread (for comparison only). */
  pool: Piscina | null;
  /** Bounds of printouts in work (issue #12); absent: unbounded (benchmarks of the renderer alone). */
  admission?: RenderAdmission;
  /** Longest a render may take, ms; past it the render is aborted and the request answered 504. */
  renderTimeoutMs?: number;
  /** Renders cancelled by the gateway because their client has gone (issue #22). */
  cancellations?: RenderCancellations;
}

/**
 * Built-in printouts of received e-invoices (issue #35), by report code: `PurchaseInvoice` takes a
 * purchase invoice's id, `ReceivedEInvoice` an inbox record's id. A company's own report of that code wins.
 */
const RECEIVED_REPORTS = { PurchaseInvoice: 'purchaseInvoiceId', ReceivedEInvoice: 'id' } as const;

/** A record id the owner does not know is the same 404 as an unknown report. */
const orNotFound =
  <T>(what: string) =>
  (e: unknown): T => {
    if (e instanceof AppError && e.code === ErrorCode.NotFound) throw notFound(what);
    throw e;
  };
const maybe = <T>(p: Promise<T>) =>
  p.catch((e) => (e instanceof AppError && e.code === ErrorCode.NotFound ? null : Promise.reject(e)));

let store: Promise<ObjectStore> | undefined;
/** The `printouts` bucket (created on first use; objects expire after {@link PRINTOUT_TTL_MS}). */
export function printoutStore(kit: ServiceKit): Promise<ObjectStore> {
  store ??= (async () => {
    const objm = new Objm(kit.nc);
    try {
      return await objm.open(PRINTOUT_BUCKET);
    } catch {
      return objm.create(PRINTOUT_BUCKET, {
        ttl: PRINTOUT_TTL_MS * 1_000_000,
        replicas: jetStreamReplicas(),
      } as any);
    }
  })().catch((e) => {
    store = undefined;
    throw e;
  });
  return store;
}

async function supplier(kit: ServiceKit, ctx: RequestContext): Promise<Party> {
  const c = await request(kit.nc, getCompanyProfile, {}, ctx);
  return {
    name: c.name,
    address: c.address,
    companyNumber: c.companyNumber,
    vatNumber: c.vatNumber,
    country: c.country,
    taxNumber: c.taxNumber ?? null,
    registration: c.registration ?? null,
  };
}

/** Everything a sales-invoice printout shows, from invoicing and the warehouse. */
export async function invoicePrint(kit: ServiceKit, ctx: RequestContext, id: string): Promise<InvoicePrint> {
  const inv = await request(kit.nc, getSalesInvoice, { id }, ctx).catch(orNotFound<never>('Record'));
  const unitIds = [...new Set(inv.rows.map((r) => r.unitId).filter((x): x is string => !!x))];
  const [seller, partner, bank, payment, delivery, catalog, vat] = await Promise.all([
    supplier(kit, ctx),
    inv.partnerId ? maybe(request(kit.nc, partners.get, { id: inv.partnerId }, ctx)) : null,
    inv.bankAccountId ? maybe(request(kit.nc, bankAccounts.get, { id: inv.bankAccountId }, ctx)) : null,
    inv.paymentTypeId ? maybe(request(kit.nc, paymentTypes.get, { id: inv.paymentTypeId }, ctx)) : null,
    inv.deliveryTypeId ? maybe(request(kit.nc, deliveryTypes.get, { id: inv.deliveryTypeId }, ctx)) : null,
    unitIds.length
      ? request(kit.nc, resolveCatalog, { unitIds, itemIds: [], itemCodes: [], unitCodes: [] }, ctx)
      : { items: [], units: [] },
    inv.vatParagraphID ? maybe(request(kit.nc, vatCodes.get, { id: inv.vatID }, ctx)) : null,
  ]);
  const detail = inv.partnerDetail?.split('\n') ?? [];
  return {
    recordNumber: inv.recordNumber,
    dateCreated: inv.dateCreated,
    dateDelivery: inv.dateDelivery ?? inv.dateCreated,
    dateValidTo: inv.dateValidTo,
    currency: inv.currency,
    supplier: seller,
    customer: {
      name: detail[0] ?? partner?.name ?? '',
      address: detail.slice(1).join('\n') || partner?.address || null,
      companyNumber: partner?.companyNumber ?? null,
      vatNumber: inv.partnerNumber3,
      country: inv.partnerCountry,
      taxNumber: partner?.taxNumber ?? null,
    },
    deliveryAddress:
      inv.partnerAddress && inv.partnerAddress !== (detail.slice(1).join('\n') || partner?.address)
        ? inv.partnerAddress
        : null,
    symbolVariable: inv.symbolVariable,
    symbolConstant: inv.symbolConstant,
    symbolSpecific: inv.symbolSpecific,
    iban: bank?.iban ?? null,
    bic: bank?.bic ?? null,
    paymentType: payment?.name ?? null,
    deliveryType: delivery?.name ?? null,
    orderRecordNo: inv.orderRecordNo,
    warehouseRecordNo: inv.warehouseRecordNo,
    commentAboveItems: inv.commentAboveItems,
    commentBelowItems: inv.commentBelowItems,
    vatParagraph:
      vat?.paragraphs.find(
        (p) => p.id === inv.vatParagraphID && vat.kind !== 'standard' && vat.kind !== 'reduced',
      )?.text ?? null,
    rows: inv.rows.map((r) => ({
      code: r.code,
      name: r.name,
      quantity: r.quantity,
      unit: catalog.units.find((u) => u.id === r.unitId)?.code ?? null,
      price: r.price,
      vatRate: r.vatRate,
      base: r.sumBase,
      vat: r.sumVat,
      total: r.sumTotal,
    })),
    vatSummary: inv.vatSummary.map((s) => ({ rate: s.rate, base: s.base, vat: s.vat })),
    sumBase: inv.sumBase,
    sumVat: inv.sumVat,
    sumTotal: inv.sumTotal,
    balance: inv.balance,
    state: inv.state,
  };
}

/** Everything an issue-card printout shows. */
export async function issueCardPrint(
  kit: ServiceKit,
  ctx: RequestContext,
  id: string,
): Promise<IssueCardPrint> {
  const card = await request(kit.nc, getIssueCard, { id }, ctx).catch(orNotFound<never>('Record'));
  const unitIds = [...new Set(card.rows.map((r) => r.unitId).filter((x): x is string => !!x))];
  const [seller, partner, wh, catalog] = await Promise.all([
    supplier(kit, ctx),
    card.partnerId ? maybe(request(kit.nc, partners.get, { id: card.partnerId }, ctx)) : null,
    request(kit.nc, warehouses.get, { id: card.warehouseId }, ctx),
    unitIds.length
      ? request(kit.nc, resolveCatalog, { unitIds, itemIds: [], itemCodes: [], unitCodes: [] }, ctx)
      : { items: [], units: [] },
  ]);
  return {
    recordNumber: card.recordNumber ?? '',
    dateOperation: card.dateOperation,
    dateCreated: card.dateCreated,
    warehouse: `${wh.code} – ${wh.name}`,
    supplier: seller,
    customer: {
      name: partner?.name ?? '',
      address: partner?.address ?? null,
      companyNumber: partner?.companyNumber ?? null,
      vatNumber: partner?.vatNumber ?? null,
      country: partner?.country ?? null,
    },
    partnerAddress: card.partnerAddress,
    itemsComment: card.itemsComment,
    rows: card.rows.map((r) => ({
      code: r.code,
      name: r.name,
      quantity: r.quantity,
      unit: catalog.units.find((u) => u.id === r.unitId)?.code ?? null,
      costPrice: r.costPrice,
      amount: r.amount,
      sellPrice: r.sellPrice,
    })),
    totalCost: card.totalCost,
  };
}

/**
 * `reporting.printouts.render`: 404 NotFound for an unknown report (id or code) or record; 503 with
 * Retry-After when the company's or the replica's printout limit is reached; 504 when the render runs
 * out of time. The PDF is left in the object store under a fresh name (the gateway deletes it after
 * delivery; the bucket's TTL removes any left behind). With a `renderId` the render can be cancelled
 * ({@link RenderCancellations}); a cancelled render frees its admission slot at once and stores nothing.
 */
export async function renderPrintout(
  deps: ReportingDeps,
  ctx: Ctx,
  reportId: string,
  recordId: string,
  renderId?: string,
) {
  const live = deps.cancellations?.open(renderId);
  const work = () => renderAdmitted(deps, ctx, reportId, recordId, live?.signal);
  try {
    return await (deps.admission ? deps.admission.run(ctx.companyId!, work, live?.signal) : work());
  } finally {
    live?.close();
  }
}

async function renderAdmitted(
  deps: ReportingDeps,
  ctx: Ctx,
  reportId: string,
  recordId: string,
  cancel?: AbortSignal,
) {
  const report = await ctx.em.findOne(ReportEntity, isGuid(reportId) ? { id: reportId } : { code: reportId });
  const builtIn = !report && RECEIVED_REPORTS[reportId as keyof typeof RECEIVED_REPORTS];
  if (!report && !builtIn) throw notFound('Report');
  let task: RenderTask;
  let number: string;
  if (builtIn) {
    // Issue #35: a received e-invoice read from its archived bytes (by inbox record or purchase invoice).
    const data = await request(deps.kit.nc, getReceivedEInvoiceView, { [builtIn]: recordId }, ctx).catch(
      orNotFound<never>('Record'),
    );
    task = { kind: 'ReceivedInvoice', data };
    number = data.invoiceNumber;
  } else if (report!.documentType === 'SalesInvoice') {
    const data = await invoicePrint(deps.kit, ctx, recordId);
    task = { kind: 'SalesInvoice', data };
    number = data.recordNumber;
  } else if (report!.documentType === 'IssueCard') {
    const data = await issueCardPrint(deps.kit, ctx, recordId);
    task = { kind: 'IssueCard', data };
    number = data.recordNumber;
  } else {
    throw notFound(`Printout of ${report!.documentType} documents`);
  }
  const { pdf, pages } = await renderTask(deps, task, ctx.deadline, cancel);
  if (cancel?.aborted) throw renderCancelled();
  const objectName = `${ctx.companyId}/${crypto.randomUUID()}.pdf`;
  await (await printoutStore(deps.kit)).putBlob({ name: objectName }, pdf);
  return {
    objectName,
    size: pdf.byteLength,
    fileName: `${number.replace(/[^\p{L}\p{N}._-]/gu, '_')}.pdf`,
    contentType: 'application/pdf' as const,
    pages,
  };
}
