/**
 * Reads and writes of the e-invoice archive (issue #21; table `e_invoice_document`) and the reads that
 * build a sales invoice's e-invoice. No messaging here: what other services own (unit codes) is passed in.
 */
import { createHash } from 'node:crypto';
import type { EInvoiceIssuedEvent } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind } from '@bm/errors';
import type { EntityManager } from '@bm/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import type { EInvoiceSource, VatCodeInfo } from '../e-invoice-format/index.js';
import { issuedState } from '../e-invoice-format/index.js';
import {
  BankAccountEntity,
  CompanyProfileEntity,
  EInvoiceDocumentEntity,
  PartnerEntity,
  ReceivedEInvoiceEntity,
  SalesInvoiceEntity,
  SalesInvoiceRowEntity,
  VatCodeEntity,
  VatParagraphEntity,
} from '../schema/entities.js';
import { appendChange } from './e-invoice-delivery.store.js';

export type ArchiveRow = InstanceType<typeof EInvoiceDocumentEntity.class>;

/** The archive's digest of a document: SHA-256 of its bytes, lower-case hex (also its HTTP `ETag`). */
export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A received document as archived (issue #21): bytes as received, digest, parties, supplier key and BT-1. */
export interface ArchivedDocument {
  bytes: Buffer;
  sha256: string;
  documentType: string;
  senderId: string | null;
  receiverId: string | null;
  partyKey: string;
  externalNumber: string;
}

/**
 * Archives a received document for purchase invoice `documentId` inside the booking's transaction. Its
 * bytes stay in inbox record `receivedId` alone (issue #43: one copy); the archive keeps the digest, the
 * parties and the supplier's key.
 * @throws 409 DuplicateRecordNumber when this supplier's document with the same BT-1 was received before
 * (the archive's unique key refuses a concurrent second one as well).
 */
export async function archiveReceived(
  tx: EntityManager,
  companyId: string,
  documentId: string,
  doc: ArchivedDocument,
  receivedId: string,
  now: Date,
): Promise<void> {
  const seen = await tx.count(EInvoiceDocumentEntity, {
    direction: 'received',
    partyKey: doc.partyKey,
    externalNumber: doc.externalNumber,
  });
  if (seen)
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.DuplicateRecordNumber,
      `invoice ${doc.externalNumber} of this supplier was already received`,
      { errors: [{ path: 'ID', message: 'already received from this supplier' }] },
    );
  tx.create(EInvoiceDocumentEntity, {
    id: crypto.randomUUID(),
    companyId,
    documentId,
    direction: 'received',
    ...doc,
    bytes: null,
    receivedId,
    createdAt: now,
  });
}

/**
 * Locks a sales invoice's row for the issue (the lock payments, updates and cancelling take too) and
 * returns when it was last changed; null when there is no such invoice.
 */
export async function lockSalesInvoice(tx: EntityManager, id: string): Promise<{ updatedAt: Date } | null> {
  const inv = await tx.findOne(
    SalesInvoiceEntity,
    { id },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  return inv ? { updatedAt: new Date(inv.updatedAt) } : null;
}

/**
 * Archives an issued e-invoice's frozen bytes with its delivery at `issued` (attempt 1, the first history
 * row, issue #23) and enqueues `events.invoicing.e-invoice-issued` and the status event in the issuing
 * transaction (the outbox relay publishes them after the commit).
 */
export async function archiveIssued(
  tx: EntityManager,
  companyId: string,
  invoiceId: string,
  doc: { documentType: string; bytes: Buffer; sha256: string; senderId: string; receiverId: string },
  now: Date,
  event: EInvoiceIssuedEvent,
): Promise<void> {
  const state = issuedState();
  tx.create(EInvoiceDocumentEntity, {
    id: crypto.randomUUID(),
    companyId,
    documentId: invoiceId,
    direction: 'issued',
    ...doc,
    partyKey: null,
    externalNumber: null,
    createdAt: now,
    deliveryStatus: state.status,
    attempt: state.attempt,
    reasons: [],
    statusAt: now,
  });
  await appendChange(tx, companyId, invoiceId, state, now, event);
}

/** True when the invoice's e-invoice is issued (its data are frozen: PUT → 409 InvalidState). */
export async function isEInvoiceIssued(em: EntityManager, invoiceId: string): Promise<boolean> {
  return (await em.count(EInvoiceDocumentEntity, { direction: 'issued', documentId: invoiceId })) > 0;
}

/**
 * The bytes of a received archive row: its own (booked before the inbox existed), else its inbox
 * record's (issue #43); null when neither is there.
 */
export async function receivedBytesOf(em: EntityManager, row: ArchiveRow): Promise<Buffer | null> {
  if (row.bytes) return Buffer.from(row.bytes);
  if (!row.receivedId) return null;
  const r = await em.findOne(
    ReceivedEInvoiceEntity,
    { id: row.receivedId },
    { disableIdentityMap: true, fields: ['bytes'] as any },
  );
  return r ? Buffer.from(r.bytes) : null;
}

/** The archived document of `documentId` in `direction`, or null. */
export function findArchived(
  em: EntityManager,
  direction: 'issued' | 'received',
  documentId: string,
): Promise<ArchiveRow | null> {
  return em.findOne(EInvoiceDocumentEntity, { direction, documentId }, { disableIdentityMap: true });
}

/** What a sales invoice's e-invoice is built from, as stored. */
export interface StoredSalesSource {
  /** The source with every row's `unitCode` null: the caller fills it from the warehouse's units. */
  source: EInvoiceSource;
  /** The unit id of each row (same order as the rows). */
  rowUnitIds: (string | null)[];
  /** The invoice's `updatedAt`, to see whether it changed before the row lock. */
  updatedAt: Date;
}

/** Reads everything {@link EInvoiceSource} needs of invoice `invoiceId` (null: no such invoice or no profile). */
export async function loadSalesSource(
  em: EntityManager,
  invoiceId: string,
): Promise<StoredSalesSource | null> {
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
    updatedAt: inv.updatedAt,
    rowUnitIds: rows.map((r) => r.unitId ?? null),
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
        rows: rows.map((r) => ({
          quantity: r.quantity,
          price: r.price,
          code: r.code ?? null,
          name: r.name ?? null,
          vatId: r.vatId,
          vatRate: r.vatRate,
          vatParagraphId: r.vatParagraphId ?? null,
          sumBase: r.sumBase,
          unitCode: null,
        })),
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
