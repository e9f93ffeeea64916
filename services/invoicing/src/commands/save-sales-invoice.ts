/**
 * One pass that creates or updates a sales invoice (INTERFACE §2.4, §4.3; DESIGN §6): resolve references
 * (NATS before any transaction), select the VAT codes (invoice, then rows), compute rows, VAT summary and
 * totals, fill defaults, then store invoice, rows, entries and event: a new invoice in its ordner's group
 * commit, an update in its own transaction under the invoice's row lock.
 */
import {
  type InvoiceEvent,
  InvoiceEventSubjects,
  type SalesInvoice,
  type SalesInvoiceInput,
  type SalesInvoiceUpdate,
} from '@bm/contracts';
import { notFound } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { dec } from '@bm/money';
import {
  addEntries,
  awaitingNumber,
  type Ctx,
  type DocumentDeps,
  type EntityManager,
  enqueueEvent,
  type GroupTx,
  groupCommit,
  type Prepared,
  recordNumbering,
} from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import { type InvoicePeriodInfo, lockInvoicePeriod } from '../application/references.js';
import { salesEntries } from '../domain/invoice-accounting.js';
import {
  addDays,
  type CreateMode,
  calculate,
  createMode,
  updatePrices,
  variableSymbolOf,
} from '../domain/invoice-calculation.js';
import { matchStoredRows } from '../domain/invoice-rows.js';
import { stateFromTotals } from '../domain/invoice-state.js';
import {
  AccountingEntryEntity,
  OutboxEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
} from '../persistence/entities.js';
import { salesInvoiceReply } from '../queries/sales-invoices.js';
import { newInvoiceWriteSet } from '../store/sales-invoice.writer.js';
import { resolveSalesInvoice } from './resolve-sales-invoice.js';
import { assertEditable, assertNotIssued } from './sales-invoice-guards.js';

/** What the invoicing commands need: the service kit and the outbox's wake-up. */
export type InvoicingDeps = DocumentDeps;

type InvoiceRow = InstanceType<typeof SalesInvoiceEntity.class>;
type RowRow = InstanceType<typeof SalesInvoiceRowEntity.class>;
type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

/** The input of a create or an update, as the handlers pass it. */
export type AnyInput = (SalesInvoiceInput | SalesInvoiceUpdate) & {
  ordnerCode?: string;
  warehouseCode?: string;
};

/**
 * Builds and stores a sales invoice (`existing` for an update). Errors: 400 ValidationFailed; 409
 * DuplicateRecordNumber; 422 ReferenceNotFound, VatCodeNotValid, VatParagraphNotValid, PeriodNotFound,
 * PeriodClosed.
 */
