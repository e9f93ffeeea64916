/**
 * Piscina worker (DESIGN §7: rendering is CPU work, off the event loop): builds the document of a print
 * model and renders it. Each worker thread keeps its own pdfmake with the fonts loaded once.
 */

import type { ReceivedEInvoiceView } from '@bm/contracts';
import { invoiceDocument } from '../domain/documents.js';
import { issueCardDocument } from '../domain/issue-card.document.js';
import { payBySquare } from '../domain/pay-by-square.js';
import type { InvoicePrint, IssueCardPrint } from '../domain/print-model.js';
import { receivedInvoiceDocument } from '../domain/received-invoice.document.js';
import { renderPdf } from './pdf.js';

export type RenderTask =
  | { kind: 'SalesInvoice'; data: InvoicePrint }
  | { kind: 'IssueCard'; data: IssueCardPrint }
  | { kind: 'ReceivedInvoice'; data: ReceivedEInvoiceView };
export interface RenderResult {
  pdf: Uint8Array;
  pages: number;
}

/** Renders one printout (also callable in the main thread when no pool is used). */
export async function render(task: RenderTask): Promise<RenderResult> {
  const doc =
    task.kind === 'SalesInvoice'
      ? invoiceDocument(task.data, payBySquare(task.data))
      : task.kind === 'IssueCard'
        ? issueCardDocument(task.data)
        : receivedInvoiceDocument(task.data);
  return renderPdf(doc);
}

/** The pool's entry point; the result is copied back to the caller (a PDF copies in well under a millisecond). */
export default function renderInWorker(task: RenderTask): Promise<RenderResult> {
  return render(task);
}
