/**
 * Report definitions (DESIGN §4, §7) and the provisioning of the built-in `SalesInvoice` and
 * `IssueCard` printouts. A report's code is company-unique; built-in reports keep `builtIn: true`.
 */
import { provisionCompany, type Report, reports, resolveReport } from '@bm/contracts';
import { notFound } from '@bm/errors';
import { serve } from '@bm/messaging';
import { type Ctx, pick, registerCrud, type ServiceKit } from '@bm/service-kit';
import { ReportEntity } from '../persistence/entities.js';

/** The built-in report definitions every company gets (code = document type). */
export const BUILT_IN_REPORTS: { code: string; name: string; documentType: Report['documentType'] }[] = [
  { code: 'SalesInvoice', name: 'Faktúra', documentType: 'SalesInvoice' },
  { code: 'IssueCard', name: 'Výdajka', documentType: 'IssueCard' },
];

export function registerReports(kit: ServiceKit): void {
  registerCrud(kit, reports, {
    entity: ReportEntity,
    label: 'Report',
    assign: (input: any, _ctx, existing) => ({ ...input, builtIn: existing?.builtIn ?? false }),
    toDtos: (rows) => rows.map((r) => pick(r, ['id', 'code', 'name', 'documentType', 'builtIn']) as Report),
  });

  serve<typeof resolveReport, { em: Ctx['em'] }>(
    kit.service,
    resolveReport,
    async ({ id, code }, ctx) => {
      const r = await ctx.em.findOne(ReportEntity, id ? { id } : { code: code ?? '' });
      if (!r) throw notFound('Report');
      return pick(r, ['id', 'code', 'name', 'documentType', 'builtIn']) as Report;
    },
    kit.serveOpts,
  );

  serve<ReturnType<typeof provisionCompany>, { em: Ctx['em'] }>(
    kit.service,
    provisionCompany('reporting'),
    async (profile, ctx) => {
      const em = ctx.em;
      em.setFilterParams('company', { companyId: profile.companyId });
      const existing = await em.find(ReportEntity, { builtIn: true });
      const reportIds: Record<string, string> = Object.fromEntries(
        existing.map((r) => [r.documentType, r.id]),
      );
      let created = 0;
      for (const r of BUILT_IN_REPORTS) {
        if (reportIds[r.documentType]) continue;
        const e = em.create(ReportEntity, {
          id: crypto.randomUUID(),
          companyId: profile.companyId,
          ...r,
          builtIn: true,
        });
        reportIds[r.documentType] = e.id;
        created++;
      }
      await em.flush();
      return { created: { reports: created }, reportIds };
    },
    kit.serveOpts,
  );
}
