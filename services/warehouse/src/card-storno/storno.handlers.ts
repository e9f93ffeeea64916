/**
 * Storno endpoints (issue #38): `POST /1.6/warehouses/issue-cards/{id}/storno` and
 * `…/receipt-cards/{id}/storno`. Transport only: resolve the storno, then run its document kind.
 */
import { reverseIssueCard, reverseReceiptCard } from '@bm/contracts';
import { serve } from '@bm/messaging';
import { type Ctx, type DocumentDeps, runDocument } from '@bm/service-kit';
import { issueCardStorno } from './issue-card-storno.kind.js';
import { receiptCardStorno } from './receipt-card-storno.kind.js';
import { resolveStorno } from './storno.resolve.js';

type X = { em: Ctx['em'] };

/** Registers both storno endpoints. Errors: see the contracts (shared/contracts warehouse/storno). */
export function registerStorno(deps: DocumentDeps): void {
  const { kit } = deps;
  serve<typeof reverseIssueCard, X>(
    kit.service,
    reverseIssueCard,
    async ({ id, date }, ctx) => {
      const s = await resolveStorno(kit, ctx, 'IssueCard', id, date);
      const reply = await runDocument(issueCardStorno, ctx.em, s);
      deps.kickOutbox();
      return reply;
    },
    kit.serveOpts,
  );
  serve<typeof reverseReceiptCard, X>(
    kit.service,
    reverseReceiptCard,
    async ({ id, date }, ctx) => {
      const s = await resolveStorno(kit, ctx, 'ReceiptCard', id, date);
      const reply = await runDocument(receiptCardStorno, ctx.em, s);
      deps.kickOutbox();
      return reply;
    },
    kit.serveOpts,
  );
}
