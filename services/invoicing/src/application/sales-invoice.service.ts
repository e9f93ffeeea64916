/**
 * Sales invoices (INTERFACE §2.4, §4.3; DESIGN §6): create in both modes, update (all data), payments
 * and cancel. Reads (get, the list view, the copy source) are in `queries/sales-invoices.ts`.
 *
 * Create and update share one pipeline: resolve references, select the VAT codes (invoice, then rows),
 * compute rows, VAT summary and totals, fill defaults, and store invoice, rows, accounting entries and the
 * event in one transaction.
 */

import {
  type InvoiceEvent,
  InvoiceEventSubjects,
  type SalesInvoice,
  type SalesInvoiceInput,
  type SalesInvoiceUpdate,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, notFound, referenceNotFound, validationFailed } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { dec } from '@bm/money';
import {
  addEntries,
  type Ctx,
  cachedMasterData,
  type DocumentDeps,
  type EntityManager,
  enqueueEvent,
  entryDtos,
  type GroupTx,
  groupCommit,
  outboxRow,
  type Prepared,
  recordNumbering,
} from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import { reversal, salesEntries } from '../domain/invoice-accounting.js';
import {
  addDays,
  type CreateMode,
  calculate,
  createMode,
  updatePrices,
  variableSymbolOf,
} from '../domain/invoice-calculation.js';
import { paymentRefusal, stateFromTotals, stateOf } from '../domain/invoice-state.js';
import { normalizeVatNumber } from '../domain/vat-number.js';
import { selectParagraph } from '../domain/vat-paragraph.js';
import { countryOfTaxation, selectVatCode, type VatCodeDef, VatRefusal } from '../domain/vat-selection.js';
import {
  AccountingEntryEntity,
  OutboxEntity,
  PaymentEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
  VatCodeEntity,
  VatParagraphEntity,
} from '../persistence/entities.js';
import { getSalesInvoice, salesInvoiceReply } from '../queries/sales-invoices.js';
import { isEInvoiceIssued } from '../store/e-invoice.store.js';
import {
  checkCodeLists,
  companyProfile,
  lockOpenPeriod,
  resolveBankAccount,
  resolveOrdner,
  resolvePartner,
  resolvePeriodLocal,
  resolveRowsCatalog,
  resolveWarehouseRemote,
} from './references.js';

type InvoiceRow = InstanceType<typeof SalesInvoiceEntity.class>;
type RowRow = InstanceType<typeof SalesInvoiceRowEntity.class>;
type PaymentRow = InstanceType<typeof PaymentEntity.class>;
type EntryRow = InstanceType<typeof AccountingEntryEntity.class>;

export type InvoicingDeps = DocumentDeps;

/**
 * The VAT codes a selection may need: those of the countries in play, plus any named by id or code (from
 * the master-data cache: VAT codes change by a write of this service, which drops the cache).
 */
async function loadVatCodes(
  em: EntityManager,
  countries: string[],
  ids: string[],
  codes: string[],
): Promise<VatCodeDef[]> {
  const key = [countries, ids, codes].map((l) => [...l].sort().join(',')).join('|');
  return cachedMasterData(em, `invoicing:vat-codes:${key}`, () => readVatCodes(em, countries, ids, codes));
}

async function readVatCodes(
  em: EntityManager,
  countries: string[],
  ids: string[],
  codes: string[],
): Promise<VatCodeDef[]> {
  const rows = await em.find(VatCodeEntity, {
    $or: [{ country: { $in: countries }, type: 'O' }, { id: { $in: ids } }, { code: { $in: codes } }],
  });
  const paragraphs = rows.length
    ? await em.find(VatParagraphEntity, { vatCodeId: { $in: rows.map((r) => r.id) } })
    : [];
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    type: r.type as 'O' | 'I',
    country: r.country,
    rate: r.rate,
    validFrom: r.validFrom,
    validTo: r.validTo ?? null,
    kind: r.kind as VatCodeDef['kind'],
    paragraphs: paragraphs
      .filter((p) => p.vatCodeId === r.id)
      .map((p) => ({ id: p.id, code: p.code, isDefault: p.isDefault })),
  }));
}

type AnyInput = (SalesInvoiceInput | SalesInvoiceUpdate) & { ordnerCode?: string; warehouseCode?: string };

