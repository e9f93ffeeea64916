/**
 * The readable printout of a received e-invoice (issue #35), in Slovak and in the style of our own
 * printouts: supplier and buyer (name, address, IČO, DIČ, IČ DPH, Peppol id), BT-1, the issue, tax point
 * and due dates, every line (name, quantity, unit, net price, VAT, line allowances and charges, amount),
 * the document's allowances and charges, the VAT breakdown, the totals down to the amount due, the
 * payment means (IBAN, variable symbol), the note, and a footer saying that the legal document is the XML
 * with its SHA-256. Figures as the document states them. Pure.
 */
import type { ReceivedEInvoiceView } from '@bm/contracts';
import { dec } from '@bm/money';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { pair, styles, th } from './blocks.js';
import { formatAmount, formatDate, formatPrice, formatQuantity, formatRate } from './format.js';

type Party = ReceivedEInvoiceView['seller'];

/** UNCL 5305 VAT categories as a Slovak reader knows them. */
const CATEGORY: Record<string, string> = {
  S: 'základná/znížená',
  Z: 'nulová',
  E: 'oslobodené',
  AE: 'prenesenie daňovej povinnosti',
  K: 'dodanie v rámci EÚ',
  G: 'vývoz',
  O: 'mimo predmetu DPH',
  L: 'Kanárske ostrovy',
  M: 'Ceuta a Melilla',
};

/** UNCL 4461 payment means the printout names; others show their code. */
const MEANS: Record<string, string> = {
  '10': 'hotovosť',
  '30': 'bankový prevod',
  '31': 'bankový prevod',
  '42': 'bankový prevod',
  '48': 'platobná karta',
  '49': 'inkaso',
  '58': 'prevod SEPA',
  '59': 'inkaso SEPA',
};

const right = (text: string) => ({ text, alignment: 'right' as const });
const amount = (v: string) => right(formatAmount(v));

function partyBlock(title: string, p: Party): Content {
  const place = [p.postalCode, p.city].filter(Boolean).join(' ');
  return {
    stack: [
      { text: title, style: 'label' },
      { text: p.name, bold: true, margin: [0, 2, 0, 2] },
      ...[p.street, place, p.country].filter((x): x is string => !!x).map((text) => ({ text })),
      { text: p.companyNumber ? `IČO: ${p.companyNumber}` : ' ', margin: [0, 4, 0, 0] },
      ...(p.taxNumber ? [{ text: `DIČ: ${p.taxNumber}` }] : []),
      ...(p.vatNumber ? [{ text: `IČ DPH: ${p.vatNumber}` }] : []),
      ...(p.endpoint ? [{ text: `Peppol: ${p.endpoint}`, style: 'small' }] : []),
      ...(p.legalInfo
        ? [{ text: p.legalInfo, style: 'small', margin: [0, 4, 0, 0] as [number, number, number, number] }]
        : []),
    ],
  };
}

/** A line's allowances and charges as one signed figure (charges +, allowances −), or ''. */
function lineAdjustment(l: ReceivedEInvoiceView['lines'][number]): string {
  if (!l.allowanceCharges.length) return '';
  const net = l.allowanceCharges.reduce(
    (t, a) => (a.charge ? t.plus(dec(a.amount)) : t.minus(dec(a.amount))),
    dec(0),
  );
  return formatAmount(net.toFixed(2));
}

const price = (l: ReceivedEInvoiceView['lines'][number]) =>
  l.baseQuantity && !dec(l.baseQuantity).eq(1) && !dec(l.baseQuantity).isZero()
    ? `${formatPrice(l.netPrice)} / ${formatQuantity(l.baseQuantity)}`
    : formatPrice(l.netPrice);

