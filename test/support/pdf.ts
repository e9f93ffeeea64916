/**
 * PDF checks for the printout tests with npm packages only (issue #9: `pnpm test` needs no system
 * tools): MuPDF (WebAssembly build of the MuPDF library) parses, validates, extracts text and renders
 * pages; jsQR decodes the QR code from the rendered pixels.
 */
import jsQRModule from 'jsqr';
import * as mupdf from 'mupdf';

// jsQR is CommonJS typed as an ES default export: take the function whichever way the loader hands it over.
type JsQR = typeof import('jsqr').default;
const jsQR: JsQR = (jsQRModule as unknown as { default?: JsQR }).default ?? (jsQRModule as unknown as JsQR);

/** A parsed PDF: page count, the text of every page (whitespace folded to single spaces). */
export interface CheckedPdf {
  pages: number;
  text: string;
}

function open(bytes: Uint8Array): mupdf.PDFDocument {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  if (!doc.isPDF()) throw new Error('not a PDF document');
  return doc as mupdf.PDFDocument;
}

/**
 * Parses the whole file strictly, as `qpdf --check` would: every page is loaded and its content
 * stream interpreted, and a file that MuPDF had to repair (broken cross-reference table, truncated
 * objects) is an error. Returns the page count and the text.
 * @throws Error when the bytes are not a PDF, or a damaged one
 */
export function checkPdf(bytes: Uint8Array): CheckedPdf {
  const doc = open(bytes);
  const pages = doc.countPages();
  const parts: string[] = [];
  for (let i = 0; i < pages; i++) {
    const page = doc.loadPage(i);
    parts.push(page.toStructuredText('preserve-whitespace').asText());
    page.destroy();
  }
  const repaired = doc.wasRepaired();
  doc.destroy();
  if (repaired) throw new Error('damaged PDF: MuPDF had to repair its structure');
  return { pages, text: parts.join('\n').replace(/\s+/g, ' ') };
}

/**
 * Renders page `pageIndex` (0-based) at `dpi` and decodes the first QR code on it.
 * @returns the QR code's text, or undefined when the page has none
 */
export function qrCodeOnPage(bytes: Uint8Array, pageIndex = 0, dpi = 200): string | undefined {
  const doc = open(bytes);
  const page = doc.loadPage(pageIndex);
  const scale = dpi / 72;
  // RGB on white (no alpha): jsQR reads colour channels only, so a transparent background would read black.
  const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
  const width = pix.getWidth();
  const height = pix.getHeight();
  const stride = pix.getStride();
  const rgb = pix.getPixels();
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const s = y * stride + x * 3;
      const d = (y * width + x) * 4;
      rgba[d] = rgb[s];
      rgba[d + 1] = rgb[s + 1];
      rgba[d + 2] = rgb[s + 2];
      rgba[d + 3] = 255;
    }
  pix.destroy();
  page.destroy();
  doc.destroy();
  return jsQR(rgba, width, height)?.data;
}
