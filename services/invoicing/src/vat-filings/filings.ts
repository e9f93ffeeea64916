/**
 * The control statement and the VAT return of a period, and their filings (issue #37; DESIGN §6b).
 * Handlers: `invoicing.tax.*`. A filing is frozen like an e-invoice: its XML bytes, SHA-256, time and kind
 * (R regular, O corrective: the full statement again before the deadline, D supplementary: only the change),
 * returned byte for byte for ever.
 */
import { createHash } from 'node:crypto';
import {
  type ControlStatement,
  fileControlStatement,
  fileVatReturn,
  getControlStatement,
  getVatFiling,
  getVatReturn,
  listVatFilings,
  putManualFigures,
  type VatFiling,
  type VatReturn,
} from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, notFound, unprocessable, validationFailed } from '@bm/errors';
import { serve, todayIn } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { CompanyProfileEntity, VatFilingEntity, VatManualFiguresEntity } from '../persistence/entities.js';
import { unitCodesById } from '../ports/unit-codes.port.js';
import { readPurchases, readSales } from './books.reads.js';
import { classify, type Problem } from './classify.js';
import { type ControlStatementBody, controlStatement, type ManualFigures } from './control-statement.js';
import { type FilingPeriod, parseFilingPeriod } from './period.js';
import { differs, supplementary } from './supplementary.js';
import { RETURN_ROWS, vatReturn } from './vat-return.js';
import { controlStatementXml, type Filer, vatReturnXml } from './xml.js';

type X = { em: Ctx['em'] };
type Form = 'KVDPH' | 'DPH';

async function profile(ctx: Ctx) {
  const p = await ctx.em.findOne(CompanyProfileEntity, {});
  if (!p) throw unprocessable(ErrorCode.ReferenceNotFound, 'the company has no profile');
  return p;
}

/** The period of `code` for this company. @throws 400 ValidationFailed naming `period` */
export async function periodOf(ctx: Ctx, code: string): Promise<FilingPeriod> {
  const p = await profile(ctx);
  const parsed = parseFilingPeriod(code, p.vatPeriod === 'quarter' ? 'quarter' : 'month');
  if (typeof parsed === 'string') throw validationFailed([{ path: 'period', message: parsed }]);
  return parsed;
}

export async function filerOf(ctx: Ctx): Promise<Filer> {
  const p = await profile(ctx);
  if (!p.vatNumber)
    throw unprocessable(ErrorCode.ValidationFailed, 'the company has no IČ DPH', {
      errors: [{ path: 'company.vatNumber', message: 'set the IČ DPH in PUT /1.6/company before filing' }],
    });
  return {
    vatNumber: p.vatNumber,
    taxNumber: p.taxNumber ?? null,
    name: p.name,
    country: p.country,
    city: p.city ?? null,
    postalCode: p.postalCode ?? null,
    street: p.street ?? null,
    phone: p.phone ?? null,
    email: p.email ?? null,
  };
}

/** The period's books, classified; `problems` what a filing would refuse. */
async function books(kit: ServiceKit, ctx: Ctx, period: FilingPeriod) {
  const [sales, purchases, manualRow] = await Promise.all([
    readSales(ctx.em, ctx.companyId!, period.months),
    readPurchases(ctx.em, ctx.companyId!, period.months),
    ctx.em.findOne(VatManualFiguresEntity, { period: period.code }),
  ]);
  const units = await unitCodesById(
    kit,
    ctx,
    sales.flatMap((s) => s.reverseCharge.map((r) => r.unitId).filter((u): u is string => !!u)),
  );
  for (const s of sales) for (const r of s.reverseCharge) r.unit = (r.unitId && units.get(r.unitId)) || null;
  const problems: Problem[] = [];
  const entries = classify(sales, purchases, problems);
  const manual = (manualRow?.figures ?? {}) as ManualFigures;
  return { entries, manual, problems };
}

const refuse = (problems: Problem[]) =>
  unprocessable(
    ErrorCode.ValidationFailed,
    `${problems.length} document(s) must be fixed before the filing`,
    {
      errors: problems.map((p) => ({
        path: `documents.${p.number}.${p.field}`,
        message: `${p.message} (document ${p.documentId})`,
      })),
    },
  );

export async function filingsOf(ctx: Ctx, form: Form, period: string) {
  return ctx.em.find(VatFilingEntity, { form, period }, { orderBy: { seq: 'asc' } });
}

