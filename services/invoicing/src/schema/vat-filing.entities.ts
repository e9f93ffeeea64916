/**
 * VAT filings (issue #37; DESIGN §6b): each filing of a control statement (`KVDPH`) or VAT return (`DPH`),
 * frozen like an e-invoice (the XML bytes, their SHA-256, the time, the kind R/O/D), and the figures a user
 * gives for a period that this service cannot know (control statement D.1 and D.2).
 */
import { companyFilter, tenantColumns } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { SCHEMA } from './schema.js';

/**
 * One filing. `form` `KVDPH` or `DPH`; `period` `YYYY-MM` or `YYYY-Qn`; `kind` `R` (regular), `O`
 * (corrective, the full replacement) or `D` (supplementary); `seq` 1, 2, … per (form, period); `state` the
 * whole statement or return as it stood when filed (what a later supplementary one is measured against).
 */
export const VatFilingEntity = defineEntity({
  name: 'VatFiling',
  tableName: 'vat_filing',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    form: p.string().length(5),
    period: p.string().length(7),
    kind: p.string().length(1),
    seq: p.integer(),
    filedAt: p.datetime(),
    xml: p.blob(),
    sha256: p.string().length(64),
    state: p.json(),
  },
  uniques: [{ properties: ['companyId', 'form', 'period', 'seq'] }],
});

/** The user's figures of a period: control statement D.1 (cash-register totals) and D.2 (supplies without an invoice). */
export const VatManualFiguresEntity = defineEntity({
  name: 'VatManualFigures',
  tableName: 'vat_manual_figures',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    ...tenantColumns(),
    period: p.string().length(7),
    figures: p.json(),
    updatedAt: p.datetime(),
  },
  uniques: [{ properties: ['companyId', 'period'] }],
});
