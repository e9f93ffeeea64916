/**
 * What a sales invoice stores, decided from its input and resolved references (INTERFACE §2.4, §4.3;
 * DESIGN §6): the rows priced and summed, the VAT summary, the defaults (partner detail and address from
 * the partner, due date from its due days, VAT period from the tax point), the state from the totals, and
 * what depends on the record number once it is known (`symbolVariable`, the entries, the event).
 * Pure: amounts are exact decimal strings in the invoice's currency (2 decimals), dates `YYYY-MM-DD`.
 */
import type { InvoiceEvent, SalesInvoiceInput, SalesInvoiceUpdate } from '@bm/contracts';
import { dec } from '@bm/money';
import {
  addDays,
  type CreateMode,
  calculate,
  createMode,
  matchStoredRows,
  type StoredRowPrices,
  salesEntries,
  updatePrices,
  variableSymbolOf,
} from '../invoice-rules/index.js';
import type { VatCodeDef } from '../vat/index.js';
import { stateFromTotals } from './invoice-state.js';

/** The references of the invoice as the resolve step found them (sales-invoice/sales-invoice.resolve.ts). */
export interface InvoiceReferences {
  profile: { currency: string; defaultDueDays: number };
  ordner: { id: string };
  warehouseId: string | null;
  catalog: {
    item: {
      id: string;
      code: string | null;
      name: string | null;
      kind: string;
      commodityCode?: string | null;
    } | null;
    unitId: string | null;
  }[];
  partner: {
    id: string;
    name: string;
    address?: string | null;
    deliveryAddress?: string | null;
    dueDays?: number | null;
  } | null;
  bankAccountId: string | null;
  dateAccounting: string;
  period: { id: string };
  partnerCountry: string | null;
  partnerNumber3: string | null;
  vatNumber: string | null;
  invoiceCode: VatCodeDef;
  invoiceParagraph: string | null;
  rowCodes: { code: VatCodeDef; paragraph: string | null }[];
}

/** The stored invoice an update changes: its id, price basis, warehouse link and rows (DESIGN §3, §6). */
export interface InvoiceBeingUpdated {
  id: string;
  mode: string;
  warehouseRecordNo: string | null;
  rows: (StoredRowPrices & { id: string })[];
}

/** A decided sales invoice without its record number: plain data for its writer. */
export interface SalesInvoiceWriteSet {
  id: string;
  companyId: string;
  eventId: string;
  /** The invoice's stored fields but `recordNumber` and `symbolVariable`. */
  fields: Record<string, unknown>;
  /** `symbolVariable` as given; without one it is derived from the record number. */
  symbolVariable: string | null;
  rows: Record<string, unknown>[];
  /** Per row: a stock item, and its base (for the revenue accounts of the entries). */
  posted: { stockItem: boolean; amount: string }[];
  state: string;
  /** A new invoice (`created`) or an update (`updated`): the event published. */
  change: 'created' | 'updated';
  createdAt: Date;
}

/**
 * Decides invoice `id` of company `companyId` from `input` and its references `r`; `existing` is the
 * stored invoice an update changes (its row ids are kept when sent back, and each row's price basis).
 */
