/**
 * VAT filings (issue #37; DESIGN §6b): the control statement (KVDPH_2025, §78a of Act 222/2004) and the
 * VAT return of a period (`YYYY-MM` or `YYYY-Qn`, as the company's `vatPeriod`), built from the books, and
 * their filings, frozen (XML bytes, SHA-256, time, kind R/O/D). Amounts in EUR with 2 decimals, rates in whole
 * percent, dates `YYYY-MM-DD`. Subjects `invoicing.tax.<verb>`.
 */
import { defineContract } from '../contract.js';
import { Amount, Decimal4, decimal, Guid, z } from '../primitives.js';

const Period = () => z.string().trim().max(7);

/** One line of A.1 … C.2; the XML attribute of each field is named in its description. */
export const ControlStatementLine = z.object({
  partnerVatNumber: z.string().nullable().optional().describe('Odb / Dod: the partner’s IČ DPH'),
  documentNumber: z.string().optional().describe('F (FO in C.1/C.2)'),
  originalNumber: z.string().nullable().optional().describe('FP: the corrected invoice’s number'),
  taxPoint: z.string().optional().describe('Den'),
  /** Z (ZR in C.1/C.2). No `.describe()` here: a described copy of a decimal is not rendered as a number. */
  base: Amount(),
  vat: Amount().optional().describe('D (DR)'),
  rate: decimal(2).optional().describe('S'),
  deducted: Amount().optional().describe('O (OR)'),
  commodityCode: z.string().nullable().optional().describe('TK'),
  goodsKind: z.string().nullable().optional().describe('TD'),
  quantity: Decimal4().nullable().optional().describe('Mn'),
  unit: z.string().nullable().optional().describe('MJ'),
  /** Issue #44: `KOpr` of a supplementary filing's line: 1 removes a line filed before, 2 adds one. */
  correction: z.enum(['1', '2']).optional(),
  documentIds: z.array(Guid()),
});
/** D.1 / D.2: Z, D at 23 %, ZZn, DZn at 19 % and 5 % together (D.1 with SumaObratov). */
export const ControlStatementSummary = z.object({
  turnover: Amount().optional(),
  base: Amount(),
  vat: Amount(),
  baseReduced: Amount(),
  vatReduced: Amount(),
  correction: z.enum(['1', '2']).optional(),
});
export const ControlStatementSections = z.object({
  A1: z.array(ControlStatementLine),
  A2: z.array(ControlStatementLine),
  B1: z.array(ControlStatementLine),
  B2: z.array(ControlStatementLine),
  B31: ControlStatementLine.nullable(),
  B32: z.array(ControlStatementLine),
  C1: z.array(ControlStatementLine),
  C2: z.array(ControlStatementLine),
  D1: ControlStatementSummary.nullable(),
  D2: ControlStatementSummary.nullable(),
});

/**
 * Issue #44: what a supplementary control statement (D) carries: only the changed lines, each with its
 * correction code; B.3.1, D.1 and D.2 as at most two rows (the filed one with 1, the new one with 2).
 */
export const ControlStatementChanges = ControlStatementSections.extend({
  B31: z.array(ControlStatementLine),
  D1: z.array(ControlStatementSummary),
  D2: z.array(ControlStatementSummary),
});
/** Issue #44: one section's totals (EUR): base, VAT, and VAT deducted where the section has it. */
export const SectionTotal = z.object({ base: Amount(), vat: Amount(), deducted: Amount().optional() });

/** The state of a period's filings: how many, and whether the books changed since the last one. */
const FilingState = {
  period: z.string(),
  filings: z.number().int(),
  /**
   * Issue #44: what `POST …/filings` without a kind files now — `R` first, `D` once filed and changed —
   * or null when nothing changed since the last filing (the XML is then the last filing's).
   */
  kind: z.enum(['R', 'O', 'D']).nullable(),
  /** True when documents booked since the last filing change what it carried: the next one is O or D. */
  changed: z.boolean(),
  /** The last day of a regular or corrective filing (§78, §78a: the 25th day after the period). */
  deadline: z.string(),
};

export const ControlStatement = z.object({
  ...FilingState,
  form: z.literal('KVDPH_2025'),
  sections: ControlStatementSections,
  /** Issue #44: each section's totals, to reconcile with the VAT return. */
  totals: z.record(z.string(), SectionTotal),
  /** Issue #44: when `kind` is `D`, the lines it carries with their correction codes. */
  changes: ControlStatementChanges.optional(),
  /** The statement as KVDPH_2025 XML, only when the request asks `xml` (what `Accept: application/xml` answers). */
  xml: z.string().optional(),
});
export type ControlStatement = z.infer<typeof ControlStatement>;

export const VatReturn = z.object({
  ...FilingState,
  form: z.literal('DPH2025'),
  /**
   * The form's rows by number (`r01`, `r01a`, …); rows without an amount are absent. When `kind` is `D`,
   * with r36 and r37 (the differences against the last filing).
   */
  rows: z.record(z.string(), Amount()),
  /** The DPH 2025 XML, only when the request asks `xml`. */
  xml: z.string().optional(),
});
export type VatReturn = z.infer<typeof VatReturn>;

