/**
 * A complete Slovak domestic sales invoice as an e-invoice source (issue #21), for the domain tests and
 * the bench: 2 × 50.00 at 23 % (base 100.00, VAT 23.00), seller and buyer with every field the Slovak
 * CIUS asks for, a bank account, and VAT codes of every kind (`v` standard, `ic` intra-community with
 * paragraphs `g` goods and `s` services, `ex` export, `os` exempt, `z` zero). It passes every pre-flight
 * rule; tests change what their rule checks.
 */
import type { EInvoiceSource } from './source.js';

export const sampleSource = (): EInvoiceSource => ({
  invoice: {
    recordNumber: 'OF202600001',
    dateCreated: '2026-11-20',
    dateDelivery: null,
    dateValidTo: '2026-12-04',
    currency: 'EUR',
    mode: 'creation',
    bonusPercent: null,
    orderRecordNo: null,
    symbolVariable: '202600001',
    vatNumber: null,
    partnerDetail: 'Odberateľ a.s.',
    partnerCountry: 'SK',
    partnerNumber3: 'SK2021987654',
    commentAboveItems: null,
    sumBase: '100',
    sumVat: '23',
    sumTotal: '123',
    vatSummary: [{ vatID: 'v', rate: '23', base: '100', vat: '23' }],
    rows: [
      {
        quantity: '2',
        price: '50',
        code: 'K',
        name: 'Káva',
        vatId: 'v',
        vatRate: '23',
        vatParagraphId: null,
        sumBase: '100',
        unitCode: 'H87',
      },
    ],
  },
  seller: {
    name: 'Demo Obchod s.r.o.',
    companyNumber: '50123456',
    taxNumber: '2020123456',
    vatNumber: 'SK2020123456',
    street: 'Hlavná 12',
    city: 'Bratislava',
    postalCode: '81101',
    country: 'SK',
    registration: 'OR MS Bratislava III, Sro 12345/B',
    email: null,
    phone: null,
    peppolId: null,
  },
  buyer: {
    name: 'Odberateľ a.s.',
    companyNumber: '36789012',
    taxNumber: '2021987654',
    street: 'Námestie SNP 5',
    city: 'Banská Bystrica',
    postalCode: '97401',
    email: null,
    peppolId: null,
  },
  vatCodes: {
    v: { kind: 'standard', paragraphs: {} },
    ic: {
      kind: 'intraCommunity',
      paragraphs: { g: { code: 'IC-GOODS', text: '' }, s: { code: 'IC-SERVICES', text: '' } },
    },
    ex: { kind: 'export', paragraphs: {} },
    os: { kind: 'exempt', paragraphs: {} },
    z: { kind: 'zero', paragraphs: {} },
  },
  bankAccount: { iban: 'SK3112000000198742637541', bic: null, name: 'BU' },
  corrected: null,
});
