/** Receipt-card endpoints (DESIGN §4 "Stock intake"): create and read. Transport only. */
import { createReceiptCard, getReceiptCard } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx, DocumentDeps } from '@bm/service-kit';
import { createReceiptCard as createCard } from './receipt-card.kind.js';
import { getReceiptCard as readReceiptCard } from './receipt-card.queries.js';

type X = { em: Ctx['em'] };

/** Registers the receipt-card endpoints. */
export function registerReceiptCards(deps: DocumentDeps): void {
  const { kit } = deps;
  serve<typeof createReceiptCard, X>(
    kit.service,
    createReceiptCard,
    (input, ctx) => createCard(deps, ctx, input),
    kit.serveOpts,
  );
  serve<typeof getReceiptCard, X>(
    kit.service,
    getReceiptCard,
    ({ id }, ctx) => readReceiptCard(ctx.em, id),
    kit.serveOpts,
  );
}
