/** Reporting schema entities (DESIGN §1: schema `reporting`): report definitions. */
import { companyFilter } from '@bm/service-kit';
import { defineEntity, p } from '@mikro-orm/postgresql';

export const SCHEMA = 'reporting';

export const ReportEntity = defineEntity({
  name: 'Report',
  tableName: 'report',
  schema: SCHEMA,
  filters: companyFilter,
  properties: {
    id: p.uuid().primary(),
    companyId: p.uuid(),
    code: p.string().length(30),
    name: p.string(),
    documentType: p.string().length(20),
    builtIn: p.boolean(),
  },
  uniques: [{ properties: ['companyId', 'code'] }],
});

export const entities = [ReportEntity];
