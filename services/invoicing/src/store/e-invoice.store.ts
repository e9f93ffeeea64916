/**
 * Reads and writes of the e-invoice archive (issue #21; table `e_invoice_document`) and the reads that
 * build a sales invoice's e-invoice. No messaging here: what other services own (unit codes) is passed in.
 */
import type { EntityManager } from '@bm/service-kit';
import type { EInvoiceSource, VatCodeInfo } from '../domain/e-invoice/from-sales-invoice.js';
import {
  BankAccountEntity,
  CompanyProfileEntity,
  EInvoiceDocumentEntity,
  PartnerEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
  VatCodeEntity,
  VatParagraphEntity,
} from '../persistence/entities.js';

export type ArchiveRow = InstanceType<typeof EInvoiceDocumentEntity.class>;
export type SalesInvoiceRow = InstanceType<typeof SalesInvoiceEntity.class>;

/** The archived document of `documentId` in `direction`, or null. */
export function findArchived(
  em: EntityManager,
  direction: 'issued' | 'received',
  documentId: string,
): Promise<ArchiveRow | null> {
  return em.findOne(EInvoiceDocumentEntity, { direction, documentId }, { disableIdentityMap: true });
}

/** The issued archive rows of several invoices (list and get replies). */
export async function issuedOf(em: EntityManager, ids: string[]): Promise<Map<string, ArchiveRow>> {
  if (!ids.length) return new Map();
  const rows = await em.find(
    EInvoiceDocumentEntity,
    { direction: 'issued', documentId: { $in: ids } },
    { fields: ['id', 'documentId', 'sha256', 'createdAt', 'documentType'] as any, disableIdentityMap: true },
  );
  return new Map(rows.map((r) => [r.documentId, r]));
}

/** Everything {@link EInvoiceSource} needs but the unit codes (asked from the warehouse before). */
export async function loadSalesSource(
  em: EntityManager,
  invoiceId: string,
): Promise<{
  inv: SalesInvoiceRow;
  source: Omit<EInvoiceSource, 'invoice'> & { invoice: Omit<EInvoiceSource['invoice'], 'rows'> };
  rows: { unitId: string | null; row: EInvoiceSource['invoice']['rows'][number] }[];
} | null> {
  const inv = await em.findOne(SalesInvoiceEntity, { id: invoiceId }, { disableIdentityMap: true });
  if (!inv) return null;
  const [rows, profile, partner, bank, corrected] = await Promise.all([
    em.find(SalesInvoiceRowEntity, { invoiceId }, { orderBy: { rowNo: 'asc' }, disableIdentityMap: true }),
    em.findOne(CompanyProfileEntity, {}, { disableIdentityMap: true }),
    inv.partnerId ? em.findOne(PartnerEntity, { id: inv.partnerId }, { disableIdentityMap: true }) : null,
    inv.bankAccountId
      ? em.findOne(BankAccountEntity, { id: inv.bankAccountId }, { disableIdentityMap: true })
      : null,
    inv.correctedInvoiceId
      ? em.findOne(SalesInvoiceEntity, { id: inv.correctedInvoiceId }, { disableIdentityMap: true })
      : null,
  ]);
  if (!profile) return null;
  const codeIds = [...new Set(rows.map((r) => r.vatId))];
  const [codes, paragraphs] = await Promise.all([
    em.find(VatCodeEntity, { id: { $in: codeIds } }, { disableIdentityMap: true }),
    em.find(VatParagraphEntity, { vatCodeId: { $in: codeIds } }, { disableIdentityMap: true }),
  ]);
  const vatCodes: Record<string, VatCodeInfo> = {};
  for (const c of codes)
    vatCodes[c.id] = {
      kind: c.kind as VatCodeInfo['kind'],
      paragraphs: Object.fromEntries(
        paragraphs.filter((p) => p.vatCodeId === c.id).map((p) => [p.id, { code: p.code, text: p.text }]),
      ),
    };
  return {
    inv,
    rows: rows.map((r) => ({
      unitId: r.unitId ?? null,
      row: {
        quantity: r.quantity,
        price: r.price,
        code: r.code ?? null,
        name: r.name ?? null,
        vatId: r.vatId,
        vatRate: r.vatRate,
        vatParagraphId: r.vatParagraphId ?? null,
        sumBase: r.sumBase,
        unitCode: null,
      },
    })),
    source: {
      invoice: {
        recordNumber: inv.recordNumber,
        dateCreated: inv.dateCreated,
        dateDelivery: inv.dateDelivery ?? null,
        dateValidTo: inv.dateValidTo ?? null,
        currency: inv.currency,
        mode: inv.mode as 'record' | 'creation',
        bonusPercent: inv.bonusPercent ?? null,
        orderRecordNo: inv.orderRecordNo ?? null,
        symbolVariable: inv.symbolVariable ?? null,
        vatNumber: inv.vatNumber ?? null,
        partnerDetail: inv.partnerDetail ?? null,
        partnerCountry: inv.partnerCountry ?? null,
        partnerNumber3: inv.partnerNumber3 ?? null,
        commentAboveItems: inv.commentAboveItems ?? null,
        sumBase: inv.sumBase,
        sumVat: inv.sumVat,
        sumTotal: inv.sumTotal,
        vatSummary: inv.vatSummary as EInvoiceSource['invoice']['vatSummary'],
      },
      seller: {
        name: profile.name,
        companyNumber: profile.companyNumber ?? null,
        taxNumber: profile.taxNumber ?? null,
        vatNumber: profile.vatNumber ?? null,
        street: profile.street ?? null,
        city: profile.city ?? null,
        postalCode: profile.postalCode ?? null,
        country: profile.country,
        registration: profile.registration ?? null,
        email: profile.email ?? null,
        phone: profile.phone ?? null,
        peppolId: profile.peppolId ?? null,
      },
      buyer: partner
        ? {
            name: partner.name,
            companyNumber: partner.companyNumber ?? null,
            taxNumber: partner.taxNumber ?? null,
            street: partner.street ?? null,
            city: partner.city ?? null,
            postalCode: partner.postalCode ?? null,
            email: partner.email ?? null,
            peppolId: partner.peppolId ?? null,
          }
        : null,
      vatCodes,
      bankAccount: bank ? { iban: bank.iban, bic: bank.bic ?? null, name: bank.name } : null,
      corrected: corrected
        ? { recordNumber: corrected.recordNumber, dateCreated: corrected.dateCreated }
        : null,
    },
  };
}
