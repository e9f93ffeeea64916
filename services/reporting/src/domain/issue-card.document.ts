/** The issue-card printout (DESIGN §7): card header, partner, rows with cost and selling prices, totals. Pure: data in, definition out. */
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { footer, pair, partyBlock, styles, th } from './blocks.js';
import { formatAmount, formatDate, formatPrice, formatQuantity } from './format.js';
import type { IssueCardPrint } from './print-model.js';

/** The issue-card printout. */
export function issueCardDocument(p: IssueCardPrint): TDocumentDefinitions {
  const num = (v: string) => ({ text: formatAmount(v), alignment: 'right' as const });
  const header = ['Kód', 'Názov', 'Množstvo', 'MJ', 'Nákupná cena/MJ', 'Suma', 'Predajná cena/MJ'].map(
    (t, i) => th(t, i >= 2 && i !== 3),
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
