/**
 * The recapitulative statement of a period and its filings (issue #44; §80 of Act 222/2004; SVDPHv20):
 * built from the same sales as the VAT return (`books`), frozen like the other filings. A month, or a
 * quarter when the payer supplied services alone in it (§80(1)); due by the 25th after the period (the
 * next working day when that is a day off). `R` carries every line; afterwards `O` the lines filed with
 * figures that no longer hold (with the right ones; 0 for a line gone) and `D` the lines never filed —
 * each filing's state is the lines filed so far, what the next one is measured against. Filed through the
 * document kind `vatFilingKind` (vat-filing.kind.ts).
 */
import type { RecapitulativeStatement } from '@bm/contracts';
import { AppError, ErrorCode, ErrorKind, unprocessable, validationFailed } from '@bm/errors';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import type { Problem } from './classify.js';
import { filerOf } from './filer.js';
import { books, filingsOf, type PreparedFiling, refuse, todayOf, type Units } from './filings.js';
import { type FilingPeriod, parseFilingPeriod } from './period.js';
import { recapXml } from './recap-xml.js';
import {
  type IcSupply,
  type RecapLine,
  recapChanges,
  recapFiled,
  recapLines,
  recapTotals,
  type SupplyKind,
} from './recapitulative.js';

type Kind = 'R' | 'O' | 'D';

/** A month `YYYY-MM` or a quarter `YYYY-Qn`, whatever the company's VAT period. @throws 400 naming `period` */
export function recapPeriodOf(code: string): FilingPeriod {
  const parsed = parseFilingPeriod(code, /Q/.test(code) ? 'quarter' : 'month');
  if (typeof parsed === 'string') throw validationFailed([{ path: 'period', message: parsed }]);
  return parsed;
}

const KINDS: Record<string, SupplyKind> = {
  intraCommunity: 'goods',
  intraCommunityTriangular: 'triangular',
  intraCommunityServices: 'services',
};

/** The period's supplies to customers in other member states, from the sales the return reads. */
function suppliesOf(sales: Awaited<ReturnType<typeof books>>['sales']): IcSupply[] {
  return sales.flatMap((s) =>
    s.lines
      .filter((l) => KINDS[l.kind])
      .map((l) => ({
        documentId: s.id,
        number: s.number,
        buyerVatNumber: s.buyerVatNumber,
        kind: KINDS[l.kind],
        base: l.base,
      })),
  );
}

/** The statement as the books stand, what was filed, and what the next filing carries. */
async function current(kit: ServiceKit, ctx: Ctx, period: FilingPeriod, units?: Units) {
  const { sales } = await books(kit, ctx, period, units);
  const problems: Problem[] = [];
  const lines = recapLines(suppliesOf(sales), problems);
  if (problems.length) throw refuse(problems);
  if (period.quarter && lines.some((l) => l.kind !== 'services'))
    throw unprocessable(
      ErrorCode.ValidationFailed,
      `${period.code} has supplies of goods: the recapitulative statement of a quarter is for a payer who supplied services alone (§80(1)); file its months`,
      { errors: [{ path: 'period', message: 'file the months of this quarter' }] },
    );
  const filed = await filingsOf(ctx, 'SV', period.code);
  const filedLines = (filed.at(-1)?.state ?? []) as RecapLine[];
  const { corrections, additions } = recapChanges(lines, filedLines);
  const next: Kind | null = !filed.length ? 'R' : corrections.length ? 'O' : additions.length ? 'D' : null;
  const carried = (k: Kind) => (k === 'R' ? lines : k === 'O' ? corrections : additions);
  const xml = async (k: Kind) =>
    recapXml(carried(k), recapTotals(carried(k)).total, period, k, await filerOf(ctx, 'SV'), todayOf(ctx));
  return { lines, filed, filedLines, corrections, additions, next, carried, xml };
}

/**
 * `GET /1.6/tax/recapitulative-statements/{period}`: the lines (EUR) per customer and kind, the totals,
 * the next filing's kind and lines, and, when `withXml`, its SVDPHv20 XML (the last filing's when nothing
 * is to be filed). @throws 400 (period), 422 (a supply without the customer's IČ DPH; a quarter with goods;
 * header data missing for the XML)
 */
export async function recapStatement(
  kit: ServiceKit,
  ctx: Ctx,
  code: string,
  withXml: boolean,
): Promise<RecapitulativeStatement> {
  const period = recapPeriodOf(code);
  const c = await current(kit, ctx, period);
  const shown = async () => (c.next ? c.xml(c.next) : Buffer.from(c.filed.at(-1)!.xml).toString('utf8'));
  return {
    period: period.code,
    filings: c.filed.length,
    changed: c.filed.length > 0 && c.next !== null,
    kind: c.next,
    deadline: period.deadline,
    form: 'SVDPHv20',
    lines: c.lines,
    totals: recapTotals(c.lines),
    ...(c.next === 'O' || c.next === 'D'
      ? { changes: { corrections: c.corrections, additions: c.additions } }
      : {}),
    ...(withXml ? { xml: await shown() } : {}),
  };
}

const conflict = (detail: string, message: string) =>
  new AppError(ErrorKind.conflict, ErrorCode.InvalidState, detail, { errors: [{ path: 'kind', message }] });

/**
 * Inside the filing's transaction (`ctx.em` is the document's): the next recapitulative statement's filing
 * — R first, then O (corrections) or D (additions), the one asked or the one due.
 * @throws 400 (R not first); 409 InvalidState (nothing of that kind to file); 422 as {@link recapStatement}
 */
export async function prepareRecapFiling(
  kit: ServiceKit,
  ctx: Ctx,
  period: FilingPeriod,
  units: Units,
  asked?: string,
): Promise<PreparedFiling> {
  const c = await current(kit, ctx, period, units);
  if (!c.filed.length && asked && asked !== 'R')
    throw validationFailed([{ path: 'kind', message: 'the first filing of a period is R' }]);
  if (c.filed.length && asked === 'R')
    throw conflict('the period is filed already; file O or D', 'filed already');
  const kind = (asked as Kind | undefined) ?? c.next;
  if (!kind) throw conflict('nothing changed since the last filing', 'nothing to file');
  if (!c.carried(kind).length)
    throw conflict(
      kind === 'O'
        ? 'no filed line has other figures now: nothing to correct'
        : 'no line is missing from the filings',
      'nothing to file',
    );
  const state = kind === 'R' ? c.lines : recapFiled(c.filedLines, c.carried(kind));
  return { kind, seq: c.filed.length + 1, xml: await c.xml(kind), state };
}