/** For each row sent, the stored row it names by `id` (each stored row at most once). */
function matchStoredRows(rows: readonly object[], stored: readonly RowRow[]) {
  const byId = new Map(stored.map((r) => [r.id, r]));
  return rows.map((r) => {
    const id = 'id' in r && typeof r.id === 'string' ? r.id : undefined;
    const hit = id ? byId.get(id) : undefined;
    if (hit) byId.delete(hit.id);
    return hit;
  });
}

/** Maps a VAT refusal to 422 with its code and field. */
const asProblem = (e: unknown) => {
  if (e instanceof VatRefusal)
    throw new AppError(ErrorKind.unprocessable, e.code, e.message, {
      errors: [e.field, ...e.also].map((path) => ({ path, message: e.message })),
    });
  throw e;
};

/**
 * Builds and stores a sales invoice (`existing` for an update). Errors: 400 ValidationFailed; 409
 * DuplicateRecordNumber; 422 ReferenceNotFound, VatCodeNotValid, VatParagraphNotValid, PeriodNotFound,
 * PeriodClosed.
 */
async function saveInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  input: AnyInput,
  existing?: InvoiceRow,
): Promise<SalesInvoice> {
  const em = ctx.em;
  const profile = await companyProfile(em);
  const ordner = await resolveOrdner(em, input.ordnerId, input.ordnerCode, 'SalesInvoice');
  const [warehouseId, catalog] = await Promise.all([
    resolveWarehouseRemote(deps.kit, ctx, input.warehouseId, input.warehouseCode),
    resolveRowsCatalog(deps.kit, ctx, input.rows as any),
  ]);
  const partner = await resolvePartner(em, input.partnerId);
  await checkCodeLists(em, {
    paymentTypeId: ['paymentTypes', input.paymentTypeId],
    deliveryTypeId: ['deliveryTypes', input.deliveryTypeId],
    costCenterId: ['costCenters', input.costCenterId],
    costUnitId: ['costUnits', input.costUnitId],
    personId: ['persons', input.personId],
    projectId: ['projects', input.projectId],
  });
  const bankAccountId = await resolveBankAccount(em, input.bankAccountId);
  // The invoice a credit note corrects (issue #21): a sales invoice of the same company, not itself.
  if (
    input.correctedInvoiceId &&
    (input.correctedInvoiceId === existing?.id ||
      !(await em.count(SalesInvoiceEntity, { id: input.correctedInvoiceId })))
  )
    throw referenceNotFound('correctedInvoiceId', 'sales invoice');
  const dateAccounting = input.dateAccounting ?? input.dateCreated;
  const period = await resolvePeriodLocal(em, input.periodId, dateAccounting);

  // VAT (DESIGN §6): parties default from the partner; the chain for the invoice, then for each row.
  const partnerCountry = input.partnerCountry ?? partner?.country ?? null;
  // A VAT number: normalised, with partnerCountry's prefix when it has none; malformed → 400 (DESIGN §6).
  const vatNo = normalizeVatNumber(input.partnerNumber3 ?? partner?.vatNumber, partnerCountry);
  if (!vatNo.ok)
    throw validationFailed([
      { path: input.partnerNumber3 ? 'partnerNumber3' : 'partnerId', message: vatNo.message },
    ]);
  const partnerNumber3 = vatNo.value;
  const vatNumber = input.vatNumber ?? profile.vatNumber ?? null;
  const parties = {
    vatNumber,
    partnerCountry,
    partnerNumber3,
    taxPoint: input.dateDelivery ?? input.dateCreated,
  };
  const taxation = countryOfTaxation(
    { country: profile.country, vatNumber: profile.vatNumber ?? null, ossRegistered: profile.ossRegistered },
    parties,
  );
  const named = [input, ...input.rows];
  const codes = await loadVatCodes(
    em,
    [...new Set([taxation.country, taxation.creditorCountry])],
    named.map((n) => n.vatID).filter((x): x is string => !!x),
    named.map((n) => n.vatCode).filter((x): x is string => !!x),
  );
  let invoiceCode: VatCodeDef;
  let invoiceParagraph: string | null;
  let rowCodes: { code: VatCodeDef; paragraph: string | null }[];
  try {
    invoiceCode = selectVatCode(codes, taxation, parties, input, '');
    invoiceParagraph = selectParagraph(invoiceCode, input.vatParagraphID, 'vatParagraphID');
    rowCodes = input.rows.map((r, i) => {
      const code = selectVatCode(codes, taxation, parties, r, `rows.${i}.`, invoiceCode);
      return {
        code,
        paragraph: selectParagraph(code, r.vatParagraphID, `rows.${i}.vatParagraphID`, invoiceParagraph),
      };
    });
  } catch (e) {
    return asProblem(e);
  }

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
      exists: async (n) =>
        (await tx.count(SalesInvoiceEntity, {
          recordNumber: n,
          ...(existing ? { id: { $ne: existing.id } } : {}),
        })) > 0,
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
    const lockPeriod = () => lockOpenPeriod(tx, period.id, input.periodId ? 'periodId' : 'dateAccounting');
    // Taken once per group commit: the share lock holds until the shared transaction ends.
    await (g ? g.once(`period:${period.id}`, lockPeriod) : lockPeriod());
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
      const inv = { id, companyId, ...data, cancelled: false, state, createdAt: now };
      const entries = entryLines.map((e, i) => ({
        id: crypto.randomUUID(),
        companyId,
        documentId: id,
        lineNo: i + 1,
        ...e,
      }));
      return {
        rows: [
          { entity: SalesInvoiceEntity, rows: [inv] },
          { entity: SalesInvoiceRowEntity, rows: rowData },
          { entity: AccountingEntryEntity, rows: entries },
          { entity: OutboxEntity, rows: [outboxRow(companyId, subject, event)] },
        ],
        value: { inv: inv as unknown as InvoiceRow, rows, entries: entries as unknown as EntryRow[] },
      };
    };
    // Numbered with the group after every invoice's work (DESIGN §5, §6); a given number (checked by
    // `numbering.check()` above) is stored at once.
    return {
      numbering: {
        schema: 'invoicing',
        table: '"invoicing"."sales_invoice"',
        companyId,
        ordner,
        year: Number(input.dateCreated.slice(0, 4)),
        given: input.recordNumber?.trim() || undefined,
      },
      finish,
    };
  };
  // New invoices of one ordner arriving together share one transaction, each under its own savepoint
  // (issue #13, group commit); an update works on the entity loaded in this request's own unit of work.
  const saved: Saved = existing
    ? await em.transactional(async (tx) => {
        const r = await store(tx);
        if (!('value' in r)) throw new Error('an update keeps or is given its number');
        return r.value;
      })
    : await groupCommit(`${companyId}:${ordner.id}`, em, (g) => store(g.tx, g));
  deps.kickOutbox();
  // The reply from what was stored: a saved invoice has no payments (an update needs state `issued`).
  return salesInvoiceReply(saved.inv, saved.rows, [], saved.entries, todayIn(ctx.timeZone));
}