export const filingDto = (f: InstanceType<typeof VatFilingEntity.class>, withXml: boolean): VatFiling => ({
  id: f.id,
  form: f.form as VatFiling['form'],
  period: f.period,
  kind: f.kind as VatFiling['kind'],
  seq: f.seq,
  filedAt: new Date(f.filedAt).toISOString(),
  sha256: f.sha256,
  ...(withXml ? { xml: Buffer.from(f.xml).toString('base64') } : {}),
});

/** `GET /1.6/tax/control-statements/{period}`. @throws 400 (period), 422 (documents to fix, no IČ DPH) */
export async function statement(
  kit: ServiceKit,
  ctx: Ctx,
  code: string,
): Promise<ControlStatement & { body: ControlStatementBody }> {
  const period = await periodOf(ctx, code);
  const { entries, manual, problems } = await books(kit, ctx, period);
  if (problems.length) throw refuse(problems);
  const body = controlStatement(entries, manual);
  const filed = await filingsOf(ctx, 'KVDPH', period.code);
  const last = filed.at(-1);
  const xml = controlStatementXml(body, period, last ? 'O' : 'R', await filerOf(ctx));
  return {
    period: period.code,
    form: 'KVDPH_2025',
    filings: filed.length,
    changed: !!last && differs(body, last.state as ControlStatementBody),
    deadline: period.deadline,
    sections: body,
    xml,
    body,
  };
}

/** `GET /1.6/tax/vat-returns/{period}`. */
export async function vatReturnOf(
  kit: ServiceKit,
  ctx: Ctx,
  code: string,
  kind?: string,
): Promise<VatReturn> {
  const period = await periodOf(ctx, code);
  const { entries, manual, problems } = await books(kit, ctx, period);
  if (problems.length) throw refuse(problems);
  const rows = vatReturn(entries, manual);
  const filed = await filingsOf(ctx, 'DPH', period.code);
  const last = filed.at(-1);
  const today = todayIn(ctx.timeZone ?? 'Europe/Bratislava');
  const xml = vatReturnXml(rows, RETURN_ROWS, period, kind ?? (last ? 'O' : 'R'), await filerOf(ctx), today);
  const changed = !!last && JSON.stringify(last.state) !== JSON.stringify(rows);
  return {
    period: period.code,
    form: 'DPH2025',
    filings: filed.length,
    changed,
    deadline: period.deadline,
    rows,
    xml,
  };
}

/**
 * The kind of the next filing: R first; then, once the books changed, D (default) or O before the deadline.
 * @throws 409 InvalidState (filed and unchanged, or R again); 422 ValidationFailed (O after the deadline)
 */
export function nextKind(
  filed: number,
  changed: boolean,
  asked: string | undefined,
  deadline: string,
  today: string,
): 'R' | 'O' | 'D' {
  if (!filed) {
    if (asked && asked !== 'R')
      throw validationFailed([{ path: 'kind', message: 'the first filing of a period is R' }]);
    return 'R';
  }
  if (asked === 'R')
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      'the period is filed already; file O or D',
      { errors: [{ path: 'kind', message: 'filed already' }] },
    );
  if (!changed)
    throw new AppError(ErrorKind.conflict, ErrorCode.InvalidState, 'nothing changed since the last filing', {
      errors: [{ path: 'kind', message: 'nothing to file' }],
    });
  if (asked === 'O' && today > deadline)
    throw validationFailed([{ path: 'kind', message: `a corrective filing is due by ${deadline}; file D` }]);
  return asked === 'O' ? 'O' : 'D';
}

export async function freeze(
  ctx: Ctx,
  form: Form,
  period: string,
  kind: string,
  seq: number,
  xml: string,
  state: unknown,
) {
  const bytes = Buffer.from(xml, 'utf8');
  const f = ctx.em.create(VatFilingEntity, {
    id: crypto.randomUUID(),
    companyId: ctx.companyId!,
    form,
    period,
    kind,
    seq,
    filedAt: new Date(),
    xml: bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    state: state as object,
  });
  await ctx.em.flush();
  return filingDto(f, false);
}

export const lockPeriod = (ctx: Ctx, form: Form, period: string) =>
  ctx.em.execute('select pg_advisory_xact_lock(hashtext(?))', [
    `vat-filing:${ctx.companyId}:${form}:${period}`,
  ]);