export function decideSalesInvoice(
  input: SalesInvoiceInput | SalesInvoiceUpdate,
  r: InvoiceReferences,
  ids: { id: string; companyId: string },
  existing?: InvoiceBeingUpdated,
  now = new Date(),
): SalesInvoiceWriteSet {
  const { profile, catalog, partner, rowCodes } = r;
  const matched = matchStoredRows(input.rows, existing?.rows ?? []);
  const { mode, rows: priced } = existing
    ? updatePrices(existing.mode as CreateMode, input.rows, matched)
    : { mode: createMode(input.rows), rows: input.rows };
  const calc = calculate(
    mode,
    priced.map((row, i) => ({
      quantity: row.quantity,
      price: row.price,
      priceBrutto: row.priceBrutto,
      vatId: rowCodes[i].code.id,
      vatCode: rowCodes[i].code.code,
      rate: rowCodes[i].code.rate,
    })),
    input.bonusPercent,
  );
  const rows = input.rows.map((row, i) => {
    const item = catalog[i].item;
    return {
      id: matched[i]?.id ?? crypto.randomUUID(),
      companyId: ids.companyId,
      invoiceId: ids.id,
      rowNo: i + 1,
      itemId: item?.id ?? null,
      unitId: catalog[i].unitId,
      code: row.code ?? item?.code ?? null,
      name: row.name ?? item?.name ?? null,
      quantity: row.quantity,
      price: calc.rows[i].price,
      priceBrutto: calc.rows[i].priceBrutto,
      vatId: rowCodes[i].code.id,
      vatCode: rowCodes[i].code.code,
      vatRate: rowCodes[i].code.rate,
      vatParagraphId: rowCodes[i].paragraph,
      commodityCode: row.commodityCode ?? item?.commodityCode ?? null,
      sumBase: calc.rows[i].sumBase,
      sumVat: calc.rows[i].sumVat,
      sumTotal: calc.rows[i].sumTotal,
      grossEntered: mode === 'creation' && priced[i].price == null,
    };
  });
  const fields = {
    ordnerId: r.ordner.id,
    warehouseId: r.warehouseId,
    tags: input.tags ?? [],
    partnerId: partner?.id ?? null,
    partnerDetail:
      input.partnerDetail ?? (partner ? [partner.name, partner.address].filter(Boolean).join('\n') : null),
    partnerAddress: input.partnerAddress ?? partner?.deliveryAddress ?? partner?.address ?? null,
    partnerCountry: r.partnerCountry,
    partnerNumber3: r.partnerNumber3,
    deliveryTypeId: input.deliveryTypeId ?? null,
    paymentTypeId: input.paymentTypeId ?? null,
    bankAccountId: r.bankAccountId,
    symbolConstant: input.symbolConstant ?? null,
    symbolSpecific: input.symbolSpecific ?? null,
    dateCreated: input.dateCreated,
    dateAccounting: r.dateAccounting,
    dateDelivery: input.dateDelivery ?? null,
    periodId: r.period.id,
    vatPeriod: (input.dateDelivery ?? input.dateCreated).slice(0, 7),
    dateValidTo: input.dateValidTo ?? addDays(input.dateCreated, partner?.dueDays ?? profile.defaultDueDays),
    commentAboveItems: input.commentAboveItems ?? null,
    commentBelowItems: input.commentBelowItems ?? null,
    vatId: r.invoiceCode.id,
    vatCode: r.invoiceCode.code,
    vatNumber: r.vatNumber,
    vatRate: r.invoiceCode.rate,
    vatParagraphId: r.invoiceParagraph,
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
  return {
    ...ids,
    eventId: crypto.randomUUID(),
    fields,
    symbolVariable: input.symbolVariable || null,
    rows,
    posted: calc.rows.map((row, i) => ({
      stockItem: catalog[i].item?.kind === 'stock',
      amount: row.sumBase,
    })),
    // An update happens only without payments (assertEditable); a zero total is paid at once.
    state: stateFromTotals(dec(calc.sumTotal), false, dec(0)),
    change: existing ? 'updated' : 'created',
    createdAt: now,
  };
}

/** What invoice `w` stores under `recordNumber`: its fields, its entries and its event (DESIGN §6). */
export function numberedInvoice(w: SalesInvoiceWriteSet, recordNumber: string) {
  const sumBase = w.fields.sumBase as string;
  const sumVat = w.fields.sumVat as string;
  const sumTotal = w.fields.sumTotal as string;
  const event: InvoiceEvent = {
    eventId: w.eventId,
    companyId: w.companyId,
    invoiceId: w.id,
    recordNumber,
    sumTotal,
    state: w.state as InvoiceEvent['state'],
  };
  return {
    fields: {
      ...w.fields,
      recordNumber,
      symbolVariable: w.symbolVariable || variableSymbolOf(recordNumber),
      state: w.state,
    },
    entryLines: salesEntries(w.posted, sumBase, sumVat, recordNumber),
    event,
  };
}
