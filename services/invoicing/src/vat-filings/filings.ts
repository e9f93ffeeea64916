/**
 * The control statement and the VAT return of a period, and their filings (issue #37; DESIGN §6b).
 * Handlers: `invoicing.tax.*`. A filing is frozen like an e-invoice: its XML bytes, SHA-256, time and kind
 * (R regular, O corrective: the full statement again before the deadline, D supplementary: only the change),
 * returned byte for byte for ever.
 */
import { createHash } from 'node:crypto';
import type { ControlStatement, VatFiling, VatReturn } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, unprocessable } from '@bm/errors';
import { todayIn } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { unitCodesById } from '../references/index.js';
import { VatFilingEntity, VatManualFiguresEntity } from '../schema/entities.js';
import { readPurchases, readSales, reverseChargeUnitIds } from './books.reads.js';
import { classify, type Entry, type Problem } from './classify.js';
import { type ControlStatementBody, controlStatement, type ManualFigures } from './control-statement.js';
import { assertFiled, type Form, filerOf, periodOf } from './filer.js';
import { type FilingKind, nextKind } from './filing-kind.js';
import type { FilingPeriod } from './period.js';
import { sectionTotals } from './section-totals.js';
import { differs, fullFiling, supplementary } from './supplementary.js';
import { RETURN_ROWS, supplementaryRows, vatReturn } from './vat-return.js';
import { controlStatementXml, type Filer, vatReturnXml } from './xml.js';

export { periodOf } from './filer.js';

/** Unit codes (MJ) by unit id, with the ids they were asked for. */
export interface Units {
  asked: Set<string>;
  codes: Map<string, string>;
}
const unitIdsOf = (sales: Awaited<ReturnType<typeof readSales>>) =>
  sales.flatMap((s) => s.reverseCharge.map((r) => r.unitId).filter((u): u is string => !!u));

/**
 * The units of the period's reverse-charge rows, asked from the warehouse before a transaction opens (a
 * NATS request never runs inside one, docs/architecture.md).
 */
export async function unitsOfPeriod(kit: ServiceKit, ctx: Ctx, period: FilingPeriod): Promise<Units> {
  const ids = await reverseChargeUnitIds(ctx.em, ctx.companyId!, period.months);
  return { asked: new Set(ids), codes: await unitCodesById(kit, ctx, ids) };
}

/**
 * The period's books, classified; `problems` what a filing would refuse. `units` resolved beforehand
 * (inside a transaction); else asked here.
 * @throws 409 InvalidState when a document with a unit not resolved beforehand was booked meanwhile
 */
export async function books(kit: ServiceKit, ctx: Ctx, period: FilingPeriod, units?: Units) {
  const [sales, purchases, manualRow] = await Promise.all([
    readSales(ctx.em, ctx.companyId!, period.months),
    readPurchases(ctx.em, ctx.companyId!, period.months),
    ctx.em.findOne(VatManualFiguresEntity, { period: period.code }),
  ]);
  const ids = unitIdsOf(sales);
  if (units && ids.some((u) => !units.asked.has(u)))
    throw new AppError(
      ErrorKind.conflict,
      ErrorCode.InvalidState,
      'the books changed while filing; file again',
    );
  const codes = units?.codes ?? (await unitCodesById(kit, ctx, ids));
  for (const s of sales) for (const r of s.reverseCharge) r.unit = (r.unitId && codes.get(r.unitId)) || null;
  const problems: Problem[] = [];
  const entries = classify(sales, purchases, problems);
  const manual = (manualRow?.figures ?? {}) as ManualFigures;
  return { entries, manual, problems, sales };
}

/** 422 naming each document a filing cannot carry as it stands. */
export const refuse = (problems: Problem[]) =>
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

type Rows = Record<string, string>;
/** Whether two sets of the return's rows hold the same rows with the same amounts. */
const sameRows = (a: Rows, b: Rows): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/** What differs between the two forms: the state built from the books, its change test, and its XML. */
const FORMS = {
  KVDPH: {
    build: (entries: Entry[], manual: ManualFigures): unknown => controlStatement(entries, manual),
    changed: (now: unknown, filed: unknown) =>
      differs(now as ControlStatementBody, filed as ControlStatementBody),
    xml: (now: unknown, filed: unknown, period: FilingPeriod, kind: FilingKind, filer: Filer) =>
      controlStatementXml(
        kind === 'D'
          ? supplementary(now as ControlStatementBody, filed as ControlStatementBody)
          : fullFiling(now as ControlStatementBody),
        period,
        kind,
        filer,
      ),
  },
  DPH: {
    build: (entries: Entry[], manual: ManualFigures): unknown => vatReturn(entries, manual),
    // Row by row: the filed rows come back from jsonb, whose keys are not in the order they were written.
    changed: (now: unknown, filed: unknown) => !sameRows(now as Rows, filed as Rows),
    xml: (
      now: unknown,
      filed: unknown,
      period: FilingPeriod,
      kind: FilingKind,
      filer: Filer,
      today: string,
    ) =>
      vatReturnXml(
        kind === 'D' ? supplementaryRows(now as Rows, filed as Rows) : (now as Rows),
        RETURN_ROWS,
        period,
        kind,
        filer,
        today,
      ),
  },
} as const;

