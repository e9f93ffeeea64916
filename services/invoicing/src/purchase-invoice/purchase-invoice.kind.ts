/**
 * Purchase invoices (INTERFACE §2.3, §4.2; DESIGN §6): create, by hand or from a received e-invoice
 * (issue #21); reads are in `purchase-invoice/purchase-invoice.queries.ts`.
 * Row `sum` defaults to round(itemsAmount × (price − bonus) × (1 − bonusPercent / 100)); `localSum` is
 * the same in the company currency and is required for another `currency1`. The VAT period `Period`
 * (`YYYY-MM`) defaults to the month of `dateDelivery`, else of `dateCreated`; `PeriodYear` must agree.
 */

import type { PurchaseInvoice, PurchaseInvoiceInput } from '@bm/contracts';
import { type FieldError, referenceNotFound, validationFailed } from '@bm/errors';
import { dec, fmt, sum } from '@bm/money';
import {
  type Ctx,
  checkGivenRecordNumber,
  type DocumentKind,
  numberingOf,
  runDocument,
} from '@bm/service-kit';
import {
  type ArchivedDocument,
  archiveReceived,
  markBookedInTx,
  type NewReceived,
  recordUploadInTx,
  uploadRecordId,
} from '../e-invoice-archive/index.js';
import { purchaseRowSum, purchaseVatSummary } from '../invoice-rules/index.js';
import type { InvoicingDeps } from '../references/index.js';
import {
  companyProfile,
  type InvoicePeriodInfo,
  invoicePeriodsRead,
  lockInvoicePeriod,
  resolveOrdner,
  resolvePartner,
  resolvePeriodLocal,
  resolveRowsCatalog,
} from '../references/index.js';
import { checkCorrected } from '../vat/index.js';
import { decidePurchaseVat, statedRate } from './purchase-input-vat.js';
import {
  type PurchaseInvoiceWriteSet,
  purchaseInvoiceWriter,
  storedPurchaseInvoiceReply,
} from './purchase-invoice.writer.js';

/** What a purchase invoice booked from a received e-invoice adds (issue #21): its VAT as stated and the archived bytes. */
export interface ReceivedExtras {
  vatSummary: PurchaseInvoice['vatSummary'];
  sumVat: string;
  sumTotal: string;
  vatPeriod: string;
  archive: ArchivedDocument;
  /**
   * The inbox record this booking settles (issue #35): `{recordId}` of a stored received document, which
   * becomes `booked` in the same transaction; or `{upload}` for a document a person uploaded, whose record
   * is made `booked` with it.
   */
  inbox: { recordId: string } | { upload: NewReceived };
}

const TABLE = '"invoicing"."purchase_invoice"';

/** A purchase invoice decided before its transaction, and where it goes. */
export interface DecidedPurchaseInvoice {
  companyId: string;
  writeSet: PurchaseInvoiceWriteSet;
  ordner: { id: string; numberFormat: string };
  periodId: string;
  /** The field a closed period is reported on. */
  periodPath: string;
  dateCreated: string;
  given: string | undefined;
  received: ReceivedExtras | undefined;
}

/**
 * The purchase invoice as a document kind (issue #38): declared with its period (share-locked for the
 * whole group); in the transaction a given number checked free and the period checked open; a received
 * one archives its bytes and settles its inbox record under its savepoint; its rows written by
 * purchase-invoice.writer.ts once the group has numbered it.
 */
export const purchaseInvoiceKind: DocumentKind<
  DecidedPurchaseInvoice,
  void,
  PurchaseInvoiceWriteSet,
  PurchaseInvoice
