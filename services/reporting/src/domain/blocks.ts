/**
 * Building blocks of the printouts (DESIGN §7): party blocks, header cells, label/value pairs, the
 * page footer and the styles. Pure pdfmake content.
 */
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { Party } from './print-model.js';

export const partyBlock = (title: string, p: Party): Content => ({
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
export const th = (text: string, numeric: boolean) => ({
  text,
  style: 'th',
  ...(numeric ? { alignment: 'right' as const } : {}),
});

export const pair = (label: string, value: string | null | undefined): Content[] => [
  { text: label, style: 'label' },
  { text: value ?? '' },
];

export const footer =
  (recordNumber: string) =>
  (currentPage: number, pageCount: number): Content => ({
    columns: [
      { text: recordNumber, style: 'small' },
      { text: `Strana ${currentPage} / ${pageCount}`, alignment: 'right', style: 'small' },
    ],
    margin: [40, 10, 40, 0],
  });

export const styles: TDocumentDefinitions['styles'] = {
  title: { fontSize: 16, bold: true },
  label: { fontSize: 7.5, color: '#555555' },
  small: { fontSize: 7.5, color: '#555555' },
  th: { bold: true, fontSize: 8, fillColor: '#eeeeee' },
  total: { bold: true, fontSize: 11 },
};
