/**
 * Purchase invoices (INTERFACE §2.3, §4.2; DESIGN §6): create, by hand or from a received e-invoice
 * (issue #21); reads are in `queries/purchase-invoices.ts`.
 * Row `sum` defaults to round(itemsAmount × (price − bonus) × (1 − bonusPercent / 100)); `localSum` is
 * the same in the company currency and is required for another `currency1`. The VAT period `Period`
 * (`YYYY-MM`) defaults to the month of `dateDelivery`, else of `dateCreated`; `PeriodYear` must agree.
 */

import {
  type InvoiceEvent,
  InvoiceEventSubjects,
  type PurchaseInvoice,
  type PurchaseInvoiceInput,
} from '@bm/contracts';
import { type FieldError, referenceNotFound, validationFailed } from '@bm/errors';
import { dec, fmt, sum } from '@bm/money';
import {
  awaitingNumber,
  type Ctx,
  checkGivenRecordNumber,
  entryRows,
  type GroupTx,
  groupCommit,
  outboxRow,
  type Prepared,
} from '@bm/service-kit';
import {
  companyProfile,
  lockOpenPeriod,
  resolveOrdner,
  resolvePartner,
  resolvePeriodLocal,
} from '../application/references.js';
import { purchaseEntries } from '../domain/invoice-accounting.js';
import { purchaseRowSum, purchaseVatSummary } from '../domain/invoice-calculation.js';
import {
  AccountingEntryEntity,
  OutboxEntity,
  PurchaseInvoiceEntity,
  PurchaseInvoiceRowEntity,
} from '../persistence/entities.js';
import { resolveRowsCatalog } from '../ports/warehouse.port.js';
import { type EntryRow, purchaseInvoiceReply, type Row, type RowRow } from '../queries/purchase-invoices.js';
import { type ArchivedDocument, archiveReceived } from '../store/e-invoice.store.js';
import type { InvoicingDeps } from './save-sales-invoice.js';

/** What a purchase invoice booked from a received e-invoice adds (issue #21): its VAT as stated and the archived bytes. */
export interface ReceivedExtras {
  vatSummary: PurchaseInvoice['vatSummary'];
  sumVat: string;
  sumTotal: string;
  vatPeriod: string;
  archive: ArchivedDocument;
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
  const table = '"invoicing"."purchase_invoice"';
  const given = input.recordNumber?.trim() || undefined;
  type Saved = { inv: unknown; rows: unknown[]; entries: unknown[] };
  /** The invoice's work in its ordner's group commit, under its own savepoint (DESIGN §5, issue #24). */
  const prepare = async (g: GroupTx): Promise<Prepared<Saved>> => {
    const tx = g.tx;
    await checkGivenRecordNumber(tx, table, companyId, given);
    // Taken once per group commit: the share lock holds until the shared transaction ends.
    await g.once(`period:${period.id}`, () =>
      lockOpenPeriod(tx, period.id, input.periodId ? 'periodId' : 'dateAccounting'),
    );
    if (received) await archiveReceived(tx, companyId, id, received.archive, now);
    const rowData = rows.map((r, i) => ({
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
    }));
    const totalLocal = sum(rows.map((r) => r.localSum));
    const net = fmt(sum(rows.map((r) => r.sum)));
    const vatSummary = received?.vatSummary ?? purchaseVatSummary(rows);
    const sumVat = received?.sumVat ?? fmt(sum(vatSummary.map((v) => v.vat)));
    /** The invoice, its rows, entries and event under its record number (one statement for the group). */
    const finish = (recordNumber: string) => {
      const inv = {
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
      };
      const posted = rows.map((r, i) => ({
        stockItem: catalog[i].item?.kind === 'stock',
        amount: r.localSum,
      }));
      // Input VAT is posted when it is known in the company currency.
      const entryLines = purchaseEntries(posted, recordNumber, currency === profile.currency ? sumVat : '0');
      const entries = entryRows(companyId, id, entryLines);
      const event: InvoiceEvent = {
        eventId: crypto.randomUUID(),
        companyId,
        invoiceId: id,
        recordNumber,
        sumTotal: fmt(totalLocal),
      };
      return {
        rows: [
          { entity: PurchaseInvoiceEntity, rows: [inv] },
          { entity: PurchaseInvoiceRowEntity, rows: rowData },
          { entity: AccountingEntryEntity, rows: entries },
          {
            entity: OutboxEntity,
            rows: [outboxRow(companyId, InvoiceEventSubjects.purchaseInvoiceCreated, event)],
          },
        ],
        value: { inv, rows: rowData, entries },
      };
    };
    // Numbered with the group after every invoice's work (DESIGN §5); a given number is stored at once.
    return awaitingNumber({ table, companyId, ordner, date: input.dateCreated, given }, finish);
  };
  // Purchase invoices (of any companies and ordners) arriving together share one transaction, like sales invoices (issue #24).
  const saved = await groupCommit('invoicing:purchase-invoice', em, prepare);
  deps.kickOutbox();
  return purchaseInvoiceReply(saved.inv as Row, saved.rows as RowRow[], saved.entries as EntryRow[]);
}
