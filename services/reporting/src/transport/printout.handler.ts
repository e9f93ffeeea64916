/**
 * `reporting.printouts.render` (INTERFACE §4.3 printout) and the cancels on `reporting.printouts.cancel`
 * (issue #22, every replica listens): transport only.
 */
import { CancelPrintout, PRINTOUT_CANCEL_SUBJECT, renderPrintout } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx } from '@bm/service-kit';
import type { ReportingDeps } from '../application/printout.service.js';
import * as printouts from '../application/printout.service.js';

export function registerPrintouts(deps: ReportingDeps): void {
  serve<typeof renderPrintout, { em: Ctx['em'] }>(
    deps.kit.service,
    renderPrintout,
    ({ reportId, recordId, renderId }, ctx) =>
      printouts.renderPrintout(deps, ctx, reportId, recordId, renderId),
    deps.kit.serveOpts,
  );
  const cancellations = deps.cancellations;
  if (!cancellations) return;
  deps.kit.nc.subscribe(PRINTOUT_CANCEL_SUBJECT, {
    callback: (err, msg) => {
      if (err) return;
      const parsed = CancelPrintout.safeParse(safeJson(msg.data));
      if (parsed.success) cancellations.cancel(parsed.data.renderId);
    },
  });
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(data));
  } catch {
    return undefined;
  }
}