> = {
  key: 'invoicing:purchase-invoice',
  declare: (d) => ({
    numbering: numberingOf({
      table: TABLE,
      companyId: d.companyId,
      ordner: d.ordner,
      date: d.dateCreated,
      given: d.given,
    }),
    info: {
      kind: 'invoice-period',
      companyId: d.companyId,
      periodId: d.periodId,
    } satisfies InvoicePeriodInfo,
    reads: [invoicePeriodsRead],
  }),
  read: async (d, doc) => {
    await checkGivenRecordNumber(doc.tx, TABLE, d.companyId, d.given);
    await lockInvoicePeriod(doc.tx, doc, d.periodId, d.periodPath);
  },
  decide: async (d, _state, doc) => {
    const { received, companyId, writeSet } = d;
    if (received) {
      // Issue #43: the inbox record keeps the bytes; the archive refers to it. The archive first: a
      // supplier's number received before is 409 DuplicateRecordNumber before anything else.
      const inbox = received.inbox;
      const receivedId = 'recordId' in inbox ? inbox.recordId : await uploadRecordId(doc.tx, inbox.upload);
      await archiveReceived(doc.tx, companyId, writeSet.id, received.archive, receivedId, writeSet.createdAt);
      if ('recordId' in inbox)
        await markBookedInTx(doc.tx, companyId, receivedId, writeSet.id, writeSet.createdAt);
      else
        await recordUploadInTx(doc.tx, companyId, inbox.upload, receivedId, writeSet.id, writeSet.createdAt);
    }
    return writeSet;
  },
  writer: purchaseInvoiceWriter,
  reply: storedPurchaseInvoiceReply,
};

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
  const sums = rowsIn.map((r) => r.sum ?? purchaseRowSum(r.itemsAmount, r.price, r.bonus, r.bonusPercent));
  const localSums = rowsIn.map((r, i) => {
    const localSum = r.localSum ?? null;
    if (currency !== profile.currency) return localSum;
    if (localSum !== null && !dec(localSum).eq(dec(sums[i])))
      errors.push({
        path: `rows.${i}.localSum`,
        message: `must equal sum (${sums[i]}) in the company currency`,
      });
    return sums[i];
  });
  if (currency !== profile.currency && !input.exchangeRate && localSums.some((l) => l === null))
    errors.push(
      ...localSums.flatMap((l, i) =>
        l === null
          ? [
              {
                path: `rows.${i}.localSum`,
                message: `required: the invoice is in ${currency}, the company books in ${profile.currency}`,
              },
            ]
          : [],
      ),
    );
  if (errors.length) throw validationFailed(errors);
  const vat = await decidePurchaseVat(
    em,
    profile.country,
    { ...input, currency1: currency },
    sums,
    localSums,
    received?.vatSummary,
  );
  await checkCorrected(em, input.correctedInvoiceId);
  const rows = rowsIn.map((r, i) => ({
    ...r,
    sum: sums[i],
    localSum: vat.rows[i].localSum,
    vatRate: statedRate(r.vatRate, vat.rows[i].code),
  }));
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
  const totalLocal = sum(rows.map((r) => r.localSum));
  const net = fmt(sum(rows.map((r) => r.sum)));
  const vatSummary = received?.vatSummary ?? purchaseVatSummary(rows);
  const sumVat = received?.sumVat ?? fmt(sum(vatSummary.map((v) => v.vat)));
  const writeSet: PurchaseInvoiceWriteSet = {
    id,
    companyId,
    eventId: crypto.randomUUID(),
    fields: {
      partnerId: partner.id,
      ordnerId: ordner.id,
      dateCreated: input.dateCreated,
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
      taxPoint: vat.taxPoint,
      dateReceived: vat.dateReceived,
      deductionPeriod: vat.deductionPeriod,
      simplified: input.simplified ?? false,
      correctedInvoiceId: input.correctedInvoiceId ?? null,
      correctedRecordNumber: input.correctedRecordNumber ?? null,
      exchangeRate: currency === profile.currency ? null : (input.exchangeRate ?? null),
      inputVat: vat.inputVat,
      // Issue #45: where to pay it (default: the supplier's first IBAN) and the payment's symbols.
      iban: input.iban ?? partner.iban?.[0] ?? null,
      symbolVariable: input.symbolVariable ?? null,
      symbolSpecific: input.symbolSpecific ?? null,
      symbolConstant: input.symbolConstant ?? null,
    },
    rows: rows.map((r, i) => ({
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
      vatId: vat.rows[i].code?.id ?? null,
      vatCode: vat.rows[i].code?.code ?? null,
      deductiblePercent: vat.rows[i].deductiblePercent,
    })),
    posted: rows.map((r, i) => ({ stockItem: catalog[i].item?.kind === 'stock', amount: r.localSum })),
    // Input VAT is posted when it is known in the company currency.
    inputVat: currency === profile.currency ? sumVat : '0',
    localTotal: fmt(totalLocal),
    createdAt: now,
  };
  const reply = await runDocument(purchaseInvoiceKind, em, {
    companyId,
    writeSet,
    ordner,
    periodId: period.id,
    periodPath: input.periodId ? 'periodId' : 'dateAccounting',
    dateCreated: input.dateCreated,
    given: input.recordNumber?.trim() || undefined,
    received,
  });
  deps.kickOutbox();
  return reply;
}
