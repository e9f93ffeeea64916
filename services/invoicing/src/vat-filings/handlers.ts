/**
 * The `invoicing.tax.*` handlers (issue #37): transport only; the work is in filings.ts.
 */
import {
  fileControlStatement,
  fileRecapitulativeStatement,
  fileVatReturn,
  getControlStatement,
  getRecapitulativeStatement,
  getVatFiling,
  getVatReturn,
  listVatFilings,
  putManualFigures,
} from '@bm/contracts';
import { notFound } from '@bm/errors';
import { serve } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { VatFilingEntity, VatManualFiguresEntity } from '../schema/entities.js';
import { filingDto, filingsOf, periodOf, statement, vatReturnOf } from './filings.js';
import { recapPeriodOf, recapStatement } from './recap-filings.js';
import { fileForm } from './vat-filing.kind.js';

type X = { em: Ctx['em'] };

/** Registers the `invoicing.tax.*` handlers. */
export function registerVatFilings(kit: ServiceKit): void {
  const o = kit.serveOpts;
  serve<typeof getControlStatement, X>(
    kit.service,
    getControlStatement,
    (q, ctx) => statement(kit, ctx, q.period, !!q.xml),
    o,
  );
  serve<typeof getVatReturn, X>(
    kit.service,
    getVatReturn,
    (q, ctx) => vatReturnOf(kit, ctx, q.period, !!q.xml),
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
      return statement(kit, ctx, q.period, false);
    },
    o,
  );
  serve<typeof fileControlStatement, X>(
    kit.service,
    fileControlStatement,
    (q, ctx) => fileForm(kit, ctx, 'KVDPH', q.period, q.data.kind),
    o,
  );
  serve<typeof fileVatReturn, X>(
    kit.service,
    fileVatReturn,
    (q, ctx) => fileForm(kit, ctx, 'DPH', q.period, q.data.kind),
    o,
  );
  // Issue #44: the recapitulative statement.
  serve<typeof getRecapitulativeStatement, X>(
    kit.service,
    getRecapitulativeStatement,
    (q, ctx) => recapStatement(kit, ctx, q.period, !!q.xml),
    o,
  );
  serve<typeof fileRecapitulativeStatement, X>(
    kit.service,
    fileRecapitulativeStatement,
    (q, ctx) => fileForm(kit, ctx, 'SV', q.period, q.data.kind),
    o,
  );
  serve<typeof listVatFilings, X>(
    kit.service,
    listVatFilings,
    async (q, ctx) => {
      const period = q.form === 'SV' ? recapPeriodOf(q.period) : await periodOf(ctx, q.period);
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
