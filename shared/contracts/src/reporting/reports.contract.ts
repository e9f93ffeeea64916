/** Report definitions (DESIGN §4, §7), owned by the reporting service. Subjects `reporting.reports.<verb>`. */

import { DocumentType } from '../common.contract.js';
import { defineContract } from '../contract.js';
import { crudContracts } from '../crud.js';
import { Guid, Text, z } from '../primitives.js';

export const ReportInput = z.object({ code: Text(30), name: Text(), documentType: DocumentType });
export const Report = z.object({
  id: Guid(),
  code: z.string(),
  name: z.string(),
  documentType: DocumentType,
  builtIn: z.boolean(),
});
export type Report = z.infer<typeof Report>;
export const reports = crudContracts('reporting.reports', ReportInput, Report);

/** A report by id or code (`reportId` / `reportCode` of documents). 404 when the company has none. */
export const resolveReport = defineContract({
  subject: 'reporting.reports.resolve',
  request: z.object({ id: Guid().nullable().optional(), code: z.string().nullable().optional() }),
  reply: Report,
});
