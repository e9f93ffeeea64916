/**
 * PDF rendering with pdfmake 0.3 (DESIGN §7). Fonts: Roboto from the pdfmake package (it covers every
 * Slovak diacritic: á ä č ď é í ĺ ľ ň ó ô ŕ š ť ú ý ž), so output does not depend on the machine's fonts.
 * Documents may not load files or URLs.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pdfmake from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';

const fontDir = join(
  dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')),
  'fonts',
  'Roboto',
);
let configured = false;

function configure(): void {
  if (configured) return;
  pdfmake.setFonts({
    Roboto: {
      normal: join(fontDir, 'Roboto-Regular.ttf'),
      bold: join(fontDir, 'Roboto-Medium.ttf'),
      italics: join(fontDir, 'Roboto-Italic.ttf'),
      bolditalics: join(fontDir, 'Roboto-MediumItalic.ttf'),
    },
  });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path) => path.startsWith(fontDir));
  configured = true;
}

/** Renders a document definition to PDF bytes; also returns the page count. */
export async function renderPdf(doc: TDocumentDefinitions): Promise<{ pdf: Uint8Array; pages: number }> {
  configure();
  let pages = 0;
  const footer = doc.footer;
  const withCount: TDocumentDefinitions = {
    ...doc,
    footer: (current: number, count: number, size: any) => {
      pages = count;
      return typeof footer === 'function' ? (footer as any)(current, count, size) : (footer ?? null);
    },
  };
  const buffer: Buffer = await pdfmake.createPdf(withCount).getBuffer();
  return { pdf: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), pages };
}
