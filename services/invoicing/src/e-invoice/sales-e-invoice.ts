/**
 * The sales invoice as an e-invoice (issue #21; DESIGN §6a): the draft on read, and issuing, which runs
 * the pre-flight rules, freezes the bytes (SHA-256, `issuedAt`) and publishes
 * `events.invoicing.e-invoice-issued` through the outbox in the same transaction.
 *
 * Linear: the invoice is read (store), the warehouse asked for its units' codes (port, no transaction is
 * open), the document mapped and checked (pure domain) and, when issuing, archived with its event under the
 * invoice's row lock (store), so an update racing the issue either lands before it (and is in the bytes)
 * or is refused after.
 */
import type { EInvoiceIssuedEvent, SalesEInvoice } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, notFound } from '@bm/errors';
import {
  type Ctx,
  type DocumentDeps,
  type DocumentKind,
  runDocument,
  storedNumbering,
} from '@bm/service-kit';
import {
  type ArchiveRow,
  archiveIssued,
  findArchived,
  loadSalesSource,
  lockSalesInvoice,
  sha256Hex,
} from '../e-invoice-archive/index.js';
import type { EInvoice } from '../e-invoice-format/index.js';
import {
  eInvoiceFromSalesInvoice,
  formatEndpoint,
  notValid,
  preflight,
  writeUbl,
} from '../e-invoice-format/index.js';
import { uneceCodes } from '../references/index.js';

/** The kit and the outbox kick (the invoicing service's `DocumentDeps`). */
export type EInvoiceDeps = DocumentDeps;

const frozen = (a: ArchiveRow): SalesEInvoice => ({
  status: (a.deliveryStatus ?? 'issued') as SalesEInvoice['status'],
  document: Buffer.from(a.bytes ?? []).toString('base64'),
  sha256: a.sha256,
  issuedAt: new Date(a.createdAt).toISOString(),
  documentType: a.documentType as SalesEInvoice['documentType'],
});

/** Builds the e-invoice of an invoice as it stands (reads only). @throws 404, 422 EInvoiceNotValid. */
async function build(
  deps: EInvoiceDeps,
  ctx: Ctx,
  id: string,
): Promise<{ model: EInvoice; bytes: Buffer; updatedAt: Date }> {
  const loaded = await loadSalesSource(ctx.em, id);
  if (!loaded) throw notFound('Sales invoice');
  const units = loaded.rowUnitIds.filter((x): x is string => !!x);
  const codes = await uneceCodes(deps.kit, ctx, units);
  const { source } = loaded;
  const model = eInvoiceFromSalesInvoice({
    ...source,
    invoice: {
      ...source.invoice,
      rows: source.invoice.rows.map((r, i) => ({
        ...r,
        unitCode: codes.get(loaded.rowUnitIds[i] ?? '') ?? null,
      })),
    },
  });
  const findings = preflight(model, { sk: true });
  if (findings.length) throw notValid(findings);
  return { model, bytes: writeUbl(model), updatedAt: loaded.updatedAt };
}

/**
 * `GET /1.6/sales/invoices/{id}/e-invoice`: the frozen bytes once issued, else the draft as it would be
 * issued now. @throws 404; 422 EInvoiceNotValid (a draft that cannot be an e-invoice).
 */
export async function getSalesEInvoice(deps: EInvoiceDeps, ctx: Ctx, id: string): Promise<SalesEInvoice> {
  const archived = await findArchived(ctx.em, 'issued', id);
  if (archived) return frozen(archived);
  const { model, bytes } = await build(deps, ctx, id);
  return {
    status: 'draft',
    document: bytes.toString('base64'),
    sha256: sha256Hex(bytes),
    issuedAt: null,
    documentType: model.documentType,
  };
}

/** An e-invoice built from its invoice as it stood (reads only), to issue. */
export interface BuiltEInvoice {
  ctx: Ctx;
  id: string;
  companyId: string;
  model: EInvoice;
  bytes: Buffer;
  /** When the invoice was last changed as built: a change since makes the issue build again. */
  updatedAt: Date;
}

/** The invoice changed between the build and its lock: build again from what is stored now. */
class ChangedMeanwhile extends Error {}

type IssueReply = SalesEInvoice & { created: boolean };

/**
 * The issue of a sales invoice's e-invoice as a document kind (issue #21, #38): the invoice as its lock;
 * in the transaction the invoice locked and its archive looked up; decided: the bytes archived with
 * their delivery at `issued` and the events in the outbox (under its savepoint, through the archive's
 * store), or the bytes issued before.
 */
export const eInvoiceIssueKind: DocumentKind<
  BuiltEInvoice,
  { updatedAt: Date; archived: ArchiveRow | null },
  IssueReply,
  IssueReply
> = {
  key: 'invoicing:sales-invoice-change',
  declare: (b) => ({
    numbering: storedNumbering('"invoicing"."sales_invoice"', b.companyId, b.model.id),
    locks: [`sales-invoice:${b.id}`],
  }),
  read: async (b, doc) => {
    const stored = await lockSalesInvoice(doc.tx, b.id);
    if (!stored) throw notFound('Sales invoice');
    return { updatedAt: stored.updatedAt, archived: await findArchived(doc.tx, 'issued', b.id) };
  },
  decide: async (b, s, doc) => {
    if (s.archived) return { ...frozen(s.archived), created: false };
    if (s.updatedAt.getTime() !== b.updatedAt.getTime()) throw new ChangedMeanwhile();
    const now = new Date();
    const { model, bytes } = b;
    const digest = sha256Hex(bytes);
    const senderId = formatEndpoint(model.seller.endpoint)!;
    const receiverId = formatEndpoint(model.buyer.endpoint)!;
    const event: EInvoiceIssuedEvent = {
      eventId: crypto.randomUUID(),
      companyId: b.companyId,
      invoiceId: b.id,
      recordNumber: model.id,
      documentType: model.documentType,
      senderId,
      receiverId,
      sha256: digest,
      issuedAt: now.toISOString(),
      document: bytes.toString('base64'),
      attempt: 1,
    };
    await archiveIssued(
      doc.tx,
      b.companyId,
      b.id,
      { documentType: model.documentType, bytes, sha256: digest, senderId, receiverId },
      now,
      event,
    );
    return {
      status: 'issued' as const,
      document: event.document,
      sha256: digest,
      issuedAt: event.issuedAt,
      documentType: model.documentType,
      created: true,
    };
  },
  // The archive's rows are written by its store under the document's savepoint.
  writer: () => [],
  reply: (w) => w,
};

/**
 * `POST /1.6/sales/invoices/{id}/e-invoice`: issues the e-invoice once; a repeated call answers the same
 * bytes with `created: false`. @throws 404; 422 EInvoiceNotValid (nothing stored); 409 Conflict when the
 * invoice keeps changing while it is built.
 */
export async function issueSalesEInvoice(deps: EInvoiceDeps, ctx: Ctx, id: string): Promise<IssueReply> {
  for (let attempt = 0; ; attempt++) {
    const archived = await findArchived(ctx.em, 'issued', id);
    if (archived) return { ...frozen(archived), created: false };
    const built = await build(deps, ctx, id);
    try {
      const result = await runDocument(eInvoiceIssueKind, ctx.em, {
        ctx,
        id,
        companyId: ctx.companyId!,
        ...built,
      });
      if (result.created) deps.kickOutbox();
      return result;
    } catch (e) {
      if (!(e instanceof ChangedMeanwhile)) throw e;
    }
    if (attempt >= 3)
      throw new AppError(ErrorKind.conflict, ErrorCode.Conflict, 'the invoice keeps changing; try again');
  }
}
