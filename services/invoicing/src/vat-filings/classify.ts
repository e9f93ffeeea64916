/**
 * Which part of the control statement (KVDPH_2025) each document's VAT belongs to (issue #37; §78a of Act
 * 222/2004 and the instructions (poučenie) to the form; docs/decisions.md "VAT filings"). Pure.
 *
 * Sales by their tax point: domestic VAT to a buyer with an IČ DPH → A.1 (one line per invoice and rate), to
 * a buyer without one → D.2 (summed); domestic reverse charge §69(12) → A.2 (one line per invoice and goods);
 * credit notes of either kind → C.1 against the invoice they correct; intra-community supplies, exports,
 * exempt supplies (§28–§42) and OSS sales are not in the statement (the return and the recapitulative
 * statement carry them).
 * Purchases in their deduction period (§51): self-assessed (§11, §69(2), (3), (12)) → B.1; domestic with a
 * deduction → B.2; simplified invoices → B.3.1 (total with VAT up to 3 000 EUR, summed) or B.3.2 (above it,
 * per supplier); purchase credit notes → C.2 (self-assessed ones stay in B.1 with negative amounts).
 */
import type { InputVatLine } from '@bm/contracts';
import { dec } from '@bm/money';

/** A sales invoice's VAT in EUR, per VAT code (from its stored VAT summary and code kinds). */
export interface SalesDoc {
  id: string;
  number: string;
  taxPoint: string;
  buyerVatNumber: string | null;
  creditNote: boolean;
  /** The record number of the invoice a credit note corrects. */
  correctedNumber: string | null;
  lines: { kind: string; rate: string; base: string; vat: string }[];
  /** Rows under a domestic reverse-charge code, for A.2/C.1. */
  reverseCharge: {
    letter: string | null;
    commodityCode: string | null;
    quantity: string;
    unit: string | null;
    base: string;
  }[];
}

/** A purchase invoice's input VAT in EUR (its stored `inputVat`). */
export interface PurchaseDoc {
  id: string;
  number: string;
  taxPoint: string;
  supplierVatNumber: string | null;
  simplified: boolean;
  /** Total with VAT in EUR (the B.3 threshold). */
  total: string;
  creditNote: boolean;
  correctedNumber: string | null;
  inputVat: InputVatLine[];
}

/** The section of a classified amount. */
export type Section = 'A1' | 'A2' | 'B1' | 'B2' | 'B31' | 'B32' | 'C1' | 'C2' | 'D2' | 'none';

/** One amount of one document in its section: the unit the statement and the return are both built from. */
export interface Entry {
  section: Section;
  /** What the return needs beyond the section: `icSupply`, `export`, `icAcquisition` … */
  kind: string;
  documentId: string;
  number: string;
  taxPoint: string;
  partner: string | null;
  corrected: string | null;
  rate: string;
  base: string;
  vat: string;
  deducted: string;
  goods?: { letter: string | null; commodityCode: string | null; quantity: string; unit: string | null };
}

/** A document the statement cannot carry as it stands, and why (the 422 names it). */
export interface Problem {
  documentId: string;
  number: string;
  field: string;
  message: string;
}

/** The B.3.1/B.3.2 threshold: a simplified invoice's total with VAT (EUR) up to which it is summed. */
export const SIMPLIFIED_LIMIT = '3000';
const DOMESTIC = new Set(['standard', 'reduced']);

/** Classifies every amount of the period's documents; `problems` collects what must be fixed first. */
export function classify(sales: SalesDoc[], purchases: PurchaseDoc[], problems: Problem[]): Entry[] {
  const out: Entry[] = [];
  for (const d of sales) out.push(...classifySale(d, problems));
  for (const d of purchases) out.push(...classifyPurchase(d, problems));
  return out;
}

function classifySale(d: SalesDoc, problems: Problem[]): Entry[] {
  const head = { documentId: d.id, number: d.number, taxPoint: d.taxPoint, partner: d.buyerVatNumber };
  const corrected = d.creditNote ? d.correctedNumber : null;
  const needsOriginal = d.creditNote && d.buyerVatNumber && !d.correctedNumber;
  const out: Entry[] = [];
  for (const l of d.lines) {
    const base = { ...head, corrected, rate: l.rate, base: l.base, vat: l.vat, deducted: '0' };
    if (DOMESTIC.has(l.kind)) {
      const section: Section = !d.buyerVatNumber ? 'D2' : d.creditNote ? 'C1' : 'A1';
      out.push({ ...base, section, kind: 'domestic' });
    } else if (l.kind === 'intraCommunity') out.push({ ...base, section: 'none', kind: 'icSupply' });
    else if (l.kind === 'export') out.push({ ...base, section: 'none', kind: 'export' });
    else if (l.kind === 'exempt') out.push({ ...base, section: 'none', kind: 'exempt' });
  }
  for (const g of d.reverseCharge) {
    if (!d.buyerVatNumber)
      problems.push({
        documentId: d.id,
        number: d.number,
        field: 'partnerNumber3',
        message: 'a domestic reverse-charge supply (A.2) needs the buyer’s IČ DPH',
      });
    out.push({
      ...head,
      corrected,
      section: d.creditNote ? 'C1' : 'A2',
      kind: 'reverseChargeSupply',
      rate: '0',
      base: g.base,
      vat: '0',
      deducted: '0',
      goods: { letter: g.letter, commodityCode: g.commodityCode, quantity: g.quantity, unit: g.unit },
    });
  }
  if (needsOriginal && out.some((e) => e.section === 'C1'))
    problems.push({
      documentId: d.id,
      number: d.number,
      field: 'correctedInvoiceId',
      message: 'a credit note (C.1) must name the invoice it corrects',
    });
  return out;
}

function classifyPurchase(d: PurchaseDoc, problems: Problem[]): Entry[] {
  const head = { documentId: d.id, number: d.number, taxPoint: d.taxPoint, partner: d.supplierVatNumber };
  const out: Entry[] = [];
  const problem = (field: string, message: string) =>
    problems.push({ documentId: d.id, number: d.number, field, message });
  for (const l of d.inputVat) {
    const base = { ...head, corrected: null, rate: l.rate, base: l.base, vat: l.vat, deducted: l.deducted };
    if (l.selfAssessed) {
      out.push({
        ...base,
        section: 'B1',
        kind: l.kind === 'intraCommunityAcquisition' ? 'icAcquisition' : 'selfAssessed',
      });
      continue;
    }
    if (dec(l.deducted).isZero()) continue;
    if (d.creditNote) {
      if (!d.correctedNumber)
        problem('correctedInvoiceId', 'a purchase credit note (C.2) must name the invoice it corrects');
      if (!d.supplierVatNumber) problem('partnerId', 'C.2 needs the supplier’s IČ DPH (partner vatNumber)');
      out.push({ ...base, corrected: d.correctedNumber, section: 'C2', kind: 'domestic' });
    } else if (d.simplified) {
      const small = dec(d.total).abs().lte(SIMPLIFIED_LIMIT);
      if (!small && !d.supplierVatNumber)
        problem('partnerId', 'B.3.2 needs the supplier’s IČ DPH (partner vatNumber)');
      out.push({ ...base, section: small ? 'B31' : 'B32', kind: 'domestic' });
    } else {
      if (!d.supplierVatNumber) problem('partnerId', 'B.2 needs the supplier’s IČ DPH (partner vatNumber)');
      out.push({ ...base, section: 'B2', kind: 'domestic' });
    }
  }
  return out;
}
