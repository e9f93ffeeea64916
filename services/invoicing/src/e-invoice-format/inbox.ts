/**
 * Rules of the inbox of received e-invoices (issue #35; DESIGN §6a "Received means kept"). Pure.
 *
 * - What the inbox shows of a document is what can be read of it ({@link inboxSummary}); a document that
 *   is not a readable UBL invoice is kept with nulls there.
 * - A refusal of the booking rules becomes the record's problems ({@link problemsOf}): the rule id, the
 *   field (the BT id of the document) and the text. Receiving is not accepting: the record stays.
 * - The same supplier's invoice number again with other bytes ({@link sameInvoiceAgain}): when the issue
 *   date, currency and amount due agree with what was booked, it is the same invoice re-sent (`duplicate`,
 *   nothing booked twice); otherwise two different documents carry one number, which a person must
 *   settle with the supplier (`needs-attention`).
 */
import { dec } from '@bm/money';
import type { ReceivedEInvoice } from './model.js';

/** What the inbox lists of a document: BT-27, BT-1, BT-2, the type, BT-115 (2 decimals) and BT-5. */
export interface InboxSummary {
  senderName: string | null;
  invoiceNumber: string | null;
  issueDate: string | null;
  documentType: 'Invoice' | 'CreditNote' | null;
  total: string | null;
  currency: string | null;
}

export const EMPTY_SUMMARY: InboxSummary = {
  senderName: null,
  invoiceNumber: null,
  issueDate: null,
  documentType: null,
  total: null,
  currency: null,
};

/** The inbox summary of a read document (null: not readable → every field null). */
export function inboxSummary(doc: ReceivedEInvoice | null): InboxSummary {
  if (!doc) return EMPTY_SUMMARY;
  const total = /^-?\d+(\.\d+)?$/.test(doc.totals.payable) ? dec(doc.totals.payable).toFixed(2) : null;
  return {
    senderName: doc.seller.name || null,
    invoiceNumber: doc.id.slice(0, 200),
    issueDate: doc.issueDate,
    documentType: doc.documentType,
    total,
    currency: doc.currency.slice(0, 3),
  };
}

/** One reason a document could not be booked. */
export interface InboxProblem {
  rule: string;
  field: string | null;
  message: string;
}

/**
 * The problems of a booking refusal `e` (an AppError's code, detail and field errors). A field error
 * whose message starts with `[RULE-ID]` (the pre-flight's findings) names that rule; others name the code.
 */
export function problemsOf(e: {
  code: string;
  message: string;
  errors?: { path: string; message: string }[];
}): InboxProblem[] {
  if (!e.errors?.length) return [{ rule: e.code, field: null, message: e.message }];
  return e.errors.map((x) => {
    const m = /^\[([^\]]+)\]\s*(.*)$/s.exec(x.message);
    return m
      ? { rule: m[1], field: x.path || null, message: m[2] }
      : { rule: e.code, field: x.path || null, message: x.message };
  });
}

/**
 * True when `doc` is the invoice already booked as `booked` (same issue date, currency and amount due,
 * BT-2, BT-5, BT-115): the supplier sent the same invoice again in other bytes.
 */
export function sameInvoiceAgain(
  doc: InboxSummary,
  booked: { dateCreated: string; currency: string; sumTotal: string },
): boolean {
  return (
    doc.issueDate === booked.dateCreated &&
    doc.currency === booked.currency &&
    doc.total !== null &&
    dec(doc.total).eq(dec(booked.sumTotal))
  );
}