/** `POST /1.6/sales/invoices`. */
export function createSalesInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  input: SalesInvoiceInput,
): Promise<SalesInvoice> {
  return saveInvoice(deps, ctx, input);
}

/**
 * 409 InvalidState unless the invoice has no payment, is not cancelled and its period is open (an
 * `issued` invoice, or a zero-total one, which is `paid` without any payment).
 */
async function assertEditable(ctx: Ctx, inv: InvoiceRow, what: string): Promise<PaymentRow[]> {
  const payments = await ctx.em.find(PaymentEntity, { invoiceId: inv.id });
  const { state } = stateOf(inv, payments, todayIn(ctx.timeZone));
  // `issued`, or `paid` only by a zero total (nothing was paid: it may still be corrected or cancelled).
  if (inv.cancelled || payments.length)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      `${what} is not allowed: the invoice is ${state}`,
    );
  try {
    await resolvePeriodLocal(ctx.em, inv.periodId, inv.dateAccounting);
    if (ctx.em.isInTransaction()) await lockOpenPeriod(ctx.em, inv.periodId);
  } catch (e) {
    if (e instanceof AppError && e.code === ErrorCode.PeriodClosed) {
      throw new AppError(
        ErrorKind.conflict,
        ErrorCode.InvalidState,
        `${what} is not allowed: the invoice's period is closed`,
      );
    }
    throw e;
  }
  return payments;
}

/**
 * 409 InvalidState once the invoice's e-invoice is issued (issue #21; DESIGN §6a): its bytes are frozen,
 * so the invoice is corrected by a credit note. Payments and cancelling stay allowed.
 */
