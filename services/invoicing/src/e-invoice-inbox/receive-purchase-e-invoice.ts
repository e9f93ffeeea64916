/**
 * `POST /1.6/purchase/e-invoices` and `invoicing.purchase-e-invoices.receive` (issue #21; DESIGN §6a
 * "Received e-invoices"): a received UBL Invoice or CreditNote becomes a purchase invoice in record mode,
 * its bytes archived as received.
 *
 * Linear: parse (pure, hostile XML refused) → is it for this company → pre-flight (EN 16931 and Peppol
 * rules) → supplier by VAT number, then IČO, else a new partner from the document → map (pure) → store the
 * purchase invoice and the archive in one transaction. Refusals store nothing and spend no number:
 * 400 BadRequest (XML), 422 EInvoiceNotForThisCompany, 422 EInvoiceNotValid, 409 DuplicateRecordNumber.
 */
import type { PurchaseInvoice } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import { type Ctx, invalidateMasterData } from '@bm/service-kit';
import { sha256Hex } from '../e-invoice-archive/index.js';
import {
  type EParty,
  formatEndpoint,
  inboxSummary,
  isForCompany,
  isPeppolBis,
  notValid,
  preflight,
  purchaseFromEInvoice,
  type ReceivedEInvoice,
  readUbl,
  supplierKey,
  supplierPartnerData,
  UblReadError,
} from '../e-invoice-format/index.js';
import { createPurchaseInvoice, selfAssessReceived } from '../purchase-invoice/index.js';
import type { InvoicingDeps } from '../references/index.js';
import { companyProfile, composeAddress } from '../references/index.js';
import { createPartnerOnce, findPartnerId } from './partner.store.js';

/** Field names of a received document's findings: its BT ids (the sender fixes them, not this user). */
const INBOUND_FIELDS = {
  sellerEndpoint: 'BT-34',
  buyerEndpoint: 'BT-49',
  sellerName: 'BT-27',
  buyerName: 'BT-44',
  sellerCountry: 'BT-40',
  buyerCountry: 'BT-55',
  sellerVat: 'BT-31',
  buyerVat: 'BT-48',
  sellerLegalId: 'BT-30',
  sellerStreet: 'BT-35',
  sellerCity: 'BT-37',
  sellerPostal: 'BT-38',
  buyerStreet: 'BT-50',
  buyerCity: 'BT-52',
  buyerPostal: 'BT-53',
  dueDate: 'BT-9',
  lines: 'BG-25',
};

/**
 * The supplier's partner: by VAT number (partners keep theirs normalised, DESIGN §6), then by IČO; else
 * created from the document ({@link supplierPartnerData}; a concurrent receive of the same new supplier
 * finds it by its code).
 */
async function supplierPartner(ctx: Ctx, seller: EParty): Promise<string> {
  const data = supplierPartnerData(seller);
  const found = await findPartnerId(ctx.em, { vatNumber: data.vatNumber, companyNumber: data.companyNumber });
  if (found) return found;
  const id = await createPartnerOnce(ctx.em, ctx.companyId!, data);
  invalidateMasterData(ctx.companyId!);
  return id;
}

/**
 * Books the received document `base64` (its bytes as received). See the module comment. `from` says
 * which inbox record the booking settles (issue #35): a stored record (`recordId`, booked on the day it
 * was received, `receivedOn`), else the upload of a person, which gets its record with the booking.
 */
export async function receivePurchaseEInvoice(
  deps: InvoicingDeps,
  ctx: Ctx,
  base64: string,
  from: { recordId: string; receivedOn: string } | null = null,
): Promise<PurchaseInvoice> {
  const bytes = Buffer.from(base64, 'base64');
  let doc: ReceivedEInvoice;
  try {
    doc = readUbl(bytes);
  } catch (e) {
    if (e instanceof UblReadError)
      throw new AppError(ErrorKind.invalid, ErrorCode.BadRequest, `not a UBL 2.1 e-invoice: ${e.message}`, {
        errors: [{ path: '(body)', message: e.message }],
      });
    throw e;
  }
  const profile = await companyProfile(ctx.em);
  const company = {
    vatNumber: profile.vatNumber ?? null,
    companyNumber: profile.companyNumber ?? null,
    taxNumber: profile.taxNumber ?? null,
    country: profile.country,
    peppolId: profile.peppolId ?? null,
    currency: profile.currency,
  };
  if (!isForCompany(doc.buyer, company))
    throw new AppError(
      ErrorKind.unprocessable,
      ErrorCode.EInvoiceNotForThisCompany,
      `the document's buyer (${doc.buyer.name || 'unnamed'}, VAT ${doc.buyer.vatId ?? '-'}, IČO ${doc.buyer.legalId ?? '-'}, endpoint ${formatEndpoint(doc.buyer.endpoint) ?? '-'}) is not this company`,
      { errors: [{ path: 'AccountingCustomerParty', message: 'not this company' }] },
    );
  const peppol = isPeppolBis(doc.customizationId);
  const findings = preflight(doc, { sk: false, fields: INBOUND_FIELDS }).filter(
    // The buyer's own endpoint may be absent on a document uploaded by hand; the Peppol rules apply to
    // Peppol BIS documents only (a plain EN 16931 one is checked as its official validator checks it).
    (f) => f.rule !== 'PEPPOL-EN16931-R010' && (peppol || !f.rule.startsWith('PEPPOL-')),
  );
  if (findings.length) throw notValid(findings);
  const data = purchaseFromEInvoice(
    doc,
    company,
    from?.receivedOn ?? todayIn(ctx.timeZone ?? profile.timeZone),
  );
  const sha256 = sha256Hex(bytes);
  const rows = await selfAssessReceived(
    ctx.em,
    profile.country,
    doc.seller.country,
    data.dateDelivery ?? data.dateCreated,
    data.rows,
    data.categories,
  );
  const partnerId = await supplierPartner(ctx, doc.seller);
  return createPurchaseInvoice(
    deps,
    ctx,
    {
      partnerId,
      dateCreated: data.dateCreated,
      externalRecordNumber: data.externalRecordNumber,
      partner: [doc.seller.name, composeAddress(doc.seller.street, doc.seller.postalCode, doc.seller.city)]
        .filter(Boolean)
        .join('\n'),
      dateValidTo: data.dateValidTo,
      dateAccounting: data.dateAccounting,
      dateDelivery: data.dateDelivery,
      currency1: data.currency1,
      rows,
      iban: data.iban,
      symbolVariable: data.symbolVariable,
      symbolSpecific: data.symbolSpecific,
      symbolConstant: data.symbolConstant,
    },
    {
      vatSummary: data.vatSummary,
      sumVat: data.sumVat,
      sumTotal: data.sumTotal,
      vatPeriod: data.vatPeriod,
      inbox: from
        ? { recordId: from.recordId }
        : {
            upload: {
              ...inboxSummary(doc),
              channel: 'upload',
              providerDocumentId: null,
              bytes,
              sha256,
              senderId: formatEndpoint(doc.seller.endpoint),
              receiverId: formatEndpoint(doc.buyer.endpoint),
            },
          },
      archive: {
        bytes,
        sha256,
        documentType: doc.documentType,
        senderId: formatEndpoint(doc.seller.endpoint),
        receiverId: formatEndpoint(doc.buyer.endpoint),
        partyKey: supplierKey(doc.seller),
        externalNumber: data.externalRecordNumber,
      },
    },
  );
}