/** A form of a period as the books stand: its state, its filings so far, and whether it changed since. */
async function current(
  kit: ServiceKit,
  ctx: Ctx,
  form: 'KVDPH' | 'DPH',
  period: FilingPeriod,
  units?: Units,
) {
  assertFiled(form, period);
  const { entries, manual, problems } = await books(kit, ctx, period, units);
  if (problems.length) throw refuse(problems);
  const state = FORMS[form].build(entries, manual);
  const filed = await filingsOf(ctx, form, period.code);
  const last = filed.at(-1);
  const changed = !!last && FORMS[form].changed(state, last.state);
  const head = { period: period.code, filings: filed.length, changed, deadline: period.deadline };
  /** The XML a filing of `kind` would carry now. */
  const xml = async (kind: FilingKind) =>
    FORMS[form].xml(state, last?.state, period, kind, await filerOf(ctx, form), todayOf(ctx));
  /**
   * Issue #44: what `POST …/filings` without a kind would file now (R first, D once filed and changed), or
   * null when nothing changed since the last filing; a `GET` shows that kind and its lines.
   */
  const next: FilingKind | null = !filed.length ? 'R' : changed ? 'D' : null;
  /** The XML a `GET` shows: the next filing's, or the last filing's bytes when there is nothing to file. */
  const shown = async () => (next ? xml(next) : Buffer.from(last!.xml).toString('utf8'));
  return { period, state, filed, head: { ...head, kind: next }, xml, shown };
}

/** The company's today, `YYYY-MM-DD`. */
export const todayOf = (ctx: Ctx) => todayIn(ctx.timeZone ?? 'Europe/Bratislava');

/**
 * `GET /1.6/tax/control-statements/{period}`: the sections (EUR, 2 decimals) and, when `withXml`, the
 * KVDPH_2025 XML as the next full filing would carry it (R, or O once filed).
 * @throws 400 (period), 422 (documents to fix; no IČ DPH for the XML)
 */
export async function statement(
  kit: ServiceKit,
  ctx: Ctx,
  code: string,
  withXml: boolean,
): Promise<ControlStatement> {
  const c = await current(kit, ctx, 'KVDPH', await periodOf(ctx, code));
  const sections = c.state as ControlStatementBody;
  return {
    ...c.head,
    form: 'KVDPH_2025',
    sections,
    totals: sectionTotals(sections),
    ...(c.head.kind === 'D'
      ? { changes: supplementary(sections, c.filed.at(-1)!.state as ControlStatementBody) }
      : {}),
    ...(withXml ? { xml: await c.shown() } : {}),
  };
}

/** `GET /1.6/tax/vat-returns/{period}`: the return's rows (EUR) and, when `withXml`, its XML. Errors as above. */
export async function vatReturnOf(
  kit: ServiceKit,
  ctx: Ctx,
  code: string,
  withXml: boolean,
): Promise<VatReturn> {
  const c = await current(kit, ctx, 'DPH', await periodOf(ctx, code));
  const rows = c.state as Rows;
  return {
    ...c.head,
    form: 'DPH2025',
    rows: c.head.kind === 'D' ? supplementaryRows(rows, c.filed.at(-1)!.state as Rows) : rows,
    ...(withXml ? { xml: await c.shown() } : {}),
  };
}

/** What a filing of a period freezes: its kind and sequence, its XML, and the state the next one is measured against. */
export interface PreparedFiling {
  kind: FilingKind;
  seq: number;
  xml: string;
  state: unknown;
}

/**
 * Inside the filing's transaction (`ctx.em` is the document's): the next filing of `form` (kind by
 * {@link nextKind}) as the books stand, `units` resolved beforehand.
 * @throws 400, 409, 422 as {@link nextKind} and {@link statement}
 */
export async function prepareFiling(
  kit: ServiceKit,
  ctx: Ctx,
  form: 'KVDPH' | 'DPH',
  period: FilingPeriod,
  units: Units,
  asked?: string,
): Promise<PreparedFiling> {
  const c = await current(kit, ctx, form, period, units);
  const kind = nextKind(c.filed.length, c.head.changed, asked, c.period.deadline, todayOf(ctx));
  return { kind, seq: c.filed.length + 1, xml: await c.xml(kind), state: c.state };
}

/** Stores a filing: its XML bytes, SHA-256, kind, sequence and the state the next one is measured against. */
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

/** The period's advisory lock for one form, for the filing's transaction. */
export const lockPeriod = (ctx: Ctx, form: Form, period: string) =>
  ctx.em.execute('select pg_advisory_xact_lock(hashtext(?))', [
    `vat-filing:${ctx.companyId}:${form}:${period}`,
  ]);
