/**
 * The resolve step of the sales-invoice pass (DESIGN §6): every reference of the invoice (company profile,
 * ordner, warehouse and row catalogue over NATS, partner, code lists, bank account, corrected invoice,
 * period) and its VAT: the country of taxation, the invoice's code and paragraph, then each row's.
 * Runs before any transaction. Errors: 400 ValidationFailed (a malformed VAT number); 422
 * ReferenceNotFound, VatCodeNotValid, VatParagraphNotValid, PeriodNotFound, PeriodClosed.
 */

import type { SalesInvoiceInput, SalesInvoiceUpdate } from '@bm/contracts';
import { AppError, ErrorKind, referenceNotFound, validationFailed } from '@bm/errors';
import type { Ctx } from '@bm/service-kit';
import type { InvoicingDeps } from '../references/index.js';
import {
  checkCodeLists,
  companyProfile,
  resolveBankAccount,
  resolveOrdner,
  resolvePartner,
  resolvePeriodLocal,
  resolveRowsCatalog,
  resolveWarehouseRemote,
} from '../references/index.js';
import {
  countryOfTaxation,
  loadVatCodes,
  normalizeVatNumber,
  selectParagraph,
  selectVatCode,
  type VatCodeDef,
  VatRefusal,
} from '../vat/index.js';
import { type SalesInvoiceRow, salesInvoiceExists } from './sales-invoice.reads.js';

/** The input of a create or an update, as the handlers pass it. */
export type AnyInput = (SalesInvoiceInput | SalesInvoiceUpdate) & {
  ordnerCode?: string;
  warehouseCode?: string;
};

/** What the create and update commands decide an invoice from (sales-invoice/sales-invoice.decision.ts `InvoiceReferences`). */
export type ResolvedSalesInvoice = Awaited<ReturnType<typeof resolveSalesInvoice>>;

/** Maps a VAT refusal to 422 with its code and field. */
const asProblem = (e: unknown): never => {
  if (e instanceof VatRefusal)
    throw new AppError(ErrorKind.unprocessable, e.code, e.message, {
      errors: [e.field, ...e.also].map((path) => ({ path, message: e.message })),
    });
  throw e;
};

/** Resolves `input` (`existing`: the invoice an update changes). */
export async function resolveSalesInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  input: AnyInput,
  existing?: SalesInvoiceRow,
) {
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
    (input.correctedInvoiceId === existing?.id || !(await salesInvoiceExists(em, input.correctedInvoiceId)))
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
  return {
    profile,
    ordner,
    warehouseId,
    catalog,
    partner,
    bankAccountId,
    dateAccounting,
    period,
    partnerCountry,
    partnerNumber3,
    vatNumber,
    invoiceCode,
    invoiceParagraph,
    rowCodes,
  };
}