async function assertNotIssued(em: EntityManager, id: string): Promise<void> {
  if (await isEInvoiceIssued(em, id))
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      'an update is not allowed: the e-invoice is issued (its bytes are frozen); correct it with a credit note (correctedInvoiceId)',
    );
}

/** `PUT /1.6/sales/invoices/{id}`: all data; only `issued` invoices in an open period (else 409 InvalidState). */
export async function updateSalesInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  id: string,
  data: SalesInvoiceUpdate,
): Promise<SalesInvoice> {
  const inv = await ctx.em.findOne(SalesInvoiceEntity, { id });
  if (!inv) throw notFound('Sales invoice');
  // Checked first so a paid, cancelled or closed-period invoice answers 409 before its new data is
  // validated (a closed period would otherwise be a 422 PeriodClosed); saveInvoice checks again under the
  // invoice's row lock, which closes the race with payments and cancelling.
  await assertEditable(ctx, inv, 'an update');
  await assertNotIssued(ctx.em, id);
  return saveInvoice(deps, ctx, data, inv);
}

/** `POST /1.6/sales/invoices/{id}/payments` `{amount, date}`: 409 for a cancelled or paid invoice or more than the balance. */
export async function addPayment(
  ctx: Ctx,
  id: string,
  data: { amount: string; date?: string },
): Promise<SalesInvoice> {
  await ctx.em.transactional(async (tx) => {
    const inv = await tx.findOne(SalesInvoiceEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!inv) throw notFound('Sales invoice');
    const payments = await tx.find(PaymentEntity, { invoiceId: id });
    const refusal = paymentRefusal(inv, payments, data.amount, todayIn(ctx.timeZone));
    if (refusal?.reason === 'state')
      throw new AppError(
        ErrorKind.conflict,
        ErrorCode.InvalidState,
        `a payment is not allowed: the invoice is ${refusal.state}`,
      );
    if (refusal?.reason === 'sign')
      throw new AppError(
        ErrorKind.conflict,
        ErrorCode.Conflict,
        `the payment ${data.amount} has the wrong sign: the open balance is ${refusal.open}${dec(refusal.open).isNegative() ? ' (a credit note is settled by a refund, a negative amount)' : ''}`,
        { errors: [{ path: 'amount', message: `must have the sign of the open balance ${refusal.open}` }] },
      );
    if (refusal?.reason === 'exceeds')
      throw new AppError(
        ErrorKind.conflict,
        ErrorCode.Conflict,
        `the payment ${data.amount} exceeds the unpaid amount ${refusal.open}`,
        { errors: [{ path: 'amount', message: `at most ${refusal.open}` }] },
      );
    const payment = tx.create(PaymentEntity, {
      id: crypto.randomUUID(),
      companyId: ctx.companyId!,
      invoiceId: id,
      amount: data.amount,
      date: data.date ?? todayIn(ctx.timeZone),
      createdAt: new Date(),
    });
    inv.state = stateOf(inv, [...payments, payment], todayIn(ctx.timeZone)).state;
  });
  return getSalesInvoice(ctx, id);
}

/** `POST /1.6/sales/invoices/{id}/cancel`: only an unpaid invoice; its entries are reversed. */
export async function cancelSalesInvoice(ctx: Ctx, id: string): Promise<SalesInvoice> {
  await ctx.em.transactional(async (tx) => {
    const inv = await tx.findOne(SalesInvoiceEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!inv) throw notFound('Sales invoice');
    await assertEditable({ ...ctx, em: tx }, inv, 'cancelling');
    inv.cancelled = true;
    inv.state = 'cancelled';
    inv.updatedAt = new Date();
    const entries = await tx.find(AccountingEntryEntity, { documentId: id }, { orderBy: { lineNo: 'asc' } });
    addEntries(
      tx,
      AccountingEntryEntity,
      ctx.companyId!,
      id,
      reversal(entryDtos(entries), `Cancellation of ${inv.recordNumber}`),
      entries.length + 1,
    );
  });
  return getSalesInvoice(ctx, id);
}

/** Sets `warehouseRecordNo` of an invoice an issue card was copied from (stock-issued consumer). */
export async function linkIssueCard(
  em: EntityManager,
  invoiceId: string,
  recordNumber: string,
): Promise<boolean> {
  const n = await em.nativeUpdate(SalesInvoiceEntity, { id: invoiceId }, { warehouseRecordNo: recordNumber });
  return n > 0;
}
