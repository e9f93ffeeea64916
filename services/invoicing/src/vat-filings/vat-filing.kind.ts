/**
 * A VAT filing is a document kind (issue #44, like the sales invoice since #38): run by `runDocument` in
 * the group commit of `invoicing:vat-filing`, not in a transaction of its own. Its record number is its
 * form and period (`storedNumbering`: nothing is counted); filings of one company's form and period
 * share a lock, so the engine runs two of them in order, the later one reading the books and the filings
 * again after the earlier one wrote; the period's advisory lock keeps other groups and replicas out. The
 * filing row (XML bytes, SHA-256, kind, sequence, state) is written through its store under the
 * document's savepoint, as the received e-invoice's archive is.
 */
import type { VatFiling } from '@bm/contracts';
import { type Ctx, type DocumentKind, runDocument, type ServiceKit, storedNumbering } from '@bm/service-kit';
import { assertFiled, type Form, filerOf, periodOf } from './filer.js';
import {
  freeze,
  lockPeriod,
  type PreparedFiling,
  prepareFiling,
  type Units,
  unitsOfPeriod,
} from './filings.js';
import type { FilingPeriod } from './period.js';
import { prepareRecapFiling, recapPeriodOf } from './recap-filings.js';

/** A filing asked for: the form and period, the kind asked (if any), the units resolved before the transaction. */
export interface FilingInput {
  kit: ServiceKit;
  ctx: Ctx;
  form: Form;
  period: FilingPeriod;
  asked?: string;
  units: Units;
}

const lockKey = (d: FilingInput) => `${d.ctx.companyId}:${d.form}:${d.period.code}`;
const inTx = (d: FilingInput, em: Ctx['em']): Ctx => ({ ...d.ctx, em });

export const vatFilingKind: DocumentKind<FilingInput, PreparedFiling, VatFiling, VatFiling> = {
  key: 'invoicing:vat-filing',
  declare: (d) => ({
    numbering: storedNumbering('"invoicing"."vat_filing"', d.ctx.companyId!, `${d.form}:${d.period.code}`),
    locks: [lockKey(d)],
  }),
  read: async (d, doc) => {
    const ctx = inTx(d, doc.tx);
    await lockPeriod(ctx, d.form, d.period.code);
    return d.form === 'SV'
      ? prepareRecapFiling(d.kit, ctx, d.period, d.units, d.asked)
      : prepareFiling(d.kit, ctx, d.form, d.period, d.units, d.asked);
  },
  decide: (d, p, doc) => freeze(inTx(d, doc.tx), d.form, d.period.code, p.kind, p.seq, p.xml, p.state),
  writer: () => [],
  reply: (stored) => stored,
};

/**
 * `POST …/{period}/filings` of any form: the period resolved as the form takes it (the company's VAT
 * period for KVDPH and DPH, a month or a services-only quarter for SV) and checked as filed here, the
 * header's data checked and the units resolved before the transaction, then the filing as a document
 * kind. @throws 400 (period), 422 (a period not filed, missing header data), and as `prepareFiling` /
 * `prepareRecapFiling`
 */
export async function fileForm(
  kit: ServiceKit,
  ctx: Ctx,
  form: Form,
  code: string,
  asked?: string,
): Promise<VatFiling> {
  const period = form === 'SV' ? recapPeriodOf(code) : await periodOf(ctx, code);
  assertFiled(form, period);
  await filerOf(ctx, form);
  const units = await unitsOfPeriod(kit, ctx, period);
  return runDocument(vatFilingKind, ctx.em, { kit, ctx, form, period, asked, units });
}
