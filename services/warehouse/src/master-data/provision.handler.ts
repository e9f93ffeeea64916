/**
 * `warehouse.company.provision` (DESIGN §3): seeds a new company's warehouse master data: one FIFO
 * warehouse, the common units, and the default IssueCard (`VY`) and ReceiptCard (`PR`) ordners.
 * Idempotent: a company that already has warehouse ordners is left as it is.
 */
import { defaultNumberFormat, provisionCompany } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import { OrdnerEntity, UnitEntity, WarehouseEntity } from '../schema/entities.js';

/** Units every company starts with (code, name, UN/ECE Recommendation 20/21 code for e-invoices, issue #21). */
export const DEFAULT_UNITS: [string, string, string][] = [
  ['ks', 'kus', 'H87'],
  ['kg', 'kilogram', 'KGM'],
  ['l', 'liter', 'LTR'],
  ['m', 'meter', 'MTR'],
  ['h', 'hodina', 'HUR'],
];

export function registerProvision(kit: ServiceKit): void {
  serve<ReturnType<typeof provisionCompany>, { em: Ctx['em'] }>(
    kit.service,
    provisionCompany('warehouse'),
    async (profile, ctx) => {
      const em = ctx.em;
      em.setFilterParams('company', { companyId: profile.companyId });
      if (await em.count(OrdnerEntity, {})) return { created: {} as Record<string, number> };
      const companyId = profile.companyId;
      em.create(WarehouseEntity, {
        id: crypto.randomUUID(),
        companyId,
        code: 'HS',
        name: 'Hlavný sklad',
        valuationMethod: 'FIFO',
        allowNegativeStock: false,
        accounted: true,
        stockAccount: '132',
        expenseAccount: '504',
      });
      for (const [code, name, uneceCode] of DEFAULT_UNITS)
        em.create(UnitEntity, { id: crypto.randomUUID(), companyId, code, name, uneceCode });
      const ordners: [string, string, string][] = [
        ['VY', 'Výdajky', 'IssueCard'],
        ['PR', 'Príjemky', 'ReceiptCard'],
      ];
      for (const [code, name, documentType] of ordners) {
        em.create(OrdnerEntity, {
          id: crypto.randomUUID(),
          companyId,
          code,
          name,
          documentType,
          numberFormat: defaultNumberFormat(code),
          reportId: profile.reportIds[documentType] ?? null,
          isDefault: true,
        });
      }
      await em.flush();
      return { created: { warehouses: 1, units: DEFAULT_UNITS.length, ordners: ordners.length } };
    },
    kit.serveOpts,
  );
}
