/** `reporting.printouts.render` (INTERFACE §4.3 printout): transport only. */
import { renderPrintout } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import type { ReportingDeps } from '../application/printout.service.js';
import * as printouts from '../application/printout.service.js';

export function registerPrintouts(deps: ReportingDeps): void {
  serve<typeof renderPrintout, { em: Ctx['em'] }>(
    deps.kit.service,
    renderPrintout,
    ({ reportId, recordId }, ctx) => printouts.renderPrintout(deps, ctx, reportId, recordId),
    deps.kit.serveOpts,
  );
}
