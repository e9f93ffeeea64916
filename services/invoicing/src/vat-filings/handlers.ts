/**
 * The `invoicing.tax.*` handlers (issue #37): transport only; the work is in filings.ts.
 */
import {
  fileControlStatement,
  fileVatReturn,
  getControlStatement,
  getVatFiling,
  getVatReturn,
  listVatFilings,
  putManualFigures,
} from '@bm/contracts';
import { notFound } from '@bm/errors';
import { serve, todayIn } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { VatFilingEntity, VatManualFiguresEntity } from '../persistence/entities.js';
import type { ControlStatementBody } from './control-statement.js';
import {
  filerOf,
  filingDto,
  filingsOf,
  freeze,
  lockPeriod,
  nextKind,
  periodOf,
  statement,
  vatReturnOf,
} from './filings.js';
import { supplementary } from './supplementary.js';
import { controlStatementXml } from './xml.js';

type X = { em: Ctx['em'] };

/** Registers the `invoicing.tax.*` handlers. */
export function registerVatFilings(kit: ServiceKit): void {
  const o = kit.serveOpts;
  serve<typeof getControlStatement, X>(
    kit.service,
    getControlStatement,
    async (q, ctx) => {
      const { body: _b, ...s } = await statement(kit, ctx, q.period);
      return s;
    },
    o,
  );
  serve<typeof putManualFigures, X>(
    kit.service,
    putManualFigures,
    async (q, ctx) => {
      const period = await periodOf(ctx, q.period);
      const row = await ctx.em.findOne(VatManualFiguresEntity, { period: period.code });
      const figures = { ...(q.data.d1 ? { d1: q.data.d1 } : {}), ...(q.data.d2 ? { d2: q.data.d2 } : {}) };
      if (row) ctx.em.assign(row, { figures, updatedAt: new Date() });
      else
        ctx.em.create(VatManualFiguresEntity, {
          id: crypto.randomUUID(),
          companyId: ctx.companyId!,
          period: period.code,
          figures,
          updatedAt: new Date(),
        });
      await ctx.em.flush();
      const { body: _b, ...s } = await statement(kit, ctx, q.period);
      return s;
    },
    o,
  );
  serve<typeof fileControlStatement, X>(
    kit.service,
    fileControlStatement,
    async (q, ctx) =>
      ctx.em.transactional(async (em) => {
        const tx = { ...ctx, em } as Ctx;
        const period = await periodOf(tx, q.period);
        await lockPeriod(tx, 'KVDPH', period.code);
        const s = await statement(kit, tx, q.period);
        const filed = await filingsOf(tx, 'KVDPH', period.code);
        const kind = nextKind(
          filed.length,
          s.changed,
          q.data.kind,
          period.deadline,
          todayIn(ctx.timeZone ?? 'Europe/Bratislava'),
        );
        const body =
          kind === 'D' ? supplementary(s.body, filed.at(-1)!.state as ControlStatementBody) : s.body;
        const xml = controlStatementXml(body, period, kind, await filerOf(tx));
        return freeze(tx, 'KVDPH', period.code, kind, filed.length + 1, xml, s.body);
      }),
    o,
  );
  serve<typeof getVatReturn, X>(kit.service, getVatReturn, (q, ctx) => vatReturnOf(kit, ctx, q.period), o);
  serve<typeof fileVatReturn, X>(
    kit.service,
    fileVatReturn,
    async (q, ctx) =>
      ctx.em.transactional(async (em) => {
        const tx = { ...ctx, em } as Ctx;
        const period = await periodOf(tx, q.period);
        await lockPeriod(tx, 'DPH', period.code);
        const now = await vatReturnOf(kit, tx, q.period);
        const filed = await filingsOf(tx, 'DPH', period.code);
        const kind = nextKind(
          filed.length,
          now.changed,
          q.data.kind,
          period.deadline,
          todayIn(ctx.timeZone ?? 'Europe/Bratislava'),
        );
        const r = await vatReturnOf(kit, tx, q.period, kind);
        return freeze(tx, 'DPH', period.code, kind, filed.length + 1, r.xml, r.rows);
      }),
    o,
  );
  serve<typeof listVatFilings, X>(
    kit.service,
    listVatFilings,
    async (q, ctx) => {
      const period = await periodOf(ctx, q.period);
      return { items: (await filingsOf(ctx, q.form, period.code)).map((f) => filingDto(f, false)) };
    },
    o,
  );
  serve<typeof getVatFiling, X>(
    kit.service,
    getVatFiling,
    async (q, ctx) => {
      const f = await ctx.em.findOne(VatFilingEntity, { id: q.id });
      if (!f) throw notFound('VAT filing');
      return filingDto(f, true);
    },
    o,
  );
}