/** The printout of received document `v`. */
export function receivedInvoiceDocument(v: ReceivedEInvoiceView): TDocumentDefinitions {
  const credit = v.documentType === 'CreditNote';
  const title = credit ? 'PRIJATÝ DOBROPIS' : 'PRIJATÁ FAKTÚRA';
  const lines = [
    ['#', 'Názov', 'Množstvo', 'MJ', 'Cena/MJ', 'DPH', 'Zľavy/prir.', 'Spolu bez DPH'].map((t, i) =>
      th(t, i >= 2 && i !== 3),
    ),
    ...v.lines.map((l) => [
      l.id,
      { stack: [l.name, ...(l.sellerItemId ? [{ text: l.sellerItemId, style: 'small' }] : [])] },
      right(formatQuantity(l.quantity)),
      l.unitCode,
      right(price(l)),
      right(`${l.category} ${formatRate(l.rate)}`),
      right(lineAdjustment(l)),
      amount(l.netAmount),
    ]),
  ];
  const adjustments = v.allowanceCharges.length
    ? [
        { text: 'Zľavy a prirážky na doklade', style: 'label', margin: [0, 10, 0, 2] } as Content,
        {
          table: {
            headerRows: 1,
            widths: ['auto', '*', 'auto', 60],
            body: [
              ['Druh', 'Dôvod', 'DPH', 'Suma'].map((t, i) => th(t, i >= 2)),
              ...v.allowanceCharges.map((a) => [
                a.charge ? 'prirážka' : 'zľava',
                a.reason,
                right(`${a.category} ${formatRate(a.rate)}`),
                amount(a.charge ? a.amount : dec(a.amount).neg().toFixed(2)),
              ]),
            ],
          },
          layout: 'lightHorizontalLines',
          fontSize: 8,
        } as Content,
      ]
    : [];
  const breakdown = [
    ['Kategória DPH', 'Sadzba', 'Základ', 'DPH'].map((t, i) => th(t, i >= 1)),
    ...v.vatBreakdown.map((b) => [
      {
        stack: [
          `${b.category} – ${CATEGORY[b.category] ?? b.category}`,
          ...(b.exemptionReason ? [{ text: b.exemptionReason, style: 'small' }] : []),
        ],
      },
      right(formatRate(b.rate)),
      amount(b.taxable),
      amount(b.tax),
    ]),
  ];
  const t = v.totals;
  const totals: unknown[][] = [
    ['Súčet riadkov', amount(t.lineTotal)],
    ...(dec(t.allowanceTotal).isZero() ? [] : [['Zľavy', amount(dec(t.allowanceTotal).neg().toFixed(2))]]),
    ...(dec(t.chargeTotal).isZero() ? [] : [['Prirážky', amount(t.chargeTotal)]]),
    ['Spolu bez DPH', amount(t.taxExclusive)],
    ['DPH', amount(t.taxTotal)],
    ['Spolu s DPH', amount(t.taxInclusive)],
    ...(dec(t.prepaid).isZero() ? [] : [['Uhradené vopred', amount(t.prepaid)]]),
    ...(dec(t.rounding).isZero() ? [] : [['Zaokrúhlenie', amount(t.rounding)]]),
    [
      { text: `Na úhradu (${v.currency})`, style: 'total' },
      { text: formatAmount(t.payable), style: 'total', alignment: 'right' },
    ],
  ];
  const pay = v.payment;
  const content: Content[] = [
    {
      columns: [
        { text: title, style: 'title' },
        { text: `č. ${v.invoiceNumber}`, style: 'title', alignment: 'right' },
      ],
      margin: [0, 0, 0, 2],
    },
    { text: 'Čitateľné zobrazenie prijatej elektronickej faktúry', style: 'small', margin: [0, 0, 0, 12] },
    {
      columns: [partyBlock('Dodávateľ', v.seller), partyBlock('Odberateľ', v.buyer)],
      columnGap: 20,
      margin: [0, 0, 0, 12],
    },
    {
      columns: [
        {
          table: {
            widths: [100, '*'],
            body: [
              pair('Dátum vystavenia', formatDate(v.issueDate)),
              pair('Dátum dodania', formatDate(v.taxPointDate ?? v.deliveryDate)),
              pair('Dátum splatnosti', formatDate(v.dueDate)),
              pair('Objednávka', v.orderReference),
              pair('Referencia odberateľa', v.buyerReference),
              ...(v.precedingInvoice
                ? [
                    pair(
                      'Opravovaná faktúra',
                      `${v.precedingInvoice.id} ${formatDate(v.precedingInvoice.issueDate)}`.trim(),
                    ),
                  ]
                : []),
            ],
          },
          layout: 'noBorders',
        },
        {
          table: {
            widths: [100, '*'],
            body: [
              pair('Forma úhrady', pay ? (MEANS[pay.meansCode] ?? `kód ${pay.meansCode}`) : null),
              pair('Variabilný symbol', pay?.paymentId),
              pair('IBAN', pay?.iban ? pay.iban.replace(/(.{4})/g, '$1 ').trim() : null),
              pair('SWIFT / BIC', pay?.bic),
              pair('Mena', v.currency),
            ],
          },
          layout: 'noBorders',
        },
      ],
      columnGap: 20,
      margin: [0, 0, 0, 10],
    },
    {
      table: { headerRows: 1, widths: [16, '*', 42, 22, 52, 44, 44, 56], body: lines },
      layout: 'lightHorizontalLines',
      fontSize: 8,
    },
    ...adjustments,
    {
      columns: [
        { width: '*', text: '' },
        {
          width: 'auto',
          stack: [
            { text: 'Rekapitulácia DPH', style: 'label', margin: [0, 12, 0, 2] },
            {
              table: { headerRows: 1, widths: [120, 45, 65, 55], body: breakdown },
              layout: 'lightHorizontalLines',
              fontSize: 8,
            },
            { table: { widths: [140, 100], body: totals as any }, layout: 'noBorders', margin: [0, 8, 0, 0] },
          ],
        },
      ],
    },
    ...(v.note
      ? [{ text: [{ text: 'Poznámka: ', style: 'label' }, v.note], margin: [0, 12, 0, 0] } as Content]
      : []),
  ];
  const legal = `Právne záväzným dokladom je elektronická faktúra vo formáte XML (SHA-256 ${v.sha256}), prijatá ${v.receivedAt.slice(0, 10)} (${v.channel}); toto je jej čitateľné zobrazenie.`;
  return {
    info: {
      title: `${credit ? 'Prijatý dobropis' : 'Prijatá faktúra'} ${v.invoiceNumber}`,
      subject: 'Received e-invoice',
      creator: 'business-backend 1.6',
    },
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 62],
    defaultStyle: { font: 'Roboto', fontSize: 9 },
    styles,
    content,
    footer: (currentPage: number, pageCount: number): Content => ({
      stack: [
        { text: legal, style: 'small' },
        { text: `Strana ${currentPage} / ${pageCount}`, alignment: 'right', style: 'small' },
      ],
      margin: [40, 6, 40, 0],
    }),
  };
}
