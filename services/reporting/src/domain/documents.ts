/**
 * pdfmake document definitions of the built-in printouts (DESIGN §7): the sales invoice an accountant
 * would sign (supplier and customer blocks, dates, payment symbols, IBAN, rows, VAT summary per rate,
 * totals, comments, page numbers, PAY by square) and the issue card. Pure: data in, definition out.
 */

import { dec, fmt } from '@bm/money';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { formatAmount, formatDate, formatPrice, formatQuantity, formatRate } from './format.js';
import type { InvoicePrint, IssueCardPrint, Party } from './print-model.js';

const partyBlock = (title: string, p: Party): Content => ({
  stack: [
    { text: title, style: 'label' },
    { text: p.name, bold: true, margin: [0, 2, 0, 2] },
    ...(p.address ? [{ text: p.address }] : []),
    ...(p.country ? [{ text: p.country }] : []),
    { text: p.companyNumber ? `IČO: ${p.companyNumber}` : ' ', margin: [0, 4, 0, 0] },
    ...(p.taxNumber ? [{ text: `DIČ: ${p.taxNumber}` }] : []),
    ...(p.vatNumber ? [{ text: `IČ DPH: ${p.vatNumber}` }] : []),
    ...(p.registration
      ? [{ text: p.registration, style: 'small', margin: [0, 4, 0, 0] as [number, number, number, number] }]
      : []),
  ],
});

/** A header cell; numeric columns are right-aligned like their figures (issue #21: "Spolu" above its column). */
const th = (text: string, numeric: boolean) => ({
  text,
  style: 'th',
  ...(numeric ? { alignment: 'right' as const } : {}),
});

const pair = (label: string, value: string | null | undefined): Content[] => [
  { text: label, style: 'label' },
  { text: value ?? '' },
];

const footer =
  (recordNumber: string) =>
  (currentPage: number, pageCount: number): Content => ({
    columns: [
      { text: recordNumber, style: 'small' },
      { text: `Strana ${currentPage} / ${pageCount}`, alignment: 'right', style: 'small' },
    ],
    margin: [40, 10, 40, 0],
  });

const styles: TDocumentDefinitions['styles'] = {
  title: { fontSize: 16, bold: true },
  label: { fontSize: 7.5, color: '#555555' },
  small: { fontSize: 7.5, color: '#555555' },
  th: { bold: true, fontSize: 8, fillColor: '#eeeeee' },
  total: { bold: true, fontSize: 11 },
};

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

/** The issue-card printout. */
export function issueCardDocument(p: IssueCardPrint): TDocumentDefinitions {
  const num = (v: string) => ({ text: formatAmount(v), alignment: 'right' as const });
  const header = ['Kód', 'Názov', 'Množstvo', 'MJ', 'Nákupná cena/MJ', 'Suma', 'Predajná cena/MJ'].map(
    (t) => ({ text: t, style: 'th' }),
  );
  const rows = p.rows.map((r) => [
    r.code ?? '',
    r.name ?? '',
    { text: formatQuantity(r.quantity), alignment: 'right' as const },
    r.unit ?? '',
    { text: formatPrice(r.costPrice), alignment: 'right' as const },
    num(r.amount),
    { text: formatPrice(r.sellPrice), alignment: 'right' as const },
  ]);
  return {
    info: { title: `Výdajka ${p.recordNumber}`, subject: 'Issue card', creator: 'business-backend 1.6' },
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 50],
    defaultStyle: { font: 'Roboto', fontSize: 9 },
    styles,
    content: [
      {
        columns: [
          { text: 'VÝDAJKA', style: 'title' },
          { text: `č. ${p.recordNumber}`, style: 'title', alignment: 'right' },
        ],
        margin: [0, 0, 0, 14],
      },
      {
        columns: [partyBlock('Vydal', p.supplier), partyBlock('Odberateľ', p.customer)],
        columnGap: 20,
        margin: [0, 0, 0, 12],
      },
      {
        table: {
          widths: [90, '*'],
          body: [
            pair('Sklad', p.warehouse),
            pair('Dátum výdaja', formatDate(p.dateOperation)),
            pair('Dátum vystavenia', formatDate(p.dateCreated)),
          ],
        },
        layout: 'noBorders',
        margin: [0, 0, 0, 10],
      },
      ...(p.partnerAddress
        ? [
            {
              text: [{ text: 'Miesto dodania: ', style: 'label' }, p.partnerAddress],
              margin: [0, 0, 0, 6],
            } as Content,
          ]
        : []),
      ...(p.itemsComment ? [{ text: p.itemsComment, margin: [0, 0, 0, 8] } as Content] : []),
      {
        table: { headerRows: 1, widths: [50, '*', 45, 25, 60, 55, 60], body: [header, ...rows] },
        layout: 'lightHorizontalLines',
        fontSize: 8,
      },
      {
        columns: [
          { width: '*', text: '' },
          {
            width: 'auto',
            table: {
              widths: [120, 100],
              body: [
                [
                  { text: 'Spolu v nákupných cenách', style: 'total' },
                  { text: formatAmount(p.totalCost), style: 'total', alignment: 'right' },
                ],
              ],
            },
            layout: 'noBorders',
            margin: [0, 10, 0, 0],
          },
        ],
      },
      {
        columns: [
          { text: 'Vydal: ____________________' },
          { text: 'Prevzal: ____________________', alignment: 'right' },
        ],
        margin: [0, 40, 0, 0],
      },
    ],
    footer: footer(`Výdajka ${p.recordNumber}`),
  };
}