/** Issue #44: one line of the recapitulative statement: one customer, one kind of supply. */
export const RecapitulativeLine = z.object({
  country: z.string().describe('kodStatu: the IČ DPH’s country prefix'),
  vatNumber: z.string().describe('idCislo: the IČ DPH without its prefix'),
  kind: z.enum(['goods', 'triangular', 'services']),
  /** `kod`: none for goods (§43(1)), `1` the middle party of a triangular trade (§45), `2` services (§15(1)). */
  code: z.string(),
  /** `hodnota`, EUR; negative where a credit note outweighs the period's supplies. */
  value: Amount(),
  documentIds: z.array(Guid()),
});
/**
 * Issue #44: the recapitulative statement (súhrnný výkaz, §80 of Act 222/2004; SVDPHv20) of a month, or of
 * a quarter when every line is a service. `kind` R first, then O (lines filed with other figures, with the
 * right ones) or D (lines never filed).
 */
export const RecapitulativeStatement = z.object({
  ...FilingState,
  form: z.literal('SVDPHv20'),
  lines: z.array(RecapitulativeLine),
  totals: z.object({ goods: Amount(), triangular: Amount(), services: Amount(), total: Amount() }),
  /** When `kind` is O or D: the lines it carries. */
  changes: z
    .object({ corrections: z.array(RecapitulativeLine), additions: z.array(RecapitulativeLine) })
    .optional(),
  xml: z.string().optional(),
});
export type RecapitulativeStatement = z.infer<typeof RecapitulativeStatement>;

/** A frozen filing; `xml` (base64) only where one filing is asked for. */
export const VatFiling = z.object({
  id: Guid(),
  form: z.enum(['KVDPH', 'DPH', 'SV']),
  period: z.string(),
  kind: z.enum(['R', 'O', 'D']),
  seq: z.number().int(),
  filedAt: z.string(),
  sha256: z.string(),
  xml: z.string().optional(),
});
export type VatFiling = z.infer<typeof VatFiling>;

const Money = () => Amount().default('0');
/** `PUT …/control-statements/{period}/manual`: D.1 (cash registers) and D.2 (without an invoice), per rate. */
export const ManualFiguresInput = z.object({
  d1: z
    .object({
      turnover: Money(),
      base23: Money(),
      vat23: Money(),
      base19: Money(),
      vat19: Money(),
      base5: Money(),
      vat5: Money(),
    })
    .nullable()
    .optional(),
  d2: z
    .object({
      base23: Money(),
      vat23: Money(),
      base19: Money(),
      vat19: Money(),
      base5: Money(),
      vat5: Money(),
    })
    .nullable()
    .optional(),
});
export type ManualFiguresInput = z.infer<typeof ManualFiguresInput>;

/** `POST …/filings` body: the kind of a later filing, `D` (default) or `O` (before the deadline). */
export const FileInput = z.object({ kind: z.enum(['R', 'O', 'D']).optional() });

/** A form of a period as the books stand; `xml` also asks for its XML. */
const FormQuery = z.object({ period: Period(), xml: z.boolean().optional() });
/** A filing of a period's form. */
const FileRequest = z.object({ period: Period(), data: FileInput });

export const getControlStatement = defineContract({
  subject: 'invoicing.tax.control-statement',
  request: FormQuery,
  reply: ControlStatement,
});
export const putManualFigures = defineContract({
  subject: 'invoicing.tax.manual-figures',
  request: z.object({ period: Period(), data: ManualFiguresInput }),
  reply: ControlStatement,
});
export const fileControlStatement = defineContract({
  subject: 'invoicing.tax.file-control-statement',
  request: FileRequest,
  reply: VatFiling,
});
export const getVatReturn = defineContract({
  subject: 'invoicing.tax.vat-return',
  request: FormQuery,
  reply: VatReturn,
});
export const fileVatReturn = defineContract({
  subject: 'invoicing.tax.file-vat-return',
  request: FileRequest,
  reply: VatFiling,
});
export const listVatFilings = defineContract({
  subject: 'invoicing.tax.filings',
  request: z.object({ form: z.enum(['KVDPH', 'DPH', 'SV']), period: Period() }),
  reply: z.object({ items: z.array(VatFiling) }),
});
export const getVatFiling = defineContract({
  subject: 'invoicing.tax.filing',
  request: z.object({ id: Guid() }),
  reply: VatFiling,
});

/** Issue #44: `GET /1.6/tax/recapitulative-statements/{period}`. */
export const getRecapitulativeStatement = defineContract({
  subject: 'invoicing.tax.recapitulative-statement',
  request: FormQuery,
  reply: RecapitulativeStatement,
});
/** Issue #44: `POST /1.6/tax/recapitulative-statements/{period}/filings` (`{kind?}`: R, O or D). */
export const fileRecapitulativeStatement = defineContract({
  subject: 'invoicing.tax.file-recapitulative-statement',
  request: FileRequest,
  reply: VatFiling,
});
