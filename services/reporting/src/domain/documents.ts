/**
 * pdfmake document definitions of the built-in printouts (DESIGN §7): the sales invoice an accountant
 * would sign (supplier and customer blocks, dates, payment symbols, IBAN, rows, VAT summary per rate,
 * totals, comments, page numbers, PAY by square); the issue card is in issue-card.document.ts. Pure.
 */

import { dec, fmt } from '@bm/money';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { footer, pair, partyBlock, styles, th } from './blocks.js';
import { formatAmount, formatDate, formatPrice, formatQuantity, formatRate } from './format.js';
import type { InvoicePrint } from './print-model.js';

/**
 * Title of an invoice printout: a negative total is a credit note ("dobropis", a corrective tax document
 * under § 71 (2) of the Slovak VAT Act); a cancelled invoice says so under the title.
 */
export function invoiceTitle(p: Pick<InvoicePrint, 'sumTotal' | 'state'>): {
  title: string;
  note: string | null;
} {
  return {
    title: dec(p.sumTotal).isNegative() ? 'DOBROPIS – opravný daňový doklad' : 'FAKTÚRA – daňový doklad',
    note: p.state === 'cancelled' ? 'STORNOVANÝ DOKLAD' : null,
  };
}

/** The sales-invoice printout; `qr` is the PAY by square payload (null: no QR code). */
export function invoiceDocument(p: InvoicePrint, qr: string | null): TDocumentDefinitions {
  const num = (v: string) => ({ text: formatAmount(v), alignment: 'right' as const });
  const rows = p.rows.map((r) => [
    r.code ?? '',
    r.name ?? '',
    { text: formatQuantity(r.quantity), alignment: 'right' as const },
    r.unit ?? '',
    { text: formatPrice(r.price), alignment: 'right' as const },
    { text: formatRate(r.vatRate), alignment: 'right' as const },
    num(r.base),
    num(r.vat),
    num(r.total),
  ]);
  const header = ['Kód', 'Názov', 'Množstvo', 'MJ', 'Cena/MJ', 'DPH', 'Základ', 'DPH', 'Spolu'].map((t, i) =>
    th(t, i >= 2 && i !== 3),
  );
  const summary = [
    ['Sadzba DPH', 'Základ', 'DPH', 'Spolu'].map((t) => th(t, true)),
    ...p.vatSummary.map((s) => [
      { text: formatRate(s.rate), alignment: 'right' as const },
      num(s.base),
      num(s.vat),
      num(fmt(dec(s.base).plus(dec(s.vat)))),
    ]),
  ];
  const { title, note } = invoiceTitle(p);
  const content: Content[] = [
    {
      columns: [
        { text: title, style: 'title' },
        { text: `č. ${p.recordNumber}`, style: 'title', alignment: 'right' },
      ],
      margin: [0, 0, 0, note ? 4 : 14],
    },
    ...(note ? [{ text: note, bold: true, color: '#b00020', margin: [0, 0, 0, 10] } as Content] : []),
    {
      columns: [partyBlock('Dodávateľ', p.supplier), partyBlock('Odberateľ', p.customer)],
      columnGap: 20,
      margin: [0, 0, 0, 12],
    },
    {
      columns: [
        {
          table: {
            widths: [90, '*'],
            body: [
              pair('Dátum vystavenia', formatDate(p.dateCreated)),
              pair('Dátum dodania', formatDate(p.dateDelivery)),
              pair('Dátum splatnosti', formatDate(p.dateValidTo)),
              pair('Forma úhrady', p.paymentType),
              pair('Spôsob dopravy', p.deliveryType),
            ],
          },
          layout: 'noBorders',
        },
        {
          table: {
            widths: [90, '*'],
            body: [
              pair('Variabilný symbol', p.symbolVariable),
              pair('Konštantný symbol', p.symbolConstant),
              pair('Špecifický symbol', p.symbolSpecific),
              pair('IBAN', p.iban ? p.iban.replace(/(.{4})/g, '$1 ').trim() : null),
              pair('SWIFT / BIC', p.bic),
            ],
          },
          layout: 'noBorders',
        },
      ],
      columnGap: 20,
      margin: [0, 0, 0, 10],
    },
    ...(p.deliveryAddress
      ? [
          {
            text: [{ text: 'Miesto dodania: ', style: 'label' }, p.deliveryAddress],
            margin: [0, 0, 0, 6],
          } as Content,
        ]
      : []),
    ...(p.orderRecordNo || p.warehouseRecordNo
      ? [
          {
            text: [
              p.orderRecordNo ? `Objednávka: ${p.orderRecordNo}   ` : '',
              p.warehouseRecordNo ? `Výdajka: ${p.warehouseRecordNo}` : '',
            ],
            style: 'small',
            margin: [0, 0, 0, 6],
          } as Content,
        ]
      : []),
    ...(p.commentAboveItems ? [{ text: p.commentAboveItems, margin: [0, 0, 0, 8] } as Content] : []),
    {
      table: { headerRows: 1, widths: [40, '*', 38, 20, 42, 28, 46, 40, 46], body: [header, ...rows] },
      layout: 'lightHorizontalLines',
      fontSize: 8,
    },
    {
      columns: [
        { width: '*', text: '' },
        {
          width: 'auto',
          stack: [
            { text: 'Rekapitulácia DPH', style: 'label', margin: [0, 12, 0, 2] },
            {
              table: { headerRows: 1, widths: [55, 65, 55, 65], body: summary },
              layout: 'lightHorizontalLines',
              fontSize: 8,
            },
            {
              table: {
                widths: [120, 120],
                body: [
                  ['Spolu bez DPH', num(p.sumBase)],
                  ['DPH', num(p.sumVat)],
                  [
                    { text: `Celkom (${p.currency})`, style: 'total' },
                    { text: formatAmount(p.sumTotal), style: 'total', alignment: 'right' },
                  ],
                  ...(p.balance !== p.sumTotal ? [['Zostáva uhradiť', num(p.balance)]] : []),
                ],
              },
              layout: 'noBorders',
              margin: [0, 8, 0, 0],
            },
          ],
        },
      ],
    },
    ...(p.vatParagraph ? [{ text: p.vatParagraph, italics: true, margin: [0, 12, 0, 0] } as Content] : []),
    ...(p.commentBelowItems ? [{ text: p.commentBelowItems, margin: [0, 10, 0, 0] } as Content] : []),
    ...(qr
      ? [
          {
            columns: [
              {
                stack: [
                  { qr, fit: 130, eccLevel: 'M' as const },
                  { text: 'PAY by square', style: 'small', margin: [0, 4, 0, 0] },
                ],
                width: 'auto',
              },
              { text: '', width: '*' },
            ],
            margin: [0, 16, 0, 0],
            unbreakable: true,
          } as Content,
        ]
      : []),
  ];
  return {
    info: { title: `Faktúra ${p.recordNumber}`, subject: 'Sales invoice', creator: 'business-backend 1.6' },
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 50],
    defaultStyle: { font: 'Roboto', fontSize: 9 },
    styles,
    content,
    footer: footer(`Faktúra ${p.recordNumber}`),
  };
}