export async function saveInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  input: AnyInput,
  existing?: InvoiceRow,
): Promise<SalesInvoice> {
  const em = ctx.em;
  const resolved = await resolveSalesInvoice(deps, ctx, input, existing);
  const { profile, ordner, warehouseId, catalog, partner, bankAccountId, dateAccounting, period } = resolved;
  const { partnerCountry, partnerNumber3, vatNumber, invoiceCode, invoiceParagraph, rowCodes } = resolved;

  // An update keeps the row ids it is sent back (GET → PUT) and each row's price basis (DESIGN §3).
  const storedRows = existing
    ? await em.find(SalesInvoiceRowEntity, { invoiceId: existing.id }, { disableIdentityMap: true })
    : [];
  const matched = matchStoredRows(input.rows, storedRows);
  const { mode, rows: priced } = existing
    ? updatePrices(existing.mode as CreateMode, input.rows, matched)
    : { mode: createMode(input.rows), rows: input.rows };
  const calc = calculate(
    mode,
    priced.map((r, i) => ({
      quantity: r.quantity,
      price: r.price,
      priceBrutto: r.priceBrutto,
      vatId: rowCodes[i].code.id,
      vatCode: rowCodes[i].code.code,
      rate: rowCodes[i].code.rate,
    })),
    input.bonusPercent,
  );

  const companyId = ctx.companyId!;
  const now = new Date();
  type Saved = { inv: InvoiceRow; rows: RowRow[]; entries: EntryRow[] };
  const store = async (tx: EntityManager, g?: GroupTx): Promise<Prepared<Saved>> => {
    const numbering = recordNumbering(tx, {
      schema: 'invoicing',
      companyId,
      ordner,
      date: input.dateCreated,
      given: input.recordNumber,
      stored: existing?.recordNumber,
      table: '"invoicing"."sales_invoice"',
      id: existing?.id,
    });
    await numbering.check();
    const id = existing?.id ?? crypto.randomUUID();
    if (existing) {
      // Checked again under the row lock that payments and cancelling take: no update slips past them.
      // Locks are taken invoice first, then period (as cancelling does), so they cannot deadlock.
      const locked = await tx.findOne(
        SalesInvoiceEntity,
        { id },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!locked) throw notFound('Sales invoice');
      await assertEditable({ ...ctx, em: tx }, locked, 'an update');
      await assertNotIssued(tx, id);
    }
    // Share-locked until the transaction ends (in a group, every invoice's period with one statement).
    await lockInvoicePeriod(tx, g, period.id, input.periodId ? 'periodId' : 'dateAccounting');
    if (existing) {
      await tx.nativeDelete(SalesInvoiceRowEntity, { invoiceId: id });
      await tx.nativeDelete(AccountingEntryEntity, { documentId: id });
    }
    const rowData = input.rows.map((r, i) => {
      const item = catalog[i].item;
      return {
        id: matched[i]?.id ?? crypto.randomUUID(),
        companyId,
        invoiceId: id,
        rowNo: i + 1,
        itemId: item?.id ?? null,
        unitId: catalog[i].unitId,
        code: r.code ?? item?.code ?? null,
        name: r.name ?? item?.name ?? null,
        quantity: r.quantity,
        price: calc.rows[i].price,
        priceBrutto: calc.rows[i].priceBrutto,
        vatId: rowCodes[i].code.id,
        vatCode: rowCodes[i].code.code,
        vatRate: rowCodes[i].code.rate,
        vatParagraphId: rowCodes[i].paragraph,
        sumBase: calc.rows[i].sumBase,
        sumVat: calc.rows[i].sumVat,
        sumTotal: calc.rows[i].sumTotal,
        grossEntered: mode === 'creation' && priced[i].price == null,
      };
    });
    // An update goes through the ORM; a new invoice is inserted with one statement below (issue #13).
    const rows: RowRow[] = existing
      ? rowData.map((d) => tx.create(SalesInvoiceRowEntity, d))
      : (rowData as unknown as RowRow[]);
    /** What the invoice stores under `recordNumber`. */
    const build = (recordNumber: string) => {
      const data = {
        ordnerId: ordner.id,
        warehouseId,
        recordNumber,
        tags: input.tags ?? [],
        partnerId: partner?.id ?? null,
        partnerDetail:
          input.partnerDetail ??
          (partner ? [partner.name, partner.address].filter(Boolean).join('\n') : null),
        partnerAddress: input.partnerAddress ?? partner?.deliveryAddress ?? partner?.address ?? null,
        partnerCountry,
        partnerNumber3,
        deliveryTypeId: input.deliveryTypeId ?? null,
        paymentTypeId: input.paymentTypeId ?? null,
        bankAccountId,
        symbolVariable: input.symbolVariable || variableSymbolOf(recordNumber),
        symbolConstant: input.symbolConstant ?? null,
        symbolSpecific: input.symbolSpecific ?? null,
        dateCreated: input.dateCreated,
        dateAccounting,
        dateDelivery: input.dateDelivery ?? null,
        periodId: period.id,
        vatPeriod: (input.dateDelivery ?? input.dateCreated).slice(0, 7),
        dateValidTo:
          input.dateValidTo ?? addDays(input.dateCreated, partner?.dueDays ?? profile.defaultDueDays),
        commentAboveItems: input.commentAboveItems ?? null,
        commentBelowItems: input.commentBelowItems ?? null,
        vatId: invoiceCode.id,
        vatCode: invoiceCode.code,
        vatNumber,
        vatRate: invoiceCode.rate,
        vatParagraphId: invoiceParagraph,
        bonusPercent: input.bonusPercent ?? null,
        orderRecordNo: input.orderRecordNo ?? null,
        // Written by the stock-issued consumer: a PUT with it absent or empty keeps the stored link (DESIGN §6).
        warehouseRecordNo: input.warehouseRecordNo || existing?.warehouseRecordNo || null,
        costCenterId: input.costCenterId ?? null,
        costUnitId: input.costUnitId ?? null,
        personId: input.personId ?? null,
        projectId: input.projectId ?? null,
        correctedInvoiceId: input.correctedInvoiceId ?? null,
        mode,
        currency: profile.currency,
        sumBase: calc.sumBase,
        sumVat: calc.sumVat,
        sumTotal: calc.sumTotal,
        vatSummary: calc.vatSummary,
        updatedAt: now,
      };
      const posted = calc.rows.map((r, i) => ({
        stockItem: catalog[i].item?.kind === 'stock',
        amount: r.sumBase,
      }));
      const entryLines = salesEntries(posted, calc.sumBase, calc.sumVat, recordNumber);
      // An update happens only without payments (assertEditable); a zero total is paid at once.
      const state = stateFromTotals(dec(calc.sumTotal), false, dec(0));
      const event: InvoiceEvent = {
        eventId: crypto.randomUUID(),
        companyId,
        invoiceId: id,
        recordNumber,
        sumTotal: calc.sumTotal,
        state,
      };
      const subject = existing
        ? InvoiceEventSubjects.salesInvoiceUpdated
        : InvoiceEventSubjects.salesInvoiceCreated;
      return { data, entryLines, state, event, subject };
    };
    if (existing) {
      const { data, entryLines, state, event, subject } = build(await numbering.assign());
      const inv = tx.assign(existing, data);
      inv.state = state;
      const entries = addEntries(tx, AccountingEntryEntity, companyId, id, entryLines);
      enqueueEvent(tx, OutboxEntity, companyId, subject, event);
      return { value: { inv, rows, entries } };
    }
    /** A new invoice's rows (one statement for the group) and its answer. */
    const finish = (recordNumber: string) => {
      const { data, entryLines, state, event, subject } = build(recordNumber);
      const w = newInvoiceWriteSet({
        id,
        companyId,
        data,
        state,
        createdAt: now,
        rowData,
        entryLines,
        subject,
        event,
      });
      return {
        rows: w.rows,
        value: { inv: w.invoice as InvoiceRow, rows, entries: w.entries as EntryRow[] },
      };
    };
    // Numbered with the group after every invoice's work (DESIGN §5, §6); a given number (checked by
    // `numbering.check()` above) is stored at once.
    return awaitingNumber(
      {
        table: '"invoicing"."sales_invoice"',
        companyId,
        ordner,
        date: input.dateCreated,
        given: input.recordNumber,
      },
      finish,
    );
  };
  // New invoices (of any companies and ordners) arriving together share one transaction (issue #13, group commit); a new
  // invoice's work only reads and locks, so it needs no savepoint of its own (its rows are written with
  // the group's). An update works on the entity loaded in this request's own unit of work.
  const saved: Saved = existing
    ? await em.transactional(async (tx) => {
        const r = await store(tx);
        if (!('value' in r)) throw new Error('an update keeps or is given its number');
        return r.value;
      })
    : await groupCommit('invoicing:sales-invoice', em, (g) => store(g.tx, g), {
        lazySavepoint: true,
        info: { kind: 'invoice-period', companyId, periodId: period.id } satisfies InvoicePeriodInfo,
      });
  deps.kickOutbox();
  // The reply from what was stored: a saved invoice has no payments (an update needs state `issued`).
  return salesInvoiceReply(saved.inv, saved.rows, [], saved.entries, todayIn(ctx.timeZone));
}
